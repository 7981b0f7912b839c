/**
 * `npm run bench:isolation`: webhook latency of healthy merchants while one processor hangs, next to
 * the same run with no processor hanging. The figure is the ratio of the two p99s.
 *
 * Each run starts the gateway as `gateway serve` runs it (startGateway, real clock, its scheduler
 * on real timers) on a fresh SQLite file, with:
 *
 * - a slow merchant whose ArCa address (a local server) has `BENCH_DUE` payments (default 1,000)
 *   in `processing`, every one due for a status read when the run starts. In the `hanging` run the
 *   address accepts each connection and never answers; in the `healthy` run it answers at once
 *   (order still `CREATED`: the payments stay processing and are read again later);
 * - `BENCH_MERCHANTS` healthy merchants (default 10) whose webhooks go to a local receiver.
 *
 * Then `BENCH_EVENTS` (default 300) test payments of the healthy merchants are created and paid
 * through the HTTP API (`POST /api/v1/payments`, then `POST /api/v1/test_helpers/payments/{uuid}/confirm`),
 * one every `BENCH_EVENT_EVERY_MS` (default 50 ms), round robin. A payment's latency runs from the
 * moment the confirm request is sent to the moment the receiver has the `completed` webhook: the
 * request itself is counted in, so the figure is an upper bound of "event written → webhook out".
 * The receiver and the slow bank live in this process, on the same event loop as the gateway.
 *
 * Exit code 1 when a webhook is missing after 60 s.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../gateway/config.js';
import { MINUTE_MS, toStoredInstant } from '../gateway/domain/clock.js';
import { addDomain, createMerchant, setProcessorEnabled, setRateLimit } from '../gateway/merchants/merchant.service.js';
import { newPaymentRow } from '../gateway/payments/new-payment-row.js';
import { createLogger } from '../gateway/runtime/logger.js';
import { startGateway } from '../gateway/runtime/start.js';
import { systemClock } from '../gateway/runtime/system.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

function bounded(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** ArCa's address for the slow merchant: hangs (accepts, never answers) or answers at once. */
async function startBank(hang: boolean): Promise<{ url: string; requests: () => number; close: () => void }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests += 1;
    req.resume();
    if (hang) return;
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain;charset=UTF-8' });
      res.end(JSON.stringify({ errorCode: 0, errorMessage: 'Success', orderStatus: 0, actionCode: -100 }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`,
    requests: () => requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** The healthy merchants' endpoint: when each payment's `completed` webhook arrived. */
async function startReceiver(): Promise<{ url: string; arrived: Map<string, number>; close: () => void }> {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          transaction?: { uuid?: string; status?: string };
        };
        if (body.transaction?.status === 'completed' && body.transaction.uuid !== undefined) {
          if (!arrived.has(body.transaction.uuid)) arrived.set(body.transaction.uuid, at);
        }
      } catch {
        // Not JSON: not a webhook of this run.
      }
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

interface RunResult {
  readonly scenario: 'healthy' | 'hanging';
  readonly events: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly bankRequests: number;
  readonly pausedAddresses: string[];
  readonly dueLeft: number;
}

async function run(scenario: 'healthy' | 'hanging'): Promise<RunResult> {
  const due = bounded('BENCH_DUE', 1_000, 10, 100_000);
  const merchants = bounded('BENCH_MERCHANTS', 10, 1, 100);
  const events = bounded('BENCH_EVENTS', 300, 10, 100_000);
  const everyMs = bounded('BENCH_EVENT_EVERY_MS', 50, 1, 10_000);
  const dir = mkdtempSync(join(tmpdir(), `gateway-bench-isolation-${scenario}-`));
  const bank = await startBank(scenario === 'hanging');
  const receiver = await startReceiver();
  const gateway = await startGateway({
    config: loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      GATEWAY_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
      LOG_LEVEL: 'warn',
    }),
    logger: createLogger(process.env.BENCH_LOG_LEVEL === 'debug' ? 'info' : 'silent'),
  });
  const deps = gateway.deps;
  try {
    // The slow merchant: ArCa at the bank's address, `due` payments processing there, all due now.
    const slow = await createMerchant(deps, { name: 'Slow Bank Shop', verifyBusiness: true, unlimited: true });
    await addDomain(deps, { merchantId: slow.merchant_id, host: 'slow-bank.example', verified: true });
    await setProcessorEnabled(deps, {
      merchantId: slow.merchant_id,
      host: 'slow-bank.example',
      processor: 'arca',
      enabled: true,
      config: JSON.stringify({ base_url: bank.url, username: 'bench-api', password: 'bench-password' }),
    });
    const slowDomain = await deps.db
      .selectFrom('domains')
      .select('id')
      .where('host', '=', 'slow-bank.example')
      .executeTakeFirstOrThrow();
    const nowMs = systemClock.nowMs();
    const startedAt = toStoredInstant(nowMs - 2 * MINUTE_MS);
    for (let start = 0; start < due; start += 500) {
      await deps.db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(start + 500, due); i++) {
          const row = {
            ...newPaymentRow(deps, {
              merchant_id: slow.merchant_id,
              key_environment: 'live',
              sandbox: 0,
              domain_id: slowDomain.id,
              order_id: `slow-${i}`,
              active_order_id: `slow-${i}`,
              amount: 5_000,
              currency: 'AMD',
              processor: 'arca',
              redirect_mode: 'direct',
              customer_id: null,
              customer_email: null,
              customer_name: null,
              description: 'Order at a bank that hangs',
              return_url: 'https://slow-bank.example/done',
              cancel_url: null,
              callback_url: null,
            }),
            status: 'processing' as const,
          };
          await trx.insertInto('payments').values(row).execute();
          await trx
            .insertInto('processor_sessions')
            .values({
              payment_id: row.id,
              processor: 'arca',
              order_number: `bench-${i}`,
              reference: randomUUID(),
              redirect: null,
              returned_at: null,
              next_check_at: toStoredInstant(nowMs - 1_000),
              checks: 0,
              last_error: null,
              created_at: startedAt,
              updated_at: startedAt,
            })
            .execute();
        }
      });
    }

    // The healthy merchants: test keys, webhooks to the receiver.
    const keys: string[] = [];
    for (let i = 0; i < merchants; i++) {
      const merchant = await createMerchant(deps, { name: `Healthy Shop ${i}` });
      await setRateLimit(deps, merchant.merchant_id, 100_000_000);
      await deps.db
        .updateTable('domains')
        .set({ webhook_url: `${receiver.url}/hooks/${i}` })
        .where('merchant_id', '=', merchant.merchant_id)
        .execute();
      keys.push(merchant.keys[0]?.key ?? '');
    }

    // The polls start now.
    gateway.scheduler.wake();
    const post = async (path: string, key: string, body: unknown) => {
      const res = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Key': key },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${text}`);
      return JSON.parse(text) as { uuid: string };
    };
    const sentAt = new Map<string, number>();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < events; i++) {
      const key = keys[i % keys.length] as string;
      pending.push(
        (async () => {
          const payment = await post('/api/v1/payments', key, {
            amount: 1_000,
            order_id: `healthy-${i}`,
            return_url: 'http://localhost:3000/done',
          });
          sentAt.set(payment.uuid, performance.now());
          await post(`/api/v1/test_helpers/payments/${payment.uuid}/confirm`, key, {});
        })(),
      );
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await Promise.all(pending);
    const deadline = performance.now() + 60_000;
    while (receiver.arrived.size < events && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (receiver.arrived.size < events) {
      throw new Error(`${scenario}: ${events - receiver.arrived.size} of ${events} webhooks never arrived`);
    }
    const latencies = [...sentAt.entries()]
      .map(([uuid, at]) => (receiver.arrived.get(uuid) as number) - at)
      .sort((a, b) => a - b);
    const left = await deps.db
      .selectFrom('processor_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('next_check_at', '<=', toStoredInstant(systemClock.nowMs()))
      .executeTakeFirstOrThrow();
    return {
      scenario,
      events,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
      bankRequests: bank.requests(),
      pausedAddresses: deps.counterparts.open(),
      dueLeft: Number(left.n),
    };
  } finally {
    // The hanging calls end with their connections (the gateway records them as unanswered).
    bank.close();
    await gateway.close();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(
    `isolation benchmark: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const healthy = await run('healthy');
  const hanging = await run('hanging');
  const fmt = (n: number) => n.toFixed(1).padStart(8);
  console.log('\nscenario   webhooks   p50 ms   p99 ms   max ms   bank requests   paused');
  for (const r of [healthy, hanging]) {
    console.log(
      `${r.scenario.padEnd(10)} ${String(r.events).padStart(8)} ${fmt(r.p50)} ${fmt(r.p99)} ${fmt(r.max)} ${String(
        r.bankRequests,
      ).padStart(15)}   ${r.pausedAddresses.join(', ') || '-'}`,
    );
  }
  const ratio = hanging.p99 / healthy.p99;
  console.log(`\np99 ratio hanging / healthy: ${ratio.toFixed(2)} x`);
  console.log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench/results/isolation-latest.json'),
    `${JSON.stringify({ healthy, hanging, ratio }, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
