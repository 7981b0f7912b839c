/**
 * The scheduler of due work (gateway/jobs/scheduler.ts): each kind of work runs in a lane of its
 * own and repeats until it answers 0 (bounded per run); a kind of work never waits for another (one
 * that hangs holds only its own lane: the others run, are woken, and tick); a failing kind of work is
 * logged and does not stop the others; runs of one lane never overlap (`runDueNow` joins a run in
 * progress, then runs again) and go on in rounds until nothing is due, the calls a lane started
 * and did not wait for included; `start` ticks on a timer and `stop` waits for the runs in progress.
 */
import { describe, expect, it } from 'vitest';
import { type DueWork, Scheduler } from '../../../gateway/jobs/scheduler.js';
import { createLogger } from '../../../gateway/runtime/logger.js';

/** A logger whose lines land in `lines`, parsed. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** A promise resolved from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A kind of work that answers `answers` in turn (then 0), recording every call in `calls`. */
function scriptedWork(name: string, answers: number[], calls: string[]): DueWork {
  const queue = [...answers];
  return {
    name,
    runBatch: async () => {
      calls.push(name);
      return queue.shift() ?? 0;
    },
  };
}

/** Work that blocks each batch on a gate and counts how many batches run at the same time. */
function gatedWork() {
  let gate = deferred();
  const state = { started: 0, active: 0, maxActive: 0 };
  const started: Array<() => void> = [];
  const work: DueWork = {
    name: 'gated',
    runBatch: async () => {
      state.started += 1;
      state.active += 1;
      state.maxActive = Math.max(state.maxActive, state.active);
      for (const notify of started.splice(0)) notify();
      await gate.promise;
      state.active -= 1;
      return 0;
    },
  };
  return {
    work,
    state,
    /** Resolves once a batch has started after this call. */
    nextStart: () => new Promise<void>((r) => started.push(r)),
    /** Lets every waiting batch finish; later batches wait for the next `release`. */
    release: () => {
      const current = gate;
      gate = deferred();
      current.resolve();
    },
  };
}

const settledFlag = (promise: Promise<unknown>) => {
  const flag = { settled: false };
  void promise.then(
    () => {
      flag.settled = true;
    },
    () => {
      flag.settled = true;
    },
  );
  return flag;
};

const tick = () => new Promise<void>((r) => setTimeout(r, 20));

