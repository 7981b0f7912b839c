/**
 * Work started by a request but not awaited by it: the store calls queued behind a plugin's answer
 * (a one-worker PHP store cannot serve the connector while it waits for the connector) and
 * reconciliation runs started with `wait: false`. Each task's failure is logged, never thrown; the
 * durable state (order_links.store_sync, the run row) already says what is left, so the due-work
 * job picks up whatever a task did not finish. Shutdown waits for the tasks in flight.
 */
import type { Logger } from 'pino';
import { errorDetail } from '../errors.js';

export interface BackgroundTasks {
  /** Starts `task` on a later turn of the event loop; its failure is logged as `what`. */
  start(what: string, task: () => Promise<unknown>): void;
  /** Resolves once every task started so far has settled. */
  idle(): Promise<void>;
}

export function createBackgroundTasks(logger: Logger): BackgroundTasks {
  const running = new Set<Promise<unknown>>();
  return {
    start(what, task) {
      const settled: Promise<unknown> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) =>
          logger.warn({ err: errorDetail(error) }, `${what} did not finish; it runs again later`),
        )
        .finally(() => running.delete(settled));
      running.add(settled);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
