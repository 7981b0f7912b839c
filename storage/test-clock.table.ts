/** The test clock of `GATEWAY_CLOCK=manual` (migration 0026): at most one row, id 1. */
export interface TestClockTable {
  id: number;
  /** The real time, in milliseconds since the Unix epoch, of the first start on the manual clock. */
  start_ms: number;
  /** How far the clock test helper has moved the clock since, in milliseconds (the offset). */
  advanced_ms: number;
  created_at: string;
}
