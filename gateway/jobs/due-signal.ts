/**
 * Tells the scheduler that work just became due (an event was written, a refund needs a check), so
 * it runs now instead of at its next tick. Services call `notify()` after their transaction commits.
 */
export class DueSignal {
  readonly #listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Answers a function that removes the listener. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
