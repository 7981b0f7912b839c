/**
 * What every service function receives: the database, the injected clock and id source, the
 * configuration and the logger. Built once at start (see `gateway/runtime/start.ts`).
 */
import type { Logger } from 'pino';
import type { Db, DialectName } from '../../storage/database.js';
import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/ids.js';

export interface Deps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly config: Config;
  readonly logger: Logger;
}
