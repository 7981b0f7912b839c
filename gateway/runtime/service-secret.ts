/**
 * The service secret (`GATEWAY_SECRET`) signs connect tokens, links and cursors, and every sealing
 * key is derived from it (./sealing.ts). It never lives in the database: whoever holds a copy of the
 * database (a backup, a dump) must not be able to mint tokens or open sealed secrets with it.
 *
 * - `GATEWAY_SECRET` set: it is the secret.
 * - Unset, SQLite: a secret is generated once into a file beside the database, named after it
 *   (`./data/gateway.sqlite` -> `./data/gateway.secret`), created with mode 0600 and named in the log.
 *   The CLI, run with the same `DATABASE_URL`, reads the same file.
 * - Unset, PostgreSQL: refused. Several instances must share one secret, and no instance may keep it
 *   in the shared database.
 * - Unset, in-memory SQLite: a secret for the life of the process.
 *
 * Earlier versions kept a generated secret in the database. At start it is moved out: into the file
 * (SQLite, when there is none yet) and deleted from the database; when `GATEWAY_SECRET` is set it is
 * only deleted (it was not in use). On PostgreSQL without `GATEWAY_SECRET` the refusal tells the
 * operator how to read it once, so that tokens already issued keep working.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from 'pino';
import type { DialectName } from '../../storage/database.js';
import { ConfigError } from '../config.js';

/** Where an earlier version kept the generated secret (a settings row of the service's database). */
export interface StoredSecret {
  /** The value, or undefined when there is none. */
  read(): Promise<string | undefined>;
  delete(): Promise<void>;
  /** How an operator reads it by hand, e.g. `select value from service_settings where name = 'gateway_secret'`. */
  readonly query: string;
}

export interface ServiceSecretOptions {
  /** `GATEWAY_SECRET`, when set. */
  readonly configured: string | undefined;
  readonly databaseUrl: string;
  readonly dialect: DialectName;
  readonly stored: StoredSecret;
  /** A new random secret (at least 32 characters). */
  readonly generate: () => string;
  readonly logger: Logger;
}

const MIN_LENGTH = 32;

/** The file that keeps the generated secret of an SQLite database; null where there is none. */
export function secretFileOf(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === '' || path === ':memory:') return null;
  return join(dirname(path), `${basename(path, extname(path))}.secret`);
}

export async function resolveServiceSecret(options: ServiceSecretOptions): Promise<string> {
  const { configured, logger, stored } = options;
  if (configured !== undefined) {
    if ((await stored.read()) !== undefined) {
      await stored.delete();
      logger.warn('removed the service secret an earlier version kept in the database; GATEWAY_SECRET is used');
    }
    return configured;
  }
  if (options.dialect === 'postgres') throw new ConfigError(postgresRefusal(await stored.read(), stored.query));
  const file = secretFileOf(options.databaseUrl);
  if (file === null) {
    logger.warn('GATEWAY_SECRET is not set: using a secret for this process only (in-memory database)');
    return options.generate();
  }
  const existing = readSecretFile(file, logger);
  if (existing !== undefined) {
    if ((await stored.read()) !== undefined) await stored.delete();
    return existing;
  }
  const earlier = await stored.read();
  const created = createSecretFile(file, earlier ?? options.generate(), logger);
  if (earlier !== undefined) {
    await stored.delete();
    if (created.value === earlier) {
      logger.warn({ file }, 'moved the service secret an earlier version kept in the database into its own file');
    }
  }
  return created.value;
}

function postgresRefusal(earlier: string | undefined, query: string): string {
  const base =
    'GATEWAY_SECRET must be set when the database is PostgreSQL: every instance needs the same secret, and it is never kept in the database.';
  if (earlier === undefined)
    return `${base} Generate one (for example: openssl rand -base64 48) and set it on every instance.`;
  return `${base} This database still holds the secret an earlier version generated: read it once with \`${query}\`, set GATEWAY_SECRET to it on every instance (connect tokens already issued keep working), and the next start removes it from the database.`;
}

function readSecretFile(file: string, logger: Logger): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read the service secret file ${file}: ${(error as Error).message}`);
  }
  const secret = text.trim();
  if (secret.length < MIN_LENGTH) {
    throw new ConfigError(
      `the service secret file ${file} does not hold a secret of at least ${MIN_LENGTH} characters; restore it from where you keep your secrets`,
    );
  }
  if ((statSync(file).mode & 0o077) !== 0) {
    logger.warn({ file }, 'the service secret file may be read by other users: chmod 600 it');
  }
  return secret;
}

/** Writes `value` into a new file (mode 0600); when another process created it first, its value wins. */
function createSecretFile(file: string, value: string, logger: Logger): { value: string } {
  try {
    writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readSecretFile(file, logger);
      if (raced !== undefined) return { value: raced };
    }
    throw new ConfigError(`cannot create the service secret file ${file}: ${(error as Error).message}`);
  }
  logger.warn(
    { file },
    'GATEWAY_SECRET is not set: generated the service secret into this file (mode 0600). Keep a copy with your other secrets, apart from database backups: without it, sealed secrets and issued connect tokens are lost.',
  );
  return { value };
}
