/**
 * The test clock of `GATEWAY_CLOCK=manual`, kept in the database (storage/test-clock.repository.ts)
 * so that every instance and every CLI run on one database reads the same time, and an advance made
 * through one of them is seen by all (docs/decisions.md "The test clock").
 *
 * `nowMs` stays a plain read of the time this process last read: the gateway syncs it before each
 * request and each run of due work, and an advance syncs it at once, so another process sees an
 * advance from its next request or tick on. Like the in-process manual clock, it stands still
 * between advances; a restart resumes it where it was.
 */
import type { DatabaseHandle } from '../../storage/connect.js';
import type { Db } from '../../storage/database.js';
import { advanceTestClock, ensureTestClock, testClockReader } from '../../storage/test-clock.repository.js';
import { type Clock, type MovableClock, toStoredInstant } from '../domain/clock.js';

export class DatabaseTestClock implements MovableClock {
  readonly #db: Db;
  readonly #read: () => Promise<number | undefined>;
  readonly #wall: Clock;
  #ms: number;

  private constructor(db: Db, read: () => Promise<number | undefined>, wall: Clock, ms: number) {
    this.#db = db;
    this.#read = read;
    this.#wall = wall;
    this.#ms = ms;
  }

  /**
   * The database's test clock, started at the wall clock's time by the first process that opens
   * it (the migrations must have run).
   */
  static async open(database: Pick<DatabaseHandle, 'db' | 'readFirstValue'>, wall: Clock): Promise<DatabaseTestClock> {
    const read = testClockReader(database);
    const start = wall.nowMs();
    await ensureTestClock(database.db, start, toStoredInstant(start));
    return new DatabaseTestClock(database.db, read, wall, (await read()) ?? start);
  }

  nowMs(): number {
    return this.#ms;
  }

  /**
   * Reads the clock's time from the database; never moves this process's reading backwards. Every
   * caller waits for a read that began after it called, so it sees each advance committed before
   * then. Callers that come while a read is running share the one read that starts when it ends:
   * requests arriving together cost the database one read, not one each.
   */
  sync(): Promise<void> {
    if (this.#running === undefined) return this.#startRead();
    this.#next ??= this.#running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.#next = undefined;
        return this.#startRead();
      });
    return this.#next;
  }

  /** The read that is running, and the one shared by those who asked while it runs. */
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  #startRead(): Promise<void> {
    const read: Promise<void> = this.#read()
      .then((ms) => {
        if (ms !== undefined && ms > this.#ms) this.#ms = ms;
      })
      .finally(() => {
        if (this.#running === read) this.#running = undefined;
      });
    this.#running = read;
    return read;
  }

  /** Moves the clock forward for every process on the database, then reads it back. */
  async advance(ms: number): Promise<void> {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('a clock only moves forward, in whole milliseconds');
    if (!(await advanceTestClock(this.#db, ms))) {
      // The row was deleted under a running service: start it again where this process stands.
      const wallMs = this.#wall.nowMs();
      await ensureTestClock(this.#db, this.#ms, toStoredInstant(wallMs));
      await advanceTestClock(this.#db, ms);
    }
    await this.sync();
  }
}
