/**
 * Fixed one-minute windows counted per bucket (`account:<merchant>`, `auth-failures:<ip>`).
 * On PostgreSQL the counters live in the database so every instance shares them; with SQLite the
 * service is one process, so the counters live in its memory. Both answer the same questions.
 */

import type { CompiledQuery } from 'kysely';
import type { DatabaseHandle } from '../../storage/connect.js';
import type { Db } from '../../storage/database.js';
import {
  type AdmissionCounts,
  type AlongsideRow,
  admitCounting,
  admitCountingAlongside,
  deleteCountersBefore,
  hitCounter,
  readCounter,
  takeBackHit,
} from '../../storage/rate-limit.repository.js';
import type { Clock } from '../domain/clock.js';
import { MINUTE_MS } from '../domain/clock.js';

export interface WindowCount {
  /** Hits counted in the current window, this one included for `hit`. */
  readonly hits: number;
  /** Whole seconds until the window ends (at least 1): the `Retry-After` value. */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit and answers the window's count. */
  hit(bucket: string): Promise<WindowCount>;
  /** Answers the window's count without counting. */
  peek(bucket: string): Promise<WindowCount>;
  /**
   * Where the counters live in the database: the start of an authenticated request in one round
   * trip. Counts a hit on `hitBucket` and answers it with `peekBucket`'s count and the account
   * version, read in the same statement (gateway/auth/admission.ts). With `alongside` (a read of at
   * most one row), that read runs in the same statement too and its row comes back with the counts.
   * Absent: the caller asks `peek`, the account cache and `hit` one after the other.
   */
  admit?(hitBucket: string, peekBucket: string, alongside?: CompiledQuery): Promise<Admission>;
  /** Undoes the hit of an `admit` whose request is then decided the longer way. */
  takeBack?(admission: Admission): Promise<void>;
}

export interface Admission {
  readonly hitBucket: string;
  readonly hit: WindowCount;
  readonly peeked: WindowCount;
  readonly accountVersion: string;
  /** The window the hit was counted in. */
  readonly windowMinute: number;
  /** What the read given to `admit` found; absent when none was given. */
  readonly alongside?: AlongsideRow;
}

function windowOf(clock: Clock): { minute: number; resetSeconds: number } {
  const now = clock.nowMs();
  const minute = Math.floor(now / MINUTE_MS);
  const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000));
  return { minute, resetSeconds };
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #clock: Clock;
  #minute = -1;
  #counts = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #current(): { minute: number; resetSeconds: number } {
    const window = windowOf(this.#clock);
    if (window.minute !== this.#minute) {
      this.#minute = window.minute;
      this.#counts = new Map();
    }
    return window;
  }

  async hit(bucket: string): Promise<WindowCount> {
    const window = this.#current();
    const hits = (this.#counts.get(bucket) ?? 0) + 1;
    this.#counts.set(bucket, hits);
    return { hits, resetSeconds: window.resetSeconds };
  }

  async peek(bucket: string): Promise<WindowCount> {
    const window = this.#current();
    return { hits: this.#counts.get(bucket) ?? 0, resetSeconds: window.resetSeconds };
  }
}

export class DatabaseRateLimiter implements RateLimiter {
  readonly #db: Db;
  readonly #readFirstRow: DatabaseHandle['readFirstRow'];
  readonly #clock: Clock;
  #prunedMinute = -1;

  constructor(database: Pick<DatabaseHandle, 'db' | 'readFirstRow'>, clock: Clock) {
    this.#db = database.db;
    this.#readFirstRow = database.readFirstRow;
    this.#clock = clock;
  }

  /** The current window, once a minute per instance forgetting windows that can no longer matter. */
  async #window(): Promise<{ minute: number; resetSeconds: number }> {
    const window = windowOf(this.#clock);
    if (window.minute !== this.#prunedMinute) {
      this.#prunedMinute = window.minute;
      await deleteCountersBefore(this.#db, window.minute - 1);
    }
    return window;
  }

  async hit(bucket: string): Promise<WindowCount> {
    const window = await this.#window();
    const hits = await hitCounter(this.#db, bucket, window.minute);
    return { hits, resetSeconds: window.resetSeconds };
  }

  async admit(hitBucket: string, peekBucket: string, alongside?: CompiledQuery): Promise<Admission> {
    const window = await this.#window();
    const counted: AdmissionCounts & Partial<AlongsideRow> =
      alongside === undefined
        ? await admitCounting(this.#readFirstRow, hitBucket, peekBucket, window.minute)
        : await admitCountingAlongside(this.#db, hitBucket, peekBucket, window.minute, alongside);
    const admission: Admission = {
      hitBucket,
      hit: { hits: counted.hits, resetSeconds: window.resetSeconds },
      peeked: { hits: counted.peeked, resetSeconds: window.resetSeconds },
      accountVersion: counted.accountVersion,
      windowMinute: window.minute,
    };
    return alongside === undefined ? admission : { ...admission, alongside: { row: counted.row } };
  }

  async takeBack(admission: Admission): Promise<void> {
    await takeBackHit(this.#readFirstRow, admission.hitBucket, admission.windowMinute);
  }

  async peek(bucket: string): Promise<WindowCount> {
    const window = windowOf(this.#clock);
    return { hits: await readCounter(this.#db, bucket, window.minute), resetSeconds: window.resetSeconds };
  }
}
