/**
 * Connect tokens the gateway accepted a moment ago, so a plugin's burst of calls (a checkout, the
 * order panel, a poll) asks the gateway once, not once per call: every question counts in the
 * merchant's per-minute limit at the gateway. Only acceptances are kept, for `ACCEPTED_TOKEN_TTL_MS`;
 * a refusal is never kept, and a connection marked `token_revoked` (by any refused call) is asked
 * again whatever is kept here. Each connector instance keeps its own.
 */

/** How long an acceptance of the gateway stands for the calls that follow. */
export const ACCEPTED_TOKEN_TTL_MS = 10_000;

/** At most this many tokens are kept; past it the oldest acceptance goes first. */
const MAX_KEPT = 10_000;

export class AcceptedTokens {
  readonly #until = new Map<string, number>();

  /** Whether the gateway accepted the token (by its hash) less than the TTL before `nowMs`. */
  accepted(tokenHash: string, nowMs: number): boolean {
    const until = this.#until.get(tokenHash);
    if (until === undefined) return false;
    if (until > nowMs) return true;
    this.#until.delete(tokenHash);
    return false;
  }

  remember(tokenHash: string, nowMs: number): void {
    this.#until.delete(tokenHash);
    if (this.#until.size >= MAX_KEPT) {
      const oldest = this.#until.keys().next().value;
      if (oldest !== undefined) this.#until.delete(oldest);
    }
    this.#until.set(tokenHash, nowMs + ACCEPTED_TOKEN_TTL_MS);
  }

  forget(tokenHash: string): void {
    this.#until.delete(tokenHash);
  }
}
