/**
 * `bin/connector`: run the connector and look into it. Every command accepts `--json`.
 * Exit codes: 0 done, 1 the operation was refused, 2 the command line itself is wrong.
 *
 * Only `serve` logs to stdout; the other commands answer on stdout (one JSON document with
 * `--json`) and log to stderr. Only `serve` may create the service secret (an SQLite database
 * without `GATEWAY_SECRET` gets one generated beside it): a one-off command run without the server's
 * secret refuses instead of generating a new one, and refuses clearly when the secret it was given
 * cannot open the stored connection.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLogger, logDestination } from '../../gateway/runtime/logger.js';
import { secretFileOf } from '../../gateway/runtime/service-secret.js';
import { systemClock } from '../../gateway/runtime/system.js';
import { openDatabase, redactUrl } from '../../storage/connect.js';
import { type ConnectorConfig, loadConnectorConfig } from '../config.js';
import { removeConnection } from '../connections/connection.service.js';
import { connectTokenOf } from '../connections/connection-access.js';
import { asConnectorError, ConnectorError, errorDetail } from '../errors.js';
import { reconcile } from '../reconciliation/reconcile.service.js';
import { openConnector, startConnector } from '../runtime/start.js';
import { findConnection, listConnections, type StoreConnection } from '../storage/connection.repository.js';
import { connectionEnded } from '../storage/connection.table.js';
import type { ConnectorDatabase } from '../storage/database.js';
import { migrateConnector } from '../storage/migrate.js';

export const USAGE = `Usage: connector <command> [options] [--json]

Commands:
  serve                                    migrate, then serve HTTP on $CONNECTOR_HOST:$CONNECTOR_PORT
  migrate                                  apply pending database migrations
  connection list                          the store connections and their state
  connection remove --connection ID        stop serving a store: no more polling, reconciliation
                                           or store calls; its token and keys are erased
  reconcile --connection ID --from ISO --to ISO [--repair]
                                           compare store orders with gateway payments created in
                                           [from, to); --repair marks paid what the gateway has paid

Configuration comes from the environment (CONNECTOR_PORT, CONNECTOR_PUBLIC_URL,
CONNECTOR_DATABASE_URL, GATEWAY_URL, GATEWAY_SECRET; see docs/connector.md). Only serve
creates a service secret; reconcile and connection remove need the server's (GATEWAY_SECRET or its secret file).
Commands other than serve log to stderr.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  connection: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  repair: { type: 'boolean' },
} as const;

class UsageError extends Error {
  override name = 'UsageError';
}

export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === '' && !values.help ? 2 : 0;
  }
  let config: ConnectorConfig;
  try {
    config = loadConnectorConfig(env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const print = (json: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);

  try {
    if (command === 'serve') return await serve(config);
    if (command === 'migrate') {
      const database = openDatabase<ConnectorDatabase>(config.databaseUrl);
      try {
        const applied = await migrateConnector(database.db);
        print({ applied }, applied.length === 0 ? 'Nothing to migrate.' : `Applied: ${applied.join(', ')}`);
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === 'connection list') {
      const database = openDatabase<ConnectorDatabase>(config.databaseUrl);
      try {
        await migrateConnector(database.db);
        const rows = (await listConnections(database.db)).map((c) => ({
          connection_id: c.id,
          platform: c.platform,
          store_url: c.store_url,
          domain: c.domain,
          environment: c.environment,
          status: c.status,
          last_webhook_at: c.last_webhook_at,
        }));
        print(
          { connections: rows },
          rows.length === 0
            ? 'No store connections.'
            : rows
                .map((r) => `${r.connection_id}  ${r.platform}  ${r.store_url}  ${r.environment}  ${r.status}`)
                .join('\n'),
        );
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === 'connection remove') {
      const id = requiredOption(values.connection, 'connection');
      requireServerSecret(config);
      const logger = createLogger(config.logLevel, logDestination(2));
      const connector = await openConnector({ config, clock: systemClock, logger });
      try {
        const connection = await findConnection(connector.deps.db, id);
        if (connection === undefined || connectionEnded(connection.status)) {
          throw new ConnectorError(404, 'connection_not_found', `No connection ${id}.`);
        }
        const removed = await removeConnection(connector.deps, connection);
        print(removed, `Removed connection ${removed.connection_id} (${connection.store_url}).`);
      } finally {
        await connector.close();
      }
      return 0;
    }
    if (command === 'reconcile') {
      const id = requiredOption(values.connection, 'connection');
      const from = instant(requiredOption(values.from, 'from'), 'from');
      const to = instant(requiredOption(values.to, 'to'), 'to');
      if (from >= to) throw new UsageError('--to must be after --from');
      requireServerSecret(config);
      const logger = createLogger(config.logLevel, logDestination(2));
      const connector = await openConnector({ config, clock: systemClock, logger });
      try {
        const connection = await findConnection(connector.deps.db, id);
        if (connection === undefined) throw new ConnectorError(404, 'connection_not_found', `No connection ${id}.`);
        requireSecretOpens(connector.deps, connection);
        const report = await reconcile(connector.deps, connection, {
          from,
          to,
          repair: values.repair ?? false,
          trigger: 'cli',
        });
        print(
          report,
          [
            `Checked ${report.orders_checked} orders from ${report.from} to ${report.to}: ${report.findings.length} findings.`,
            ...report.findings.map((f) => `${f.action.padEnd(8)} ${f.kind}  order ${f.store_order_id}: ${f.detail}`),
          ].join('\n'),
        );
      } finally {
        await connector.close();
      }
      return 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (caught) {
    const error = asConnectorError(caught);
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ConnectorError) {
      // A failed store call is told without its network detail, which goes to the connector's log.
      if (error.cause instanceof Error) {
        const logger = createLogger(config.logLevel, logDestination(2));
        logger.warn({ code: error.code, err: errorDetail(error) }, 'store call failed');
        logger.flush();
      }
      process.stderr.write(
        values.json ? `${JSON.stringify({ error: error.code, message: error.message })}\n` : `${error.message}\n`,
      );
      return 1;
    }
    process.stderr.write(`${(error as Error).message.replaceAll(config.databaseUrl, redactUrl(config.databaseUrl))}\n`);
    return 1;
  }
}

async function serve(config: ConnectorConfig): Promise<number> {
  const connector = await startConnector({ config, clock: systemClock });
  // Where it listens is not where stores reach it (a proxy may hold the https): both are said.
  process.stdout.write(
    `Connector listening on ${connector.url} (stores and the gateway reach it at ${config.publicUrl}) for the gateway at ${config.gatewayUrl}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await connector.close();
  return 0;
}

/**
 * A command that opens stored connections needs the secret the server uses; without
 * `GATEWAY_SECRET` that is the file `serve` generated beside an SQLite database. When there is none,
 * a new secret would open nothing and would become the server's on its next start: refused.
 * (PostgreSQL without `GATEWAY_SECRET` is refused when the connector opens; an in-memory database
 * has nothing stored.)
 */
function requireServerSecret(config: ConnectorConfig): void {
  if (config.secret !== undefined) return;
  const file = secretFileOf(config.databaseUrl);
  if (file === null || existsSync(file)) return;
  throw new ConnectorError(
    409,
    'secret_missing',
    `GATEWAY_SECRET is not set and there is no secret file ${file} beside the database. Run this command with the GATEWAY_SECRET of the connector's server (or where its secret file is); only \`connector serve\` creates a secret.`,
  );
}

/** The secret must open what the server sealed with its own; another one fails here, clearly. */
function requireSecretOpens(deps: Parameters<typeof connectTokenOf>[0], connection: StoreConnection): void {
  try {
    connectTokenOf(deps, connection);
  } catch {
    throw new ConnectorError(
      409,
      'secret_mismatch',
      `The secret this command was given cannot open connection ${connection.id}: run it with the same GATEWAY_SECRET (or secret file) as the connector's server.`,
    );
  }
}

function requiredOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function instant(value: string, name: string): string {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new UsageError(`--${name} must be an ISO 8601 date or date-time`);
  return new Date(ms).toISOString();
}
