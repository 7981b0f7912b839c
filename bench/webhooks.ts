/**
 * `npm run bench:webhooks`: signed webhook deliveries per second from the gateway's dispatcher to a
 * local receiver, next to a baseline measured in the same run: the same number of POSTs of the
 * same bodies, at the same concurrency, over the same kind of kept-alive connections, by a bare
 * Node HTTP client with nothing to sign, claim or record.
 *
 * The receiver is its own process (bench/servers/webhook-receiver.ts). The gateway side runs in
 * this process on a fresh SQLite file: N events with their deliveries are written first, then the
 * dispatcher's batches are timed until every delivery is recorded as delivered, exactly as the
 * scheduler runs them. Target: >= 2,000 deliveries/s.
 *
 * Environment: BENCH_DELIVERIES (default 20000, 1000..200000), BENCH_BATCH (dispatcher batch size,
 * default 100, 10..1000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../gateway/config.js';
import { toStoredInstant } from '../gateway/domain/clock.js';
import { createMerchant } from '../gateway/merchants/merchant.service.js';
import { newPaymentRow } from '../gateway/payments/new-payment-row.js';
import { createLogger } from '../gateway/runtime/logger.js';
import { openServices } from '../gateway/runtime/start.js';
import { systemClock } from '../gateway/runtime/system.js';
import { WebhookDispatcher } from '../gateway/webhooks/dispatcher.js';
import { statusUpdatedEvent } from '../gateway/webhooks/events.js';
import { createWebhookSender } from '../gateway/webhooks/sender.js';
import { signBody } from '../gateway/webhooks/signer.js';
import { rowToPayment } from '../storage/payment.repository.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TARGET_PER_SECOND = 2_000;

function bounded(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

async function startReceiver(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/servers/webhook-receiver.ts')], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let buffered = '';
  for await (const chunk of child.stdout as NodeJS.ReadableStream) {
    buffered += String(chunk);
    const line = buffered.split('\n').find((l) => l.includes('bench_ready'));
    if (line !== undefined) return { child, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
  }
  throw new Error('the receiver exited before it was ready');
}

async function receiverCount(url: string): Promise<number> {
  const answer = (await (await fetch(`${url}/count`)).json()) as { requests: number };
  return answer.requests;
}

/** The baseline: `count` POSTs of `body`, `concurrency` at a time, over kept-alive connections. */
async function plainPosts(url: string, body: string, count: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const payload = Buffer.from(body);
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(`${url}/baseline`, {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 204 ? resolve() : reject(new Error('not 204'))));
      });
      request.end(payload);
    });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await post();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return count / seconds;
}

