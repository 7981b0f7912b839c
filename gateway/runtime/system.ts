/**
 * The only place the service touches the wall clock and the random source. Everything else
 * receives a Clock and an IdGenerator.
 */
import { randomFillSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../domain/clock.js';
import { type IdGenerator, UuidV7Sequence } from '../domain/ids.js';

export const systemClock: Clock = {
  nowMs: () => Date.now(),
};

/** Monotonic milliseconds, for durations and cache lifetimes (never for business time). */
export const monotonicMs = (): number => performance.now();

/**
 * Cryptographic randomness drawn from a pooled buffer: one kernel call per 4 KiB instead of one per
 * id. Bytes are handed out once and the pool is refilled when it runs low.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

function randomBytesPooled(size: number): Buffer {
  if (size > POOL_SIZE) return randomFillSync(Buffer.alloc(size));
  if (offset + size > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}

const uuids = new UuidV7Sequence();

export const randomIds: IdGenerator = {
  uuid: (ms) => uuids.next(ms, randomBytesPooled(10)),
  token: (bytes) => randomBytesPooled(bytes).toString('base64url'),
};
