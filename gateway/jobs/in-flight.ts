/**
 * Calls a kind of due work started and does not wait for (a poll of a bank, a receipt try, a
 * webhook attempt): each batch claims its rows and starts their calls, and the next batch does not
 * wait for a slow counterpart to answer. Their number is bounded (`capacity`, and per key, such as
 * a processor or a merchant's domain, `perKey`); `settle` waits for them (the scheduler's
 * `runDueNow` and `stop`); when one ends after the lane found no room, the lane is woken.
 */
import type { Logger } from 'pino';

export class InFlight {
  readonly #capacity: number;
  readonly #perKey: number;
  readonly #running = new Set<Promise<void>>();
  readonly #byKey = new Map<string, number>();
  #wake: (() => void) | undefined;
  #starved = false;

  constructor(options: { readonly capacity: number; readonly perKey?: number }) {
    this.#capacity = options.capacity;
    this.#perKey = options.perKey ?? options.capacity;
  }

  /** Calls that may start now (0: the lane waits for one to end, and is woken then). */
  get free(): number {
    const free = Math.max(0, this.#capacity - this.#running.size);
    if (free === 0) this.#starved = true;
    return free;
  }

  get size(): number {
    return this.#running.size;
  }

  /** Keys with `perKey` calls running: a claim leaves their rows for later. */
  fullKeys(): string[] {
    const full: string[] = [];
    for (const [key, count] of this.#byKey) if (count >= this.#perKey) full.push(key);
    if (full.length > 0) this.#starved = true;
    return full;
  }

  /** How many more calls of `key` may start now (0: the lane is woken when one ends). */
  roomFor(key: string): number {
    const room = Math.max(0, Math.min(this.#perKey - (this.#byKey.get(key) ?? 0), this.#capacity - this.#running.size));
    if (room === 0) this.#starved = true;
    return room;
  }

  bindWake(wake: () => void): void {
    this.#wake = wake;
  }

  /** Starts `task` without waiting for it; a failure is logged as `what`. */
  start(key: string, task: () => Promise<void>, logger: Logger, what: string): void {
    this.#byKey.set(key, (this.#byKey.get(key) ?? 0) + 1);
    const running: Promise<void> = (async () => {
      try {
        await task();
      } catch (error) {
        logger.error({ err: error }, what);
      }
    })().finally(() => {
      this.#running.delete(running);
      const left = (this.#byKey.get(key) ?? 1) - 1;
      if (left <= 0) this.#byKey.delete(key);
      else this.#byKey.set(key, left);
      if (this.#starved) {
        this.#starved = false;
        this.#wake?.();
      }
    });
    this.#running.add(running);
  }

  /** Waits until no call is running; answers how many it waited for. */
  async settle(): Promise<number> {
    let waited = 0;
    while (this.#running.size > 0) {
      const now = [...this.#running];
      waited += now.length;
      await Promise.all(now);
    }
    return waited;
  }
}