async function main(): Promise<void> {
  const deliveries = bounded('BENCH_DELIVERIES', 20_000, 1_000, 200_000);
  const batch = bounded('BENCH_BATCH', 100, 10, 1_000);
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-webhooks-'));
  const receiver = await startReceiver();
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
    GATEWAY_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
    LOG_LEVEL: 'warn',
  });
  const { deps, database } = await openServices({ config, logger: createLogger('warn') });
  try {
    // One completed payment; N events of it, each with a delivery to the receiver.
    const merchant = await createMerchant(deps, { name: 'Bench Shop' });
    const domain = await deps.db
      .selectFrom('domains')
      .selectAll()
      .where('merchant_id', '=', merchant.merchant_id)
      .executeTakeFirstOrThrow();
    const nowMs = systemClock.nowMs();
    const now = toStoredInstant(nowMs);
    const completed = {
      ...newPaymentRow(deps, {
        merchant_id: merchant.merchant_id,
        key_environment: 'test',
        sandbox: 1,
        domain_id: domain.id,
        order_id: 'bench-order',
        active_order_id: 'bench-order',
        amount: 12_500,
        currency: 'AMD',
        processor: 'sandbox',
        redirect_mode: 'hosted',
        customer_id: null,
        customer_email: null,
        customer_name: null,
        description: 'Benchmark order',
        return_url: 'https://shop.example/done',
        cancel_url: null,
        callback_url: `${receiver.url}/hooks`,
      }),
      status: 'completed' as const,
      rrn: '123456789012',
      card_last4: '1111',
      completed_at: now,
    };
    const paymentId = completed.id;
    await deps.db.insertInto('payments').values(completed).execute();
    const payment = await deps.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    const payload = JSON.stringify(statusUpdatedEvent(rowToPayment(payment)));
    for (let start = 0; start < deliveries; start += 1_000) {
      await deps.db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(start + 1_000, deliveries); i++) {
          const eventId = deps.ids.uuid(nowMs);
          await trx
            .insertInto('outbox_events')
            .values({
              id: eventId,
              merchant_id: merchant.merchant_id,
              environment: 'test',
              domain_id: domain.id,
              payment_id: paymentId,
              event: 'transaction.status.updated',
              livemode: 0,
              payload,
              created_at: now,
            })
            .execute();
          await trx
            .insertInto('webhook_deliveries')
            .values({
              id: deps.ids.uuid(nowMs),
              event_id: eventId,
              merchant_id: merchant.merchant_id,
              domain_id: domain.id,
              url: `${receiver.url}/hooks`,
              status: 'pending',
              attempts: 0,
              next_attempt_at: now,
              last_attempt_at: null,
              last_status_code: null,
              last_error: null,
              delivered_at: null,
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
      });
    }

    // Baseline first, with the same body size and concurrency as one dispatcher batch.
    const sampleBody = JSON.stringify({ delivery_id: deps.ids.uuid(nowMs), timestamp: 0, ...JSON.parse(payload) });
    const baseline = await plainPosts(receiver.url, sampleBody, deliveries, batch);

    const sender = createWebhookSender({ allowPrivate: true });
    const dispatcher = new WebhookDispatcher(deps, sender, batch);
    const before = await receiverCount(receiver.url);
    const started = performance.now();
    let claimed = 0;
    for (;;) {
      const n = await dispatcher.dispatchDue();
      if (n === 0) break;
      claimed += n;
    }
    const seconds = (performance.now() - started) / 1000;
    sender.close();
    const received = (await receiverCount(receiver.url)) - before;
    const delivered = await deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow();
    if (claimed !== deliveries || received !== deliveries || Number(delivered.n) !== deliveries) {
      throw new Error(
        `expected ${deliveries} deliveries; claimed ${claimed}, received ${received}, recorded ${delivered.n}`,
      );
    }
    // The signature the dispatcher computes is the one an independent HMAC gives.
    const check = signBody(sampleBody, domain.webhook_secret);
    if (check !== createHmac('sha256', domain.webhook_secret).update(sampleBody).digest('hex')) {
      throw new Error('signature mismatch');
    }

    const rate = deliveries / seconds;
    const result = {
      measured_at: toStoredInstant(systemClock.nowMs()),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
      deliveries,
      batch,
      database: 'sqlite',
      baseline_posts_per_second: Math.round(baseline),
      dispatcher_deliveries_per_second: Math.round(rate),
      ratio_to_baseline: Number((rate / baseline).toFixed(2)),
      target_per_second: TARGET_PER_SECOND,
      target_met: rate >= TARGET_PER_SECOND,
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/webhooks-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `webhook deliveries: ${result.dispatcher_deliveries_per_second}/s signed, claimed and recorded ` +
        `(baseline plain POSTs ${result.baseline_posts_per_second}/s, ratio ${result.ratio_to_baseline}); ` +
        `target >= ${TARGET_PER_SECOND}/s ${result.target_met ? 'met' : 'MISSED'}\n`,
    );
    if (!result.target_met) process.exitCode = 1;
  } finally {
    await database.close();
    receiver.child.kill('SIGTERM');
    await once(receiver.child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
