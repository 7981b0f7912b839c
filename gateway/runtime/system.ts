/**
 * The only place the service touches the wall clock and the random source. Everything else
 * receives a Clock and an IdGenerator.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import { formatUuidV7, type IdGenerator } from '../domain/ids.js';

export const systemClock: Clock = {
  nowMs: () => Date.now(),
};

export const randomIds: IdGenerator = {
  uuid: (ms) => formatUuidV7(ms, randomBytes(10)),
  token: (bytes) => randomBytes(bytes).toString('base64url'),
};
