/**
 * Runs due work from the database: payment expiry, processor polls, refund checks, receipts, webhook
 * deliveries, emails. Due work lives in tables (payments past `expires_at`, deliveries past their
 * next attempt), so it survives a restart, and each kind of work claims its rows (FOR UPDATE SKIP
 * LOCKED on PostgreSQL), so several instances never do the same piece twice.
 *
 * Each kind of work runs in a lane of its own: its own timer, its own wake-ups, its own run in
 * progress. A kind of work never waits for another: a poll stuck on a bank that does not answer
 * does not hold the webhook dispatcher, which is woken the moment an event is written. Within a
 * lane, batches run one after another (a run in progress is joined, then repeated), and work that
 * calls a counterpart starts those calls without waiting for them (`settle` waits for them).
 *
 * Ticks use real timers; what is due is decided by the injected clock, and `runDueNow` (the manual
 * clock's helper, and tests) runs every lane until nothing is due, the calls they started included.
 */
import type { Logger } from 'pino';

export interface DueWork {
  readonly name: string;
  /**
   * Does one batch of due work; answers how many items it handled (0: nothing left, or nothing it
   * can start now). A batch may start calls it does not wait for (see `settle`).
   */
  runBatch(): Promise<number>;
  /**
   * Resolves once the calls earlier batches started and did not wait for have ended; answers how
   * many it waited for.
   */
  settle?(): Promise<number>;
  /** The scheduler gives `wake`, which runs this work again soon (a call it started ended, freeing room). */
  bindWake?(wake: () => void): void;
  /**
   * Milliseconds until this work's next item falls due, when that is sooner than the next tick
   * (the dispatcher's held events: due exactly 5 s after they were written); null: not known.
   */
  nextDueInMs?(): Promise<number | null>;
}

/** Batches one run may make per kind of work before yielding (bounds a huge backlog). */
const MAX_BATCHES_PER_RUN = 50;
/** Rounds of `runDueNow` (every lane, until a round finds nothing): work that makes more work converges. */
const MAX_ROUNDS = 10;

/** One kind of work with its own timer, wake-ups and run in progress. */
class Lane {
  readonly work: DueWork;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = true;
  #wakePending = false;

  constructor(work: DueWork, logger: Logger, intervalMs: number) {
    this.work = work;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
    work.bindWake?.(() => this.wake());
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(this.#intervalMs);
  }

  /** Stops ticking; answers once the run in progress (and any that joined it) ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#running !== undefined) await this.#running;
  }

  /** Runs this work soon (coalesced): work just became due. */
  wake(): void {
    if (this.#stopped || this.#wakePending) return;
    this.#wakePending = true;
    setImmediate(() => {
      this.#wakePending = false;
      if (!this.#stopped) this.run().catch(() => {});
    });
  }

  /** One run of batches until nothing is due; a run in progress is joined first, then repeated. */
  async run(): Promise<number> {
    // Several callers may wait on one run: when it ends, the first starts the next run and the
    // others wait for that one, so two runs of one lane never overlap.
    while (this.#running !== undefined) await this.#running;
    const run = this.#batches();
    this.#running = run;
    try {
      return await run;
    } finally {
      if (this.#running === run) this.#running = undefined;
    }
  }

  /** Runs until nothing is due and every call it started has ended; answers the items handled. */
  async runToEnd(): Promise<number> {
    let handled = 0;
    for (let pass = 0; pass < MAX_ROUNDS; pass++) {
      handled += await this.run();
      // A batch that found no room answers 0 while its calls run: once they end, run again.
      if (((await this.work.settle?.()) ?? 0) === 0) break;
    }
    return handled;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.run()
        .catch(() => 0)
        .then(() => this.#nextDelay())
        .then((delay) => this.#schedule(delay));
    }, delayMs);
    this.#timer.unref();
  }

  async #nextDelay(): Promise<number> {
    if (this.work.nextDueInMs === undefined || this.#stopped) return this.#intervalMs;
    try {
      const due = await this.work.nextDueInMs();
      return due === null ? this.#intervalMs : Math.min(this.#intervalMs, Math.max(0, Math.ceil(due)));
    } catch {
      return this.#intervalMs;
    }
  }

  async #batches(): Promise<number> {
    let handled = 0;
    try {
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        const done = await this.work.runBatch();
        handled += done;
        if (done === 0) break;
      }
    } catch (error) {
      // A failing kind of work is tried again on its next tick; the other lanes never see it.
      this.#logger.error({ err: error, work: this.work.name }, 'due work failed');
    }
    return handled;
  }
}

export class Scheduler {
  readonly #lanes: readonly Lane[];

  constructor(works: readonly DueWork[], logger: Logger, intervalMs = 1_000) {
    this.#lanes = works.map((work) => new Lane(work, logger, intervalMs));
  }

  start(): void {
    for (const lane of this.#lanes) lane.start();
  }

  /** Stops ticking and waits for the runs in progress, and the calls they started, to end. */
  async stop(): Promise<void> {
    await Promise.all(this.#lanes.map((lane) => lane.stop()));
    await Promise.all(this.#lanes.map((lane) => lane.work.settle?.()));
  }

  /**
   * Runs every kind of work, each in its lane at the same time, until nothing is due: the calls
   * each started included, and again while a round handled anything (a poll that completes a
   * payment writes an event the dispatcher sends in the next round).
   */
  async runDueNow(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const handled = await Promise.all(this.#lanes.map((lane) => lane.runToEnd()));
      if (handled.every((count) => count === 0)) return;
    }
  }

  /** Runs due work soon, each kind in its own lane (coalesced): new work was just written. */
  wake(): void {
    for (const lane of this.#lanes) lane.wake();
  }
}
