/**
 * A problem a platform plugin knows about one connection, shown in `GET /v1/connection`'s
 * `health.problems` (and on the plugin's page): what the shop owner should know and, in words, what
 * to do. The connector only passes them on (ConnectorDeps.connectionProblems).
 */
export interface ConnectionProblem {
  /** Stable, machine-readable: e.g. `shopify_payments_unconfirmed`. */
  readonly code: string;
  /** One or two sentences for the shop owner. */
  readonly message: string;
  /** How many things it concerns (payments, calls), when it counts any. */
  readonly count: number | null;
  /** Since when (ISO 8601), when known. */
  readonly since: string | null;
}
