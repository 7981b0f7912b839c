/**
 * Runs due work from the database: payment expiry, webhook deliveries, refund checks, emails. Due work
 * lives in tables (payments past `expires_at`, deliveries past their next attempt), so it survives
 * a restart, and each kind of work claims its rows (FOR UPDATE SKIP LOCKED on PostgreSQL), so
 * several instances never do the same piece twice. Ticks use real timers; what is due is decided by
 * the injected clock, and `runDueNow` (the manual clock's helper) runs everything due at once.
 */
import type { Logger } from 'pino';

export interface DueWork {
  readonly name: string;
  /** Does one batch of due work; answers how many items it handled (0: nothing left). */
  runBatch(): Promise<number>;
}

/** Batches one `runDueNow` may run per kind of work before yielding (bounds a huge backlog). */
const MAX_BATCHES_PER_RUN = 50;

export class Scheduler {
  readonly #works: readonly DueWork[];
  readonly #logger: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #wakePending = false;

  constructor(works: readonly DueWork[], logger: Logger, intervalMs = 1_000) {
    this.#works = works;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  /** Stops ticking and waits for a run in progress to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    // A run that joined the one in progress starts when it ends: wait for those too.
    while (this.#running !== undefined) await this.#running;
  }

  /** Runs every kind of work until nothing is due; a run already in progress is joined, then repeated. */
  async runDueNow(): Promise<void> {
    // Several callers may wait on one run: when it ends, the first starts the next run and the
    // others wait for that one, so two runs never overlap.
    while (this.#running !== undefined) await this.#running;
    const run = this.#runAll();
    this.#running = run;
    try {
      await run;
    } finally {
      if (this.#running === run) this.#running = undefined;
    }
  }

  /** Runs due work soon (coalesced), instead of at the next tick: new work was just written. */
  wake(): void {
    if (this.#stopped || this.#wakePending) return;
    this.#wakePending = true;
    setImmediate(() => {
      this.#wakePending = false;
      if (!this.#stopped) this.runDueNow().catch(() => {});
    });
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.runDueNow()
        .catch(() => {})
        .finally(() => this.#schedule());
    }, this.#intervalMs);
    this.#timer.unref();
  }

  async #runAll(): Promise<void> {
    for (const work of this.#works) {
      try {
        for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
          if ((await work.runBatch()) === 0) break;
        }
      } catch (error) {
        // One failing kind of work must not stop the others; it is tried again on the next tick.
        this.#logger.error({ err: error, work: work.name }, 'due work failed');
      }
    }
  }
}
