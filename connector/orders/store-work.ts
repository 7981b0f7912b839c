/**
 * Where a store call of the order paths goes: run now (the job, a webhook), or queued behind the
 * plugin's answer (a plugin-facing request never waits for the store).
 */

export type StoreWork = (what: string, run: () => Promise<void>) => Promise<void>;
export const storeNow: StoreWork = (_what, run) => run();

/** Collects store calls to start once the answer is sent. */
export function deferStoreWork(): { work: StoreWork; queued: { what: string; run: () => Promise<void> }[] } {
  const queued: { what: string; run: () => Promise<void> }[] = [];
  return {
    queued,
    work: async (what, run) => {
      queued.push({ what, run });
    },
  };
}