describe('Scheduler.runDueNow', () => {
  it('runs each kind of work until it answers 0, then once more to see that nothing became due', async () => {
    const calls: string[] = [];
    const { logger } = capturingLogger();
    const scheduler = new Scheduler(
      [
        scriptedWork('expire', [100, 100, 3], calls),
        scriptedWork('retry', [1], calls),
        scriptedWork('mail', [], calls),
      ],
      logger,
    );
    await scheduler.runDueNow();
    // Each lane in its own order: expire's three batches, its 0, then the round that finds nothing.
    expect(calls.filter((c) => c === 'expire')).toEqual(['expire', 'expire', 'expire', 'expire', 'expire']);
    expect(calls.filter((c) => c === 'retry')).toEqual(['retry', 'retry', 'retry']);
    expect(calls.filter((c) => c === 'mail')).toEqual(['mail', 'mail']);
  });

  it('bounds a run at 50 batches per kind of work, then goes on with the next kind', async () => {
    const calls: string[] = [];
    const { logger } = capturingLogger();
    const endless: DueWork = {
      name: 'endless',
      runBatch: async () => {
        calls.push('endless');
        return 1;
      },
    };
    const scheduler = new Scheduler([endless, scriptedWork('next', [], calls)], logger);
    const run = scheduler.runDueNow();
    await run;
    // 50 batches a run; the rounds of runDueNow are bounded too (10), so a backlog that never ends
    // cannot hold the caller for ever.
    expect(calls.filter((c) => c === 'endless')).toHaveLength(500);
    expect(calls).toContain('next');
  });

  it('a failing kind of work is logged and does not stop the others; the next run tries it again', async () => {
    const calls: string[] = [];
    const { logger, lines } = capturingLogger();
    let failures = 0;
    const broken: DueWork = {
      name: 'broken',
      runBatch: async () => {
        calls.push('broken');
        failures += 1;
        throw new Error(`database went away #${failures}`);
      },
    };
    const scheduler = new Scheduler(
      [scriptedWork('first', [2], calls), broken, scriptedWork('last', [1], calls)],
      logger,
    );

    await expect(scheduler.runDueNow()).resolves.toBeUndefined();
    expect(calls.filter((c) => c !== 'broken')).toEqual(['first', 'last', 'first', 'last', 'first', 'last']);
    // Round 1 handled work (first, last), so round 2 ran every lane again, the broken one included.
    expect(calls.filter((c) => c === 'broken')).toHaveLength(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'due work failed', work: 'broken' });
    expect(lines[0]?.err).toMatchObject({ message: 'database went away #1' });

    await scheduler.runDueNow();
    expect(calls.filter((c) => c === 'broken')).toHaveLength(3);
    expect(lines).toHaveLength(3);
    expect(lines[2]?.err).toMatchObject({ message: 'database went away #3' });
  });

  it('a call during a run joins it, then runs again (the work that became due meanwhile)', async () => {
    const gated = gatedWork();
    const scheduler = new Scheduler([gated.work], capturingLogger().logger);

    const firstStarted = gated.nextStart();
    const first = scheduler.runDueNow();
    await firstStarted;
    const second = scheduler.runDueNow();
    const secondDone = settledFlag(second);
    await tick();
    expect(gated.state.started).toBe(1);

    const secondStarted = gated.nextStart();
    gated.release();
    await first;
    await secondStarted;
    expect(secondDone.settled).toBe(false);
    expect(gated.state.started).toBe(2);

    gated.release();
    await second;
    expect(gated.state.maxActive).toBe(1);
  });

  it('never runs twice at once, however many calls arrive during a run', async () => {
    const gated = gatedWork();
    const scheduler = new Scheduler([gated.work], capturingLogger().logger);

    const started = gated.nextStart();
    const calls = [scheduler.runDueNow()];
    await started;
    for (let i = 0; i < 4; i++) calls.push(scheduler.runDueNow());

    const all = Promise.all(calls);
    const done = settledFlag(all);
    while (!done.settled) {
      gated.release();
      await tick();
    }
    await all;
    expect(gated.state.maxActive).toBe(1);
    expect(gated.state.started).toBeGreaterThanOrEqual(2);
  });
});

describe('Scheduler.start and stop', () => {
  it('start runs due work on every tick until stop', async () => {
    const calls: string[] = [];
    const work: DueWork = {
      name: 'tick',
      runBatch: async () => {
        calls.push('tick');
        return 0;
      },
    };
    const scheduler = new Scheduler([work], capturingLogger().logger, 5);
    scheduler.start();
    await expect.poll(() => calls.length, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
    const afterStop = calls.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.length).toBe(afterStop);
  });

  it('stop waits for the run in progress to finish', async () => {
    const gated = gatedWork();
    const scheduler = new Scheduler([gated.work], capturingLogger().logger, 5);
    const started = gated.nextStart();
    scheduler.start();
    await started;

    const stopping = scheduler.stop();
    const stopped = settledFlag(stopping);
    await tick();
    expect(stopped.settled).toBe(false);
    expect(gated.state.active).toBe(1);

    gated.release();
    await stopping;
    expect(gated.state.active).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(gated.state.started).toBe(1);
  });

  it('stop waits for a run that joined another one (no run outlives stop)', async () => {
    const gated = gatedWork();
    const scheduler = new Scheduler([gated.work], capturingLogger().logger, 60_000);
    const started = gated.nextStart();
    const first = scheduler.runDueNow();
    await started;
    const joined = [scheduler.runDueNow(), scheduler.runDueNow()];

    const stopping = scheduler.stop();
    const stopped = settledFlag(stopping);
    while (!stopped.settled) {
      gated.release();
      await tick();
    }
    // Once stop has answered, nothing runs any more.
    expect(gated.state.active).toBe(0);
    gated.release();
    await Promise.all([first, ...joined]);
    expect(gated.state.maxActive).toBe(1);
  });

  it('a stopped scheduler never ticks', async () => {
    const calls: string[] = [];
    const scheduler = new Scheduler([scriptedWork('never', [], calls)], capturingLogger().logger, 5);
    await scheduler.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);
  });
});

/** Stops the scheduler, letting the gated work's runs (the one stuck, and those that joined it) end. */
async function stopReleasing(scheduler: Scheduler, gated: ReturnType<typeof gatedWork>): Promise<void> {
  const stopping = scheduler.stop();
  const stopped = settledFlag(stopping);
  while (!stopped.settled) {
    gated.release();
    await tick();
  }
  await stopping;
}

