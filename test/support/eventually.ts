/**
 * Polls `check` until it answers true, for work that finishes after the call that started it (a
 * webhook, a background store call); fails with `what` after `timeoutMs`. Never a fixed sleep.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
