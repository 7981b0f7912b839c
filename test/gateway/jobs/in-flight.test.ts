/**
 * The calls a lane starts without waiting for them (gateway/jobs/in-flight.ts): bounded in all and
 * per key, waited for by `settle`, the lane woken when one ends after it found no room, and a
 * failing call logged without stopping the others.
 */
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../gateway/jobs/in-flight.js';
import { createLogger } from '../../../gateway/runtime/logger.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const logger = createLogger('silent');

describe('InFlight', () => {
  it('bounds the calls in all and per key, and settles once they all ended', async () => {
    const calls = new InFlight({ capacity: 3, perKey: 2 });
    const gates = [deferred(), deferred(), deferred()];
    calls.start('bank-a', () => gates[0]?.promise as Promise<void>, logger, 'x');
    calls.start('bank-a', () => gates[1]?.promise as Promise<void>, logger, 'x');
    expect(calls.fullKeys()).toEqual(['bank-a']);
    expect(calls.roomFor('bank-a')).toBe(0);
    expect(calls.roomFor('bank-b')).toBe(1);
    calls.start('bank-b', () => gates[2]?.promise as Promise<void>, logger, 'x');
    expect(calls.free).toBe(0);
    const settled = calls.settle();
    for (const gate of gates) gate.resolve();
    await expect(settled).resolves.toBe(3);
    expect(calls.size).toBe(0);
    expect(calls.free).toBe(3);
    await expect(calls.settle()).resolves.toBe(0);
  });

  it('wakes the lane when a call ends after the lane found no room, and only then', async () => {
    const calls = new InFlight({ capacity: 1 });
    let wakes = 0;
    calls.bindWake(() => {
      wakes += 1;
    });
    const first = deferred();
    calls.start('k', () => first.promise, logger, 'x');
    first.resolve();
    await calls.settle();
    expect(wakes).toBe(0);
    const second = deferred();
    calls.start('k', () => second.promise, logger, 'x');
    expect(calls.free).toBe(0);
    second.resolve();
    await calls.settle();
    expect(wakes).toBe(1);
  });

  it('logs a failing call and goes on', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const capturing = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const calls = new InFlight({ capacity: 2 });
    calls.start(
      'k',
      async () => {
        throw new Error('adapter fault');
      },
      capturing,
      'processor poll failed',
    );
    let ran = false;
    calls.start(
      'k',
      async () => {
        ran = true;
      },
      capturing,
      'processor poll failed',
    );
    await calls.settle();
    expect(ran).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'processor poll failed', err: { message: 'adapter fault' } });
  });
});
