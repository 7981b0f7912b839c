/**
 * `bin/connector`: run the connector and look into it. Every command accepts `--json`.
 * Exit codes: 0 done, 1 the operation was refused, 2 the command line itself is wrong.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../../gateway/runtime/logger.js';
import { systemClock } from '../../gateway/runtime/system.js';
import { openDatabase, redactUrl } from '../../storage/connect.js';
import { type ConnectorConfig, loadConnectorConfig } from '../config.js';
import { removeConnection } from '../connections/connection.service.js';
import { asConnectorError, ConnectorError, errorDetail } from '../errors.js';
import { reconcile } from '../reconciliation/reconcile.service.js';
import { openConnector, startConnector } from '../runtime/start.js';
import { findConnection, listConnections } from '../storage/connection.repository.js';
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
CONNECTOR_DATABASE_URL, GATEWAY_URL, GATEWAY_SECRET; see docs/connector.md).`;

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
      const connector = await openConnector({ config, clock: systemClock });
      try {
        const connection = await findConnection(connector.deps.db, id);
        if (connection === undefined || connection.status === 'removed') {
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
      const connector = await openConnector({ config, clock: systemClock });
      try {
        const connection = await findConnection(connector.deps.db, id);
        if (connection === undefined) throw new ConnectorError(404, 'connection_not_found', `No connection ${id}.`);
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
        const logger = createLogger(config.logLevel);
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
  process.stdout.write(`Connector listening on ${config.publicUrl} for the gateway at ${config.gatewayUrl}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await connector.close();
  return 0;
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
