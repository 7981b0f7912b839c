/**
 * What `bin/gateway listen` reads and sends (gateway/webhooks/listen.service.ts), on both
 * databases: the tail hands out each test event of the account written after it started, once,
 * oldest first, including one committed late or written by a clock running ahead of the real one;
 * never a live event, another account's or (with a domain) another domain's. A forward is signed
 * with the domain's secrets of the moment, a rotation included.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, HOUR_MS, SECOND_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import { addDomain, rotateWebhookSecret } from '../../../gateway/merchants/domains.service.js';
import { statusUpdatedEvent } from '../../../gateway/webhooks/events.js';
import { forwardEvent, signingSecretsOf, TestEventTail } from '../../../gateway/webhooks/listen.service.js';
import { createWebhookSender, type WebhookSender } from '../../../gateway/webhooks/sender.js';
import { insertOutboxEvent } from '../../../storage/outbox-event.repository.js';
import type { OutboxEventRow } from '../../../storage/outbox-event.table.js';
import { rowToPayment } from '../../../storage/payment.repository.js';
import { DIALECTS } from '../../support/databases.js';
import {
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../../support/gateway.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

describe.each(DIALECTS)('listen: the tail and the forward (%s)', (dialect) => {
  let t: TestGateway;
  let receiver: WebhookReceiver;
  let sender: WebhookSender;
  /** The real time as the tail reads it: the test clock unless a test moves it apart. */
  let realMs: number;
  const realClock: Clock = { nowMs: () => realMs };

  beforeAll(async () => {
    t = await startTestGateway(dialect);
    receiver = await WebhookReceiver.start();
    sender = createWebhookSender({ allowPrivate: true });
  });
  afterAll(async () => {
    sender?.close();
    await receiver?.close();
    await t?.close();
  });

  /** A pending sandbox payment of `m` (on `domain` when given): its id. */
  async function payment(m: TestMerchant, domain?: string): Promise<string> {
    const created = await t.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody(domain === undefined ? {} : { domain }),
    });
    expect(created.status, created.text).toBe(201);
    return String(created.body.uuid);
  }

  /** Writes an event of the payment as the lifecycle does, at `atMs` (default: now). */
  async function event(paymentId: string, options: { atMs?: number; livemode?: boolean } = {}): Promise<string> {
    const deps = t.gateway.deps;
    const row = await deps.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
    const atMs = options.atMs ?? t.clock.nowMs();
    const id = deps.ids.uuid(atMs);
    const live = options.livemode === true;
    await insertOutboxEvent(deps.db, {
      id,
      merchant_id: row.merchant_id,
      environment: live ? 'live' : 'test',
      domain_id: row.domain_id,
      payment_id: paymentId,
      event: 'transaction.status.updated',
      livemode: live ? 1 : 0,
      // The payment as it is (pending): the tail and the forward do not look inside.
      payload: JSON.stringify({ ...statusUpdatedEvent(rowToPayment(row)), livemode: live }),
      created_at: toStoredInstant(atMs),
    });
    return id;
  }

  const ids = (rows: OutboxEventRow[]) => rows.map((row) => row.id);

  it('hands out each test event written after it started once, oldest first, late commits included', async () => {
    realMs = t.clock.nowMs();
    const m = await t.merchant();
    const other = await t.merchant();
    const p = await payment(m);
    await event(p);
    const tail = await TestEventTail.start(t.gateway.deps, { merchantId: m.merchantId, domainId: null }, realClock);
    expect(await tail.next()).toEqual([]);

    t.clock.advance(SECOND_MS);
    realMs = t.clock.nowMs();
    const first = await event(p);
    await event(p, { livemode: true });
    await event(await payment(other));
    t.clock.advance(SECOND_MS);
    realMs = t.clock.nowMs();
    const second = await event(p);
    expect(ids(await tail.next())).toEqual([first, second]);
    expect(await tail.next()).toEqual([]);

    // A transaction that began before `second` commits after it was handed out.
    const late = await event(p, { atMs: t.clock.nowMs() - 500 });
    expect(ids(await tail.next())).toEqual([late]);
    expect(await tail.next()).toEqual([]);
  });

  it("follows one domain's events when named, and an instance whose clock runs ahead as well as the real time", async () => {
    const m = await t.merchant();
    const host = uniqueHost('listen');
    const added = await addDomain(t.gateway.deps, { merchantId: m.merchantId, host, verified: true });
    const domainId = (
      await t.gateway.deps.db
        .selectFrom('domains')
        .select('id')
        .where('host', '=', added.host)
        .executeTakeFirstOrThrow()
    ).id;
    const onHost = await payment(m, host);
    const onHosted = await payment(m);
    realMs = t.clock.nowMs();
    const tail = await TestEventTail.start(t.gateway.deps, { merchantId: m.merchantId, domainId }, realClock);
    const ahead = await event(onHost, { atMs: realMs + 3 * HOUR_MS });
    await event(onHosted);
    expect(ids(await tail.next())).toEqual([ahead]);
    // Then an instance on the real time writes one: hours behind the newest seen, still handed out.
    realMs += SECOND_MS;
    const real = await event(onHost, { atMs: realMs });
    expect(ids(await tail.next())).toEqual([real]);

    expect(await signingSecretsOf(t.gateway.deps, { merchantId: m.merchantId, domainId })).toEqual([
      { host, secret: added.webhook_secret, next_secret: null, next_secret_from: null },
    ]);
  });

  it('signs a forward as a delivery is signed, with both secrets during a rotation, and reports the answer', async () => {
    const m = await t.merchant();
    const p = await payment(m);
    const rotation = await rotateWebhookSecret(t.gateway.deps, { merchantId: m.merchantId, host: m.hostedDomain });
    const id = await event(p);
    const row = await t.gateway.deps.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    receiver.replyWith({ status: 204 });
    const stampedMs = t.clock.nowMs() + 42 * SECOND_MS;
    const forwarded = await forwardEvent(t.gateway.deps, sender, { nowMs: () => stampedMs }, `${receiver.url}/in`, row);
    const [request] = await receiver.waitFor(1);
    expect(forwarded).toEqual({
      event_id: id,
      event: 'transaction.status.updated',
      payment_uuid: p,
      payment_status: 'pending',
      delivery_id: request?.json.delivery_id,
      delivered: true,
      status_code: 204,
      duration_ms: expect.any(Number),
      error: null,
    });
    expect(request?.json).toMatchObject({ event: 'transaction.status.updated', livemode: false });
    expect(request?.json.timestamp).toBe(Math.floor(stampedMs / 1000));
    const raw = request?.raw ?? Buffer.alloc(0);
    expect(request?.headers['x-service-signature']).toBe(
      createHmac('sha256', rotation.webhook_secret).update(raw).digest('hex'),
    );
    expect(request?.headers['x-service-signature-next']).toBe(
      createHmac('sha256', rotation.webhook_secret_next).update(raw).digest('hex'),
    );
    const [shown] = await signingSecretsOf(t.gateway.deps, { merchantId: m.merchantId, domainId: null });
    expect(shown).toEqual({
      host: m.hostedDomain,
      secret: rotation.webhook_secret,
      next_secret: rotation.webhook_secret_next,
      next_secret_from: rotation.next_active_at,
    });

    const closed = await forwardEvent(t.gateway.deps, sender, t.clock, 'http://127.0.0.1:9/in', row);
    expect(closed).toMatchObject({ delivered: false, status_code: null, error: 'connection refused' });
  });
});
