/**
 * `bin/gateway listen` and `bin/gateway trigger` as a developer runs them, real processes on the
 * gateway's database (SQLite) beside a running gateway: listen prints the signing secret, then
 * forwards each test event of the account written after it started (by `trigger`, or by the
 * gateway serving the API) to a local HTTP server, signed as real deliveries are, printing each
 * with the local answer; earlier events, live events and other accounts' events are never sent;
 * SIGINT stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import { insertOutboxEvent } from '../../storage/outbox-event.repository.js';
import { CLI_TEST_TIMEOUT_MS, gatewayWith } from '../support/cli.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';
import {
  PUBLIC_URL,
  paymentBody,
  startTestGateway,
  TEST_GATEWAY_SECRET,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON lines
type Json = Record<string, any>;

/** How long a spawned command may take to start on a busy machine. */
const START_MS = 120_000;

function hmacHex(secret: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

/** Standard Webhooks: base64 HMAC of "id.timestamp.body" keyed with the base64 part of `whsec_...`. */
function standardSignature(secret: string, request: ReceivedWebhook): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.raw.toString('utf8')}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/** A running `bin/gateway listen`: its output so far, and a way to wait for lines. */
class Listener {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';

  constructor(env: Record<string, string>, args: string[]) {
    this.child = spawn('node', ['bin/gateway', 'listen', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /** Its JSON lines so far. */
  lines(): Json[] {
    return this.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Json);
  }

  /** Waits (real time, bounded) until `count` JSON lines have been printed. */
  async waitForLines(count: number, timeoutMs: number): Promise<Json[]> {
    const deadline = performance.now() + timeoutMs;
    while (this.lines().length < count) {
      if (performance.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`listen printed ${this.lines().length} of ${count} lines:\n${this.stdout}\n${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.lines();
  }

  async stop(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = once(this.child, 'exit');
    this.child.kill(signal);
    const [code] = (await exited) as [number | null];
    return code;
  }
}

describe('bin/gateway listen and trigger', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  let t: TestGateway;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const started: Listener[] = [];

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    t = await startTestGateway('sqlite', { databaseUrl: database.url });
    // The gateway's clock reads the real time, as a served gateway's does (the test clock starts earlier).
    t.clock.advance(Math.max(0, Date.now() - t.clock.nowMs()));
    receiver = await WebhookReceiver.start();
    env = { DATABASE_URL: database.url, PUBLIC_URL, GATEWAY_SECRET: TEST_GATEWAY_SECRET };
  });
  afterAll(async () => {
    for (const listener of started) if (listener.child.exitCode === null) listener.child.kill('SIGKILL');
    await t?.close();
    await receiver?.close();
    await database?.drop();
  });

  /** A sandbox payment of `m` created and paid through the API: one `transaction.status.updated`. */
  async function paidThroughApi(m: TestMerchant): Promise<string> {
    const created = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(created.status, created.text).toBe(201);
    const uuid = String(created.body.uuid);
    const paid = await t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, {
      key: m.testKey,
      body: { card_number: '4111 1111 1111 1111' },
    });
    expect(paid.status, paid.text).toBe(200);
    return uuid;
  }

  it('forwards the test events written after it started, signed, printing each answer, until SIGINT', async () => {
    const m = await t.merchant();
    const other = await t.merchant();
    const before = await paidThroughApi(m);
    receiver.replyWith((_request, index) => (index === 2 ? { status: 500, body: 'broken' } : { status: 200 }));

    const listener = new Listener(env, ['--json', '--api-key', m.testKey, '--forward-to', `${receiver.url}/webhooks`]);
    started.push(listener);
    const [ready] = await listener.waitForLines(1, START_MS);
    expect(ready).toEqual({
      ready: true,
      merchant_id: m.merchantId,
      forward_to: `${receiver.url}/webhooks`,
      signing_secrets: [
        { host: m.hostedDomain, secret: expect.stringMatching(/^whsec_/), next_secret: null, next_secret_from: null },
      ],
    });
    const secret = String(ready?.signing_secrets[0].secret);

    // Another process makes the events: `trigger`, as the developer runs it in a second terminal.
    const triggered = await gatewayWith(env, 'trigger', 'payment.refunded', '--api-key', m.testKey, '--json');
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    const made = JSON.parse(triggered.stdout) as Json;
    expect(made).toMatchObject({
      triggered: 'payment.refunded',
      merchant_id: m.merchantId,
      domain: m.hostedDomain,
      status: 'refunded',
    });
    expect(made.events.map((e: Json) => e.event)).toEqual(['transaction.status.updated', 'payment.refunded']);

    // Never forwarded: a live event of the account, and another account's test event.
    await insertOutboxEvent(t.gateway.deps.db, {
      id: t.gateway.deps.ids.uuid(t.clock.nowMs()),
      merchant_id: m.merchantId,
      environment: 'live',
      domain_id: (
        await t.gateway.deps.db
          .selectFrom('payments')
          .select('domain_id')
          .where('id', '=', before)
          .executeTakeFirstOrThrow()
      ).domain_id,
      payment_id: before,
      event: 'transaction.status.updated',
      livemode: 1,
      payload: JSON.stringify({ event: 'transaction.status.updated', livemode: true, transaction: { uuid: before } }),
      created_at: toStoredInstant(t.clock.nowMs()),
    });
    await paidThroughApi(other);
    // The triggered events are forwarded first (each in the order written)...
    await receiver.waitFor(2, START_MS);
    // ...then the running gateway writes the next one, as the developer's app paying through the API makes it.
    const viaApi = await paidThroughApi(m);

    const received = await receiver.waitFor(3, START_MS);
    expect(received.map((r) => [r.json.event, r.json.transaction.uuid])).toEqual([
      ['transaction.status.updated', made.payment_uuid],
      ['payment.refunded', made.payment_uuid],
      ['transaction.status.updated', viaApi],
    ]);
    for (const request of received) {
      expect(request.path).toBe('/webhooks');
      expect(request.json.livemode).toBe(false);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-service-signature']).toBe(hmacHex(secret, request.raw));
      expect(request.headers['webhook-signature']).toBe(standardSignature(secret, request));
      expect(request.headers['webhook-id']).toBe(request.json.delivery_id);
      expect(request.headers['webhook-timestamp']).toBe(String(request.json.timestamp));
    }
    expect(received[1]?.json.refund).toMatchObject({ amount: 5000, reason: 'bin/gateway trigger payment.refunded' });

    const lines = await listener.waitForLines(4, START_MS);
    expect(lines.slice(1)).toEqual([
      expect.objectContaining({
        event_id: made.events[0].event_id,
        event: 'transaction.status.updated',
        payment_uuid: made.payment_uuid,
        payment_status: 'completed',
        delivery_id: received[0]?.json.delivery_id,
        delivered: true,
        status_code: 200,
        error: null,
      }),
      expect.objectContaining({
        event_id: made.events[1].event_id,
        event: 'payment.refunded',
        payment_status: 'refunded',
        delivered: true,
        status_code: 200,
      }),
      expect.objectContaining({
        event: 'transaction.status.updated',
        payment_uuid: viaApi,
        delivered: false,
        status_code: 500,
        error: 'HTTP 500',
      }),
    ]);

    expect(await listener.stop('SIGINT')).toBe(0);
    expect(listener.lines().at(-1)).toEqual({ stopped: true, forwarded: 2, failed: 1 });
    expect(listener.stderr).toBe('');
    // Nothing else was sent: not the earlier event, not the live one, not the other account's, no retry.
    expect(receiver.received).toHaveLength(3);
  });

  it('refuses a command line it cannot follow, and a key that is not a test key of the account', async () => {
    const m = await t.merchant();
    const liveKey = await t.key(m.merchantId, 'live');
    const [noTarget, live, unknown] = await Promise.all([
      gatewayWith(env, 'listen', '--api-key', m.testKey),
      gatewayWith(env, 'listen', '--api-key', liveKey, '--forward-to', 'http://localhost:3000/webhooks'),
      gatewayWith(env, 'trigger', 'payment.paid', '--merchant', m.merchantId),
    ]);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('--forward-to is required');
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('--api-key is a live key: only test events are sent');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '"payment.paid" cannot be triggered: one of payment.completed, payment.failed, payment.refunded, transaction.status.updated',
    );
  });
});
