/**
 * Expiry and late confirmation over HTTP on both databases (spec "States and transitions"): a
 * pending or processing payment expires exactly 20 minutes after creation, through the clock test
 * helper and through the scheduler, and after a restart; a processor-timeout payment expires; an
 * expired or failed payment completes on a late confirmation, flagged `duplicate_completion` when
 * another payment holds the order meanwhile; a buyer paying while the expiry runs ends in one
 * consistent state with one event per status reached; and on PostgreSQL two instances expiring
 * together expire each payment once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { findPaymentRow } from '../../storage/payment.repository.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import {
  type ApiResponse,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
} from '../support/gateway.js';
import { expectedStatusEvent } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';
const TIMEOUT = '4000 0000 0000 0119';

const TTL_MS = 20 * MINUTE_MS;
const RRN = /^\d{12}$/;
const CUSTOMER_ID = /^cus_[A-Za-z0-9_-]{16}$/;
const ENV = { GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' };

/** The test helpers and reads of one gateway instance, for one merchant. */
function client(t: TestGateway, m: TestMerchant) {
  const call = (method: string, path: string, body?: unknown) =>
    t.call(method, path, body === undefined ? { key: m.testKey } : { key: m.testKey, body });

  const api = {
    async create(overrides: Json = {}): Promise<Json> {
      const res = await call('POST', '/api/v1/payments', paymentBody(overrides));
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    /** Creates `count` payments at the current instant. */
    async createMany(count: number): Promise<Json[]> {
      const created: Json[] = [];
      for (let i = 0; i < count; i += 10) {
        const chunk = Array.from({ length: Math.min(10, count - i) }, () => api.create());
        created.push(...(await Promise.all(chunk)));
      }
      return created;
    },
    pay: (uuid: unknown, card: string) =>
      call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, { card_number: card }),
    async paid(uuid: unknown, card: string): Promise<Json> {
      const res = await api.pay(uuid, card);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    async confirm(uuid: unknown): Promise<Json> {
      const res = await call('POST', `/api/v1/test_helpers/payments/${uuid}/confirm`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    advance: (seconds: number) => call('POST', '/api/v1/test_helpers/clock/advance', { seconds }),
    async read(uuid: unknown): Promise<Json> {
      const res = await call('GET', `/api/v1/payments/${uuid}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    newPaymentFor: (orderId: unknown): Promise<ApiResponse> =>
      call('POST', '/api/v1/payments', paymentBody({ order_id: orderId })),
    async row(uuid: unknown) {
      const found = await findPaymentRow(t.gateway.deps.db, String(uuid));
      if (found === undefined) throw new Error(`no payment ${uuid}`);
      return found;
    },
    /** The events of a payment, payloads parsed, in outbox order. */
    async events(uuid: unknown): Promise<Json[]> {
      const rows = await t.gateway.deps.db
        .selectFrom('outbox_events')
        .selectAll()
        .where('payment_id', '=', String(uuid))
        .orderBy('created_at')
        // Same instant under the manual clock: ids are UUIDv7 in creation order within a process.
        .orderBy('id')
        .orderBy('id')
        .execute();
      for (const r of rows) expect(r.event).toBe('transaction.status.updated');
      return rows.map((r) => JSON.parse(r.payload) as Json);
    },
    /** The statuses the events of a payment report, in the order they were written. */
    async eventStatuses(uuid: unknown): Promise<string[]> {
      return (await api.events(uuid)).map((e) => (e.transaction as Json).status as string);
    },
  };
  return api;
}

/** When a payment expires: 20 minutes after its creation. */
const expiryOf = (payment: Json) => Date.parse(String(payment.created_at)) + TTL_MS;
const apiInstant = (ms: number) => toApiInstant(toStoredInstant(ms));

function expectOrderHeld(res: ApiResponse): void {
  expect(res.status, res.text).toBe(422);
  expect(res.body.error).toBe('validation_failed');
  expect(Object.keys(res.body.errors as Json)).toEqual(['order_id']);
}

type Api = ReturnType<typeof client>;

/** The card of the i-th payment of a race: mostly approved, some declined, some timing out. */
const raceCard = (i: number) => (i % 5 === 3 ? DECLINED : i % 5 === 4 ? TIMEOUT : APPROVED);

/** `started` resolves once `count` responses went through `answered`. */
function answeredCount(count: number) {
  let seen = 0;
  let start!: () => void;
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const answered = (res: ApiResponse): ApiResponse => {
    seen += 1;
    if (seen >= count) start();
    return res;
  };
  return { started, answered };
}

/**
 * After a pay raced the expiry: the payment is in one final state that its card allows, with exactly
 * one event per final status it went through; a payment that reached completed never expired after.
 */
async function expectConsistentOutcome(api: Api, payment: Json, card: string): Promise<string> {
  const now = await api.read(payment.uuid);
  const statuses = await api.eventStatuses(payment.uuid);
  const allowed: Record<string, Array<[final: string, events: string[]]>> = {
    [APPROVED]: [
      ['completed', ['completed']],
      ['expired', ['expired']],
      // Expired, then completed: the card was charged after the expiry ran, which the provider's
      // answer turns into a late confirmation (in that order, even when both share an instant).
      ['completed', ['expired', 'completed']],
    ],
    [DECLINED]: [
      ['failed', ['failed']],
      ['expired', ['expired']],
    ],
    [TIMEOUT]: [['expired', ['expired']]],
  };
  expect(allowed[card], `payment ${payment.uuid} paid with ${card}`).toContainEqual([now.status, statuses]);

  const events = await api.events(payment.uuid);
  const finalEvent = events.find((e) => (e.transaction as Json).status === now.status);
  expect(finalEvent).toEqual(expectedStatusEvent(now));
  const stored = await api.row(payment.uuid);
  expect(stored.active_order_id).toBe(now.status === 'completed' ? payment.order_id : null);
  expect(stored.reconciliation_flag).toBeNull();
  if (now.status === 'completed') {
    expect(now.rrn).toMatch(RRN);
    expect(now.completed_at).not.toBeNull();
    // Completed without expiring: the answer came before the expiry instant, never at or after it.
    if (statuses.length === 1) expect(Date.parse(String(now.completed_at))).toBeLessThan(expiryOf(payment));
  } else {
    expect(now.completed_at).toBeNull();
  }
  return String(now.status);
}

describe.each(DIALECTS)('payment expiry on %s', (dialect) => {
  let t: TestGateway;
  let api: Api;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: ENV });
    api = client(t, await t.merchant());
  });
  afterAll(async () => t?.close());

  /** Moves the server clock to exactly `ms` through the clock helper. */
  async function advanceTo(ms: number): Promise<Json> {
    const seconds = (ms - t.clock.nowMs()) / 1000;
    expect(Number.isInteger(seconds) && seconds >= 1, `advance by ${seconds} s`).toBe(true);
    const res = await api.advance(seconds);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ now: apiInstant(ms) });
    return res.body;
  }

  describe('through the clock helper', () => {
    it('pending and processing payments expire exactly 20 minutes after creation, each with one event', async () => {
      const pending = await api.create();
      const processing = await api.create();
      await api.paid(processing.uuid, TIMEOUT);
      await advanceTo(t.clock.nowMs() + 10 * MINUTE_MS);
      const younger = await api.create();

      await advanceTo(expiryOf(pending) - 1000);
      expect(await api.read(pending.uuid)).toMatchObject({ status: 'pending' });
      expect(await api.read(processing.uuid)).toMatchObject({ status: 'processing' });
      expect(await api.events(pending.uuid)).toEqual([]);
      expect(await api.events(processing.uuid)).toEqual([]);

      await advanceTo(expiryOf(pending));
      const expired = await api.read(pending.uuid);
      expect(expired).toEqual({ ...pending, status: 'expired' });
      const expiredTimeout = await api.read(processing.uuid);
      expect(expiredTimeout).toEqual({
        ...processing,
        status: 'expired',
        processor: 'sandbox',
        failure_code: 'processor_timeout',
      });
      expect(await api.read(younger.uuid)).toMatchObject({ status: 'pending' });
      expect(await api.events(pending.uuid)).toEqual([expectedStatusEvent(expired)]);
      expect(await api.events(processing.uuid)).toEqual([expectedStatusEvent(expiredTimeout)]);
      expect(await api.events(younger.uuid)).toEqual([]);

      for (const released of [pending, processing]) {
        expect((await api.row(released.uuid)).active_order_id).toBeNull();
        const retry = await api.newPaymentFor(released.order_id);
        expect(retry.status, retry.text).toBe(201);
      }

      await advanceTo(expiryOf(younger));
      expect(await api.read(younger.uuid)).toMatchObject({ status: 'expired' });
      expect(await api.events(pending.uuid)).toHaveLength(1);
      expect(await api.events(processing.uuid)).toHaveLength(1);
      expect(await api.events(younger.uuid)).toHaveLength(1);
    });

    it('final payments never expire', async () => {
      const completed = await api.create();
      const failed = await api.create();
      const completedBody = await api.paid(completed.uuid, APPROVED);
      const failedBody = await api.paid(failed.uuid, DECLINED);
      await advanceTo(expiryOf(completed) + 60 * MINUTE_MS);
      expect(await api.read(completed.uuid)).toEqual(completedBody);
      expect(await api.read(failed.uuid)).toEqual(failedBody);
      expect(await api.eventStatuses(completed.uuid)).toEqual(['completed']);
      expect(await api.eventStatuses(failed.uuid)).toEqual(['failed']);
    });
  });

  describe('through the scheduler', () => {
    it('every due payment expires, batch after batch, and no other', async () => {
      const due = await api.createMany(130);
      t.clock.advance(1000);
      const notYet = await api.create();
      t.clock.advance(expiryOf(due[0] as Json) - t.clock.nowMs());
      await t.gateway.scheduler.runDueNow();

      const ids = due.map((p) => String(p.uuid));
      const counts = await t.gateway.deps.db
        .selectFrom('outbox_events')
        .select(['payment_id', (eb) => eb.fn.countAll<number>().as('events')])
        .where('payment_id', 'in', ids)
        .groupBy('payment_id')
        .execute();
      expect(counts).toHaveLength(130);
      for (const count of counts) expect(Number(count.events)).toBe(1);
      for (const payment of due.slice(0, 5)) expect(await api.read(payment.uuid)).toMatchObject({ status: 'expired' });
      const statuses = await t.gateway.deps.db.selectFrom('payments').select('status').where('id', 'in', ids).execute();
      expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['expired']));

      expect(await api.read(notYet.uuid)).toMatchObject({ status: 'pending' });
      t.clock.advance(1000);
      await t.gateway.scheduler.runDueNow();
      expect(await api.read(notYet.uuid)).toMatchObject({ status: 'expired' });
      expect(await api.events(notYet.uuid)).toHaveLength(1);
    });

    it('due work survives a restart: the next instance on the database expires the payment', async () => {
      const database: TestDatabase = await freshDatabase(dialect, 'gateway');
      try {
        const first = await startTestGateway(dialect, { databaseUrl: database.url, env: ENV });
        const merchant = await first.merchant();
        let payment: Json;
        try {
          payment = await client(first, merchant).create();
        } finally {
          await first.close();
        }
        const second = await startTestGateway(dialect, { databaseUrl: database.url, env: ENV });
        try {
          const again = client(second, merchant);
          second.clock.advance(expiryOf(payment) - second.clock.nowMs());
          await second.gateway.scheduler.runDueNow();
          const expired = await again.read(payment.uuid);
          expect(expired).toEqual({ ...payment, status: 'expired' });
          expect(await again.events(payment.uuid)).toEqual([expectedStatusEvent(expired)]);
        } finally {
          await second.close();
        }
      } finally {
        await database.drop();
      }
    });
  });

  describe('paying around the expiry instant', () => {
    it('one second before: the payment completes and never expires', async () => {
      const payment = await api.create();
      await advanceTo(expiryOf(payment) - 1000);
      expect(await api.paid(payment.uuid, APPROVED)).toMatchObject({ status: 'completed' });
      await advanceTo(expiryOf(payment) + 1000);
      expect(await api.read(payment.uuid)).toMatchObject({ status: 'completed' });
      expect(await api.eventStatuses(payment.uuid)).toEqual(['completed']);
    });

    it('at the expiry instant (before any job ran): the payment expires instead of being charged', async () => {
      const payment = await api.create({ customer_email: 'late.buyer@example.am' });
      t.clock.advance(expiryOf(payment) - t.clock.nowMs());
      const res = await api.paid(payment.uuid, APPROVED);
      expect(res).toEqual({ ...payment, status: 'expired' });
      expect(await api.eventStatuses(payment.uuid)).toEqual(['expired']);
      expect((await api.row(payment.uuid)).card_last4).toBeNull();
    });

    it('an expired payment is answered unchanged by pay: paying is not a late confirmation', async () => {
      const payment = await api.create();
      await advanceTo(expiryOf(payment));
      const expired = await api.read(payment.uuid);
      const res = await api.pay(payment.uuid, APPROVED);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(expired);
      expect(await api.eventStatuses(payment.uuid)).toEqual(['expired']);
    });

    it('a processor-timeout payment stays processing without an event, then expires at 20 minutes', async () => {
      const payment = await api.create();
      await advanceTo(t.clock.nowMs() + 5 * MINUTE_MS);
      const waiting = await api.paid(payment.uuid, TIMEOUT);
      expect(waiting).toEqual({
        ...payment,
        status: 'processing',
        processor: 'sandbox',
        failure_code: 'processor_timeout',
      });
      await advanceTo(expiryOf(payment) - 1000);
      expect(await api.read(payment.uuid)).toEqual(waiting);
      expect(await api.events(payment.uuid)).toEqual([]);

      await advanceTo(expiryOf(payment));
      const expired = await api.read(payment.uuid);
      expect(expired).toEqual({ ...waiting, status: 'expired' });
      expect(await api.events(payment.uuid)).toEqual([expectedStatusEvent(expired)]);
      expect((await api.row(payment.uuid)).card_last4).toBe('0119');
    });
  });

  describe('late confirmation', () => {
    it('expired -> completed: completed_at set, one more event, the order taken back', async () => {
      const payment = await api.create();
      await advanceTo(expiryOf(payment));
      const expired = await api.read(payment.uuid);
      await advanceTo(t.clock.nowMs() + 7 * MINUTE_MS);

      const completed = await api.confirm(payment.uuid);
      // The buyer never picked a method: the sandbox that confirmed it is named as the processor.
      expect(completed).toEqual({
        ...expired,
        status: 'completed',
        processor: 'sandbox',
        rrn: expect.stringMatching(RRN),
        customer_id: expect.stringMatching(CUSTOMER_ID),
        completed_at: apiInstant(t.clock.nowMs()),
        failure_code: null,
      });
      expect(await api.read(payment.uuid)).toEqual(completed);
      expect(await api.events(payment.uuid)).toEqual([expectedStatusEvent(expired), expectedStatusEvent(completed)]);
      const stored = await api.row(payment.uuid);
      expect(stored.active_order_id).toBe(payment.order_id);
      expect(stored.reconciliation_flag).toBeNull();
      expectOrderHeld(await api.newPaymentFor(payment.order_id));

      expect(await api.confirm(payment.uuid)).toEqual(completed);
      await advanceTo(t.clock.nowMs() + 30 * MINUTE_MS);
      expect(await api.read(payment.uuid)).toEqual(completed);
      expect(await api.events(payment.uuid)).toHaveLength(2);
    });

    it('an expired processor-timeout payment completes on confirmation', async () => {
      const payment = await api.create();
      await api.paid(payment.uuid, TIMEOUT);
      await advanceTo(expiryOf(payment));
      await advanceTo(expiryOf(payment) + MINUTE_MS);
      const completed = await api.confirm(payment.uuid);
      expect(completed).toMatchObject({ status: 'completed', failure_code: null, rrn: expect.stringMatching(RRN) });
      expect(await api.events(payment.uuid)).toEqual([
        expect.objectContaining({
          transaction: expect.objectContaining({ status: 'expired', failure_code: 'processor_timeout' }),
        }),
        expectedStatusEvent(completed),
      ]);
      expect((await api.row(payment.uuid)).card_last4).toBe('0119');
    });

    it('failed -> completed after the expiry time passed: the expiry never touched the failed payment', async () => {
      const payment = await api.create();
      const failed = await api.paid(payment.uuid, DECLINED);
      await advanceTo(expiryOf(payment) + 5 * MINUTE_MS);
      expect(await api.read(payment.uuid)).toEqual(failed);

      const completed = await api.confirm(payment.uuid);
      expect(completed).toMatchObject({
        status: 'completed',
        failure_code: null,
        completed_at: apiInstant(t.clock.nowMs()),
      });
      expect(await api.events(payment.uuid)).toEqual([expectedStatusEvent(failed), expectedStatusEvent(completed)]);
      expect((await api.row(payment.uuid)).active_order_id).toBe(payment.order_id);
    });

    describe.each(['pending', 'processing', 'completed'] as const)(
      'while another payment of the order is %s',
      (holderStatus) => {
        it('the late-confirmed payment completes flagged duplicate_completion and does not hold the order', async () => {
          const late = await api.create();
          await advanceTo(expiryOf(late));
          const holder = await api.create({ order_id: late.order_id });
          if (holderStatus === 'processing') await api.paid(holder.uuid, TIMEOUT);
          if (holderStatus === 'completed') await api.paid(holder.uuid, APPROVED);
          const holderBefore = await api.read(holder.uuid);
          expect(holderBefore.status).toBe(holderStatus);
          const holderEvents = await api.events(holder.uuid);

          const completed = await api.confirm(late.uuid);
          expect(completed).toMatchObject({ status: 'completed', completed_at: apiInstant(t.clock.nowMs()) });
          const stored = await api.row(late.uuid);
          expect(stored.reconciliation_flag).toBe('duplicate_completion');
          expect(stored.active_order_id).toBeNull();
          expect(await api.eventStatuses(late.uuid)).toEqual(['expired', 'completed']);

          expect(await api.read(holder.uuid)).toEqual(holderBefore);
          expect(await api.events(holder.uuid)).toEqual(holderEvents);
          const holderRow = await api.row(holder.uuid);
          expect(holderRow.active_order_id).toBe(late.order_id);
          expect(holderRow.reconciliation_flag).toBeNull();
          expectOrderHeld(await api.newPaymentFor(late.order_id));

          expect(await api.confirm(late.uuid)).toEqual(completed);
          expect(await api.events(late.uuid)).toHaveLength(2);
          expect((await api.row(late.uuid)).reconciliation_flag).toBe('duplicate_completion');
        });
      },
    );

    it('while the other payment of the order failed: the late-confirmed payment takes the order back unflagged', async () => {
      const late = await api.create();
      await advanceTo(expiryOf(late));
      const other = await api.create({ order_id: late.order_id });
      await api.paid(other.uuid, DECLINED);
      await api.confirm(late.uuid);
      const stored = await api.row(late.uuid);
      expect(stored.reconciliation_flag).toBeNull();
      expect(stored.active_order_id).toBe(late.order_id);
    });

    it('two expired payments of one order confirmed together: one holds the order, the other is flagged', async () => {
      const first = await api.create();
      await advanceTo(expiryOf(first));
      const second = await api.create({ order_id: first.order_id });
      await advanceTo(expiryOf(second));

      const [a, b] = await Promise.all([api.confirm(first.uuid), api.confirm(second.uuid)]);
      expect(a.status).toBe('completed');
      expect(b.status).toBe('completed');
      const rows = [await api.row(first.uuid), await api.row(second.uuid)];
      expect(rows.map((r) => r.active_order_id).sort()).toEqual([first.order_id, null].sort());
      expect(rows.map((r) => r.reconciliation_flag).sort()).toEqual(['duplicate_completion', null].sort());
      for (const r of rows) expect(r.reconciliation_flag === null).toBe(r.active_order_id !== null);
      expect(await api.eventStatuses(first.uuid)).toEqual(['expired', 'completed']);
      expect(await api.eventStatuses(second.uuid)).toEqual(['expired', 'completed']);
    });
  });

  describe.each(['the scheduler', 'the clock helper'] as const)('a pay racing the expiry run by %s', (runner) => {
    it('30 payments each end in one consistent state with one event per status reached', async () => {
      const payments = await api.createMany(30);
      const expiry = expiryOf(payments[0] as Json);
      for (const p of payments) expect(expiryOf(p)).toBe(expiry);
      if (runner === 'the clock helper') await advanceTo(expiry - MINUTE_MS);
      else t.clock.advance(expiry - MINUTE_MS - t.clock.nowMs());

      // The expiry starts once a third of the buyers were answered, while the others are in flight.
      const { started, answered } = answeredCount(payments.length / 3);
      const expire = async () => {
        await started;
        if (runner === 'the clock helper') {
          const res = await api.advance(60);
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual({ now: apiInstant(expiry) });
        } else {
          t.clock.advance(MINUTE_MS);
          await t.gateway.scheduler.runDueNow();
        }
      };
      const answers = await Promise.all([
        expire(),
        ...payments.map((p, i) => api.pay(p.uuid, raceCard(i)).then(answered)),
      ]);
      for (const answer of answers.slice(1) as ApiResponse[]) expect(answer.status, answer.text).toBe(200);
      expect(t.clock.nowMs()).toBe(expiry);
      await t.gateway.scheduler.runDueNow();

      const finals: string[] = [];
      for (const [i, payment] of payments.entries()) {
        finals.push(await expectConsistentOutcome(api, payment, raceCard(i)));
      }

      // An expired payment completes only when confirmed; a completed one stays as it is.
      for (const [i, payment] of payments.entries()) {
        const before = await api.eventStatuses(payment.uuid);
        const confirmed = await api.confirm(payment.uuid);
        expect(confirmed.status).toBe('completed');
        const after = await api.eventStatuses(payment.uuid);
        if (finals[i] === 'completed') expect(after).toEqual(before);
        else expect(after).toEqual([...before, 'completed']);
      }
    });
  });
});

describe('two gateway instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestGateway;
  let b: TestGateway;
  let onA: Api;
  let onB: Api;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    a = await startTestGateway('postgres', { databaseUrl: database.url, env: ENV });
    b = await startTestGateway('postgres', { databaseUrl: database.url, env: ENV });
    const merchant = await a.merchant();
    onA = client(a, merchant);
    onB = client(b, merchant);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** Moves both instances' clocks forward by the same amount. */
  function advanceBoth(ms: number): void {
    a.clock.advance(ms);
    b.clock.advance(ms);
  }

  it('running the expiry together, they expire each payment exactly once', async () => {
    const payments = [...(await onA.createMany(90)), ...(await onB.createMany(90))];
    advanceBoth(TTL_MS);
    await Promise.all([
      a.gateway.scheduler.runDueNow(),
      b.gateway.scheduler.runDueNow(),
      a.gateway.scheduler.runDueNow(),
      b.gateway.scheduler.runDueNow(),
    ]);
    for (const payment of payments) {
      expect(await onA.eventStatuses(payment.uuid)).toEqual(['expired']);
    }
    const open = await a.gateway.deps.db
      .selectFrom('payments')
      .select('id')
      .where('status', 'in', ['pending', 'processing'])
      .execute();
    expect(open).toEqual([]);
  });

  it('advancing both clocks through the helper at once expires each payment exactly once', async () => {
    const payments = await onA.createMany(60);
    const [first, second] = await Promise.all([onA.advance(TTL_MS / 1000), onB.advance(TTL_MS / 1000)]);
    expect(first?.status).toBe(200);
    expect(second?.status).toBe(200);
    for (const payment of payments) {
      expect(await onB.read(payment.uuid)).toMatchObject({ status: 'expired' });
      expect(await onB.eventStatuses(payment.uuid)).toEqual(['expired']);
    }
  });

  it('buyers paying on one instance while the other expires: one consistent state each', async () => {
    const payments = await onA.createMany(30);
    const expiry = expiryOf(payments[0] as Json);
    advanceBoth(expiry - a.clock.nowMs() - 1000);
    const { started, answered } = answeredCount(payments.length / 3);
    const answers = await Promise.all([
      (async () => {
        await started;
        advanceBoth(1000);
        await a.gateway.scheduler.runDueNow();
      })(),
      ...payments.map((p, i) => onB.pay(p.uuid, raceCard(i)).then(answered)),
    ]);
    for (const answer of answers.slice(1) as ApiResponse[]) expect(answer.status, answer.text).toBe(200);
    await Promise.all([a.gateway.scheduler.runDueNow(), b.gateway.scheduler.runDueNow()]);
    for (const [i, payment] of payments.entries()) await expectConsistentOutcome(onA, payment, raceCard(i));
  });
});

describe('a pay held up across the expiry instant on PostgreSQL', () => {
  let t: TestGateway;
  let api: Api;

  beforeAll(async () => {
    t = await startTestGateway('postgres', { env: ENV });
    api = client(t, await t.merchant());
  });
  afterAll(async () => t?.close());

  /** Waits until some statement of this database waits for a row lock. */
  async function untilWaitingForLock(): Promise<void> {
    for (let i = 0; i < 400; i += 1) {
      const { rows } = await sql<{ waiting: number }>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(t.gateway.deps.db);
      if ((rows[0]?.waiting ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no statement waited for the lock');
  }

  it('an approval applied after the expiry instant is a late confirmation: expired, then completed', async () => {
    const payment = await api.create();
    await api.paid(payment.uuid, TIMEOUT);
    t.clock.advance(expiryOf(payment) - 1000 - t.clock.nowMs());

    // Another transaction holds the payment's row, so the pay request's provider answer waits for it
    // while the clock passes the expiry (the expiry job skips locked rows).
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held!: () => void;
    const lockHeld = new Promise<void>((resolve) => {
      held = resolve;
    });
    const holder = t.gateway.deps.db.transaction().execute(async (trx) => {
      await trx.selectFrom('payments').select('id').where('id', '=', String(payment.uuid)).forUpdate().execute();
      held();
      await released;
    });
    await lockHeld;
    const paying = api.pay(payment.uuid, APPROVED);
    await untilWaitingForLock();
    t.clock.advance(2000);
    release();
    await holder;

    const res = await paying;
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', completed_at: apiInstant(expiryOf(payment) + 1000) });
    expect(await api.eventStatuses(payment.uuid)).toEqual(['expired', 'completed']);
  });
});