describe('Scheduler lanes: a kind of work never waits for another', () => {
  it('a kind of work that hangs holds only its own lane: a wake runs the others at once, again and again', async () => {
    const stuck = gatedWork();
    const calls: string[] = [];
    const other: DueWork = {
      name: 'other',
      runBatch: async () => {
        calls.push('other');
        return 0;
      },
    };
    const scheduler = new Scheduler([stuck.work, other], capturingLogger().logger, 60_000);
    scheduler.start();
    const started = stuck.nextStart();
    scheduler.wake();
    await started;
    await expect.poll(() => calls.length, { timeout: 1_000 }).toBe(1);
    // The stuck lane is still in its batch; each wake runs the other lane right away.
    scheduler.wake();
    await expect.poll(() => calls.length, { timeout: 1_000 }).toBe(2);
    scheduler.wake();
    await expect.poll(() => calls.length, { timeout: 1_000 }).toBe(3);
    expect(stuck.state.active).toBe(1);
    expect(stuck.state.started).toBe(1);
    await stopReleasing(scheduler, stuck);
  });

  it('each lane ticks on its own timer while another is stuck', async () => {
    const stuck = gatedWork();
    let ticks = 0;
    const ticking: DueWork = {
      name: 'ticking',
      runBatch: async () => {
        ticks += 1;
        return 0;
      },
    };
    const scheduler = new Scheduler([stuck.work, ticking], capturingLogger().logger, 5);
    const started = stuck.nextStart();
    scheduler.start();
    await started;
    const at = ticks;
    await expect.poll(() => ticks, { timeout: 2_000 }).toBeGreaterThanOrEqual(at + 5);
    expect(stuck.state.started).toBe(1);
    await stopReleasing(scheduler, stuck);
  });

  it('runDueNow waits for the calls a lane started without waiting, and runs it again once they freed room', async () => {
    const queue = [1, 2, 3, 4, 5];
    let inFlight = 0;
    const finished: number[] = [];
    const pending: Promise<void>[] = [];
    const detached: DueWork = {
      name: 'detached',
      // Room for two calls at a time: a batch starts what it has room for and answers at once.
      runBatch: async () => {
        let started = 0;
        while (inFlight < 2 && queue.length > 0) {
          const item = queue.shift() as number;
          inFlight += 1;
          started += 1;
          pending.push(
            new Promise<void>((r) => setTimeout(r, 20)).then(() => {
              inFlight -= 1;
              finished.push(item);
            }),
          );
        }
        return started;
      },
      settle: async () => {
        const now = pending.splice(0);
        await Promise.all(now);
        return now.length;
      },
    };
    const scheduler = new Scheduler([detached], capturingLogger().logger, 60_000);
    await scheduler.runDueNow();
    expect(finished.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(inFlight).toBe(0);
  });

  it('stop waits for the calls a lane started without waiting', async () => {
    let done = false;
    let call: Promise<void> | undefined;
    const work: DueWork = {
      name: 'detached',
      runBatch: async () => {
        if (call !== undefined) return 0;
        call = new Promise<void>((r) => setTimeout(r, 100)).then(() => {
          done = true;
        });
        return 1;
      },
      settle: async () => {
        await call;
        return call === undefined ? 0 : 1;
      },
    };
    const scheduler = new Scheduler([work], capturingLogger().logger, 5);
    scheduler.start();
    await expect.poll(() => call !== undefined, { timeout: 1_000 }).toBe(true);
    await scheduler.stop();
    expect(done).toBe(true);
  });

  it('a lane whose next item falls due before its next tick runs when it falls due, not at the tick', async () => {
    const runs: number[] = [];
    const work: DueWork = {
      name: 'held',
      runBatch: async () => {
        runs.push(performance.now());
        return 0;
      },
      // After the first run, an item falls due 50 ms later; the lane ticks every 600 ms.
      nextDueInMs: async () => (runs.length === 1 ? 50 : null),
    };
    const scheduler = new Scheduler([work], capturingLogger().logger, 600);
    scheduler.start();
    await expect.poll(() => runs.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(2);
    await scheduler.stop();
    const gap = (runs[1] ?? 0) - (runs[0] ?? 0);
    expect(gap).toBeGreaterThanOrEqual(45);
    expect(gap).toBeLessThan(400);
  });
});
