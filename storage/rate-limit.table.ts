export interface RateLimitCounterTable {
  /** What is counted, e.g. `account:<merchant id>` or `auth-failures:<ip>`. */
  bucket: string;
  /** The fixed one-minute window: whole minutes since the Unix epoch. */
  window_minute: number;
  hits: number;
}
