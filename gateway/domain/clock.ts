/**
 * Time is injected everywhere: the service reads it from a Clock, never from the wall directly,
 * so tests and the manual test clock decide what "now" is.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
  /**
   * Reads the latest time from where the clock is kept, when that is outside this process (the
   * test clock of `GATEWAY_CLOCK=manual`, in the database): called before each request and each
   * run of due work, so `nowMs` stays a plain read.
   */
  sync?(): Promise<void>;
}

/** A clock the clock test helper may move forward. */
export interface MovableClock extends Clock {
  advance(ms: number): void | Promise<void>;
}

export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).advance === 'function';
}

/** A clock that only moves when told to, within this process; used by tests. */
export class ManualClock implements MovableClock {
  #ms: number;

  constructor(startMs: number) {
    this.#ms = startMs;
  }

  nowMs(): number {
    return this.#ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    this.#ms += ms;
  }
}

/** Storage form of an instant: ISO 8601 UTC with milliseconds, which sorts as text. */
export function toStoredInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * API form of an instant: ISO 8601 with an explicit offset and whole seconds,
 * e.g. `2026-11-21T10:32:04+00:00`.
 */
export function toApiInstant(stored: string | null): string | null {
  if (stored === null) return null;
  return `${stored.slice(0, 19)}+00:00`;
}

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
