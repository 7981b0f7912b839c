/**
 * The sandbox test helpers over HTTP on both databases (DESIGN.md "Test helpers"): every card outcome
 * of the spec's table through `POST /api/v1/test_helpers/payments/{uuid}/pay`, late confirmation
 * through `.../confirm`, who may call them (test keys only, own payments only), card-number
 * validation, the customer a completed payment gets, which outcomes release the order, the
 * `transaction.status.updated` row each final status writes to the outbox, that no card number is
 * kept anywhere, and the rules of `POST /api/v1/test_helpers/clock/advance`.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS, toApiInstant, toStoredInstant } from '../../gateway/domain/clock.js';
import { payWithTestCard } from '../../gateway/payments/test-card.service.js';
import { findPaymentRow, rowToPayment } from '../../storage/payment.repository.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
  type TestMerchant,
  uniqueHost,
} from '../support/gateway.js';
import { ALL_PAYMENT_KEYS_SORTED, expectedStatusEvent } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const PAYMENT_KEYS = ALL_PAYMENT_KEYS_SORTED;

/** The spec's card table with what each card does to a payment. */
const CARD_OUTCOMES: Array<[card: string, label: string, status: string, failureCode: string | null]> = [
  ['4111 1111 1111 1111', 'approved', 'completed', null],
  ['4000 0000 0000 0002', 'declined by issuer', 'failed', 'declined'],
  ['4000 0000 0000 0069', 'insufficient funds', 'failed', 'insufficient_funds'],
  ['4000 0000 0000 0119', 'processor timeout', 'processing', 'processor_timeout'],
  ['4000 0000 0000 0101', '3-D Secure failed', 'failed', '3ds_failed'],
  ['4000 0000 0000 0127', 'amount limit exceeded', 'failed', 'amount_limit_exceeded'],
  ['4000 0000 0000 0200', 'duplicate transaction', 'failed', 'duplicate_transaction'],
  ['4000 0000 0000 0259', 'transaction expired', 'failed', 'transaction_expired'],
  ['4000 0000 0000 0309', 'processor unavailable', 'failed', 'processor_unavailable'],
  ['4000 0000 0000 0341', 'general failure', 'failed', 'general_failure'],
  ['5555 5555 5555 4444', 'any other 16-digit number', 'completed', null],
  ['4000 0000 0000 0010', 'a 4000 number not in the table', 'completed', null],
];

const APPROVED = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';
const TIMEOUT = '4000 0000 0000 0119';

const RRN = /^\d{12}$/;
const CUSTOMER_ID = /^cus_[A-Za-z0-9_-]{16}$/;

const expectError = expectErrorBody;

describe.each(DIALECTS)('sandbox test helpers on %s', (dialect) => {
  let t: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    t = await startTestGateway(dialect, {
      env: { GATEWAY_CLOCK: 'manual', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    m = await t.merchant();
  });
  afterAll(async () => t?.close());

  const nowApi = () => toApiInstant(toStoredInstant(t.clock.nowMs()));

  async function create(overrides: Json = {}, key = m.testKey): Promise<Json> {
    const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(overrides) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  const pay = (uuid: unknown, card: unknown, key = m.testKey) =>
    t.call('POST', `/api/v1/test_helpers/payments/${uuid}/pay`, { key, body: { card_number: card } });

  const confirm = (uuid: unknown, key = m.testKey) =>
    t.call('POST', `/api/v1/test_helpers/payments/${uuid}/confirm`, { key });

  async function read(uuid: unknown, key = m.testKey): Promise<Json> {
    const res = await t.call('GET', `/api/v1/payments/${uuid}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  async function paid(uuid: unknown, card: string): Promise<Json> {
    const res = await pay(uuid, card);
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  const row = async (uuid: unknown) => {
    const found = await findPaymentRow(t.gateway.deps.db, String(uuid));
    if (found === undefined) throw new Error(`no payment ${uuid}`);
    return found;
  };

  async function events(uuid: unknown) {
    const rows = await t.gateway.deps.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('payment_id', '=', String(uuid))
      .orderBy('created_at')
      // Same instant under the manual clock: ids are UUIDv7 in creation order within a process.
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Json }));
  }

  /** The status of a new payment for `orderId`: 201 when the order is free, 422 when a payment holds it. */
  async function newPaymentFor(orderId: unknown): Promise<ApiResponse> {
    return t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody({ order_id: orderId }) });
  }

  function expectOrderHeld(res: ApiResponse): void {
    const body = expectError(res, 422, 'validation_failed', ['errors']);
    expect(Object.keys(body.errors as Json)).toEqual(['order_id']);
  }

  describe("POST /api/v1/test_helpers/payments/{uuid}/pay: the spec's card outcomes", () => {
    it.each(CARD_OUTCOMES)('%s (%s) -> %s', async (card, _label, status, failureCode) => {
      const created = await create({ amount: 7300, description: 'Blue mug' });
      const res = await pay(created.uuid, card);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual(PAYMENT_KEYS);
      const digits = card.replaceAll(' ', '');

      if (status === 'completed') {
        expect(res.body).toEqual({
          ...created,
          status: 'completed',
          processor: 'sandbox',
          rrn: expect.stringMatching(RRN),
          customer_id: expect.stringMatching(CUSTOMER_ID),
          completed_at: nowApi(),
          failure_code: null,
        });
      } else {
        expect(res.body).toEqual({ ...created, status, processor: 'sandbox', failure_code: failureCode });
        expect(res.body.rrn).toBeNull();
        expect(res.body.completed_at).toBeNull();
        expect(res.body.customer_id).toBeNull();
      }
      expect(await read(created.uuid)).toEqual(res.body);

      const stored = await row(created.uuid);
      expect(stored.card_last4).toBe(digits.slice(-4));
      expect(stored.reconciliation_flag).toBeNull();
      expect(stored.active_order_id).toBe(status === 'failed' ? null : created.order_id);

      const written = await events(created.uuid);
      if (status === 'processing') {
        expect(written).toEqual([]);
      } else {
        expect(written).toHaveLength(1);
        expect(written[0]?.payload).toEqual(expectedStatusEvent(res.body));
      }

      const retry = await newPaymentFor(created.order_id);
      if (status === 'failed') expect(retry.status, retry.text).toBe(201);
      else expectOrderHeld(retry);
    });

    it('the outbox row carries the merchant, environment, domain, event and time of the change', async () => {
      const created = await create();
      const completed = await paid(created.uuid, APPROVED);
      const stored = await row(created.uuid);
      const [written] = await events(created.uuid);
      expect(written).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        merchant_id: m.merchantId,
        environment: 'test',
        domain_id: stored.domain_id,
        payment_id: created.uuid,
        event: 'transaction.status.updated',
        livemode: 0,
        payload: expectedStatusEvent(completed),
        created_at: toStoredInstant(t.clock.nowMs()),
      });
      expect(written?.payload.transaction).toMatchObject({
        completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      });
    });

    it('a live-key sandbox payment is paid by the same code path, emits livemode false and is a test payment', async () => {
      const host = uniqueHost('helpers');
      const live = await t.liveMerchant(host);
      const created = await create(
        { processor: 'sandbox', return_url: `https://${host}/done`, customer_email: 'live.buyer@example.am' },
        live.liveKey,
      );
      expect(created.livemode).toBe(false);
      const payment = rowToPayment(await row(created.uuid));
      const result = await payWithTestCard(t.gateway.deps, payment, APPROVED);
      expect(result).toMatchObject({ ok: true, payment: { status: 'completed', sandbox: true } });

      const completed = await read(created.uuid, live.liveKey);
      const [written, ...more] = await events(created.uuid);
      expect(more).toEqual([]);
      expect(written).toMatchObject({ merchant_id: live.merchantId, environment: 'test', livemode: 0 });
      expect(written?.payload).toEqual(expectedStatusEvent(completed));
      const customer = await t.gateway.deps.db
        .selectFrom('customers')
        .selectAll()
        .where('id', '=', String(completed.customer_id))
        .executeTakeFirstOrThrow();
      expect(customer).toMatchObject({
        merchant_id: live.merchantId,
        environment: 'test',
        email: 'live.buyer@example.am',
      });
    });

    it('accepts numbers typed with spaces or dashes', async () => {
      const dashed = await create();
      expect(await paid(dashed.uuid, '4000-0000-0000-0002')).toMatchObject({
        status: 'failed',
        failure_code: 'declined',
      });
      const unspaced = await create();
      expect(await paid(unspaced.uuid, '4000000000000069')).toMatchObject({
        status: 'failed',
        failure_code: 'insufficient_funds',
      });
      const loose = await create();
      expect(await paid(loose.uuid, ' 4111 1111-1111 1111 ')).toMatchObject({ status: 'completed' });
    });

    it.each([
      ['15 digits', '4111 1111 1111 111'],
      ['17 digits', '4111 1111 1111 1111 1'],
      ['a letter', '4111 1111 1111 111x'],
      ['an empty string', ''],
      ['a JSON number', 4111111111111111],
      ['null', null],
      ['a missing card_number', undefined],
    ])('refuses %s with 422 errors.card_number, leaving the payment as it was', async (_label, card) => {
      const created = await create();
      const res = await pay(created.uuid, card);
      const body = expectError(res, 422, 'validation_failed', ['errors']);
      expect(Object.keys(body.errors as Json)).toEqual(['card_number']);
      const messages = (body.errors as Record<string, unknown[]>).card_number;
      expect(messages).toHaveLength(1);
      expect(typeof messages?.[0]).toBe('string');
      if (typeof card === 'string' && card !== '') expect(res.text).not.toContain(card);
      expect(await read(created.uuid)).toEqual(created);
      expect(await events(created.uuid)).toEqual([]);
    });

    it('refuses a body without card_number (empty or not an object) with 422 errors.card_number', async () => {
      const created = await create();
      for (const options of [{}, { body: ['4111111111111111'] }, { body: {} }]) {
        const res = await t.call('POST', `/api/v1/test_helpers/payments/${created.uuid}/pay`, {
          key: m.testKey,
          ...options,
        });
        const body = expectError(res, 422, 'validation_failed', ['errors']);
        expect(Object.keys(body.errors as Json)).toEqual(['card_number']);
      }
      expect(await read(created.uuid)).toEqual(created);
    });
  });

  describe('paying a payment that is already final', () => {
    it('a completed payment is answered unchanged, whatever the card; no second event', async () => {
      const created = await create();
      const completed = await paid(created.uuid, APPROVED);
      t.clock.advance(1000);
      for (const card of [DECLINED, APPROVED, TIMEOUT]) {
        const again = await pay(created.uuid, card);
        expect(again.status, again.text).toBe(200);
        expect(again.body).toEqual(completed);
      }
      expect((await row(created.uuid)).card_last4).toBe('1111');
      expect(await events(created.uuid)).toHaveLength(1);
    });

    it('a failed payment is answered unchanged: paying again is not a late confirmation', async () => {
      const created = await create();
      const failed = await paid(created.uuid, DECLINED);
      t.clock.advance(1000);
      const again = await pay(created.uuid, APPROVED);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toEqual(failed);
      expect((await row(created.uuid)).card_last4).toBe('0002');
      expect((await events(created.uuid)).map((e) => e.payload.transaction)).toEqual([
        expect.objectContaining({ status: 'failed' }),
      ]);
    });
  });

  describe('POST /api/v1/test_helpers/payments/{uuid}/confirm', () => {
    it('pending -> completed, with one event', async () => {
      const created = await create();
      const res = await confirm(created.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        ...created,
        status: 'completed',
        processor: 'sandbox',
        rrn: expect.stringMatching(RRN),
        customer_id: expect.stringMatching(CUSTOMER_ID),
        completed_at: nowApi(),
        failure_code: null,
      });
      expect(await read(created.uuid)).toEqual(res.body);
      expect((await events(created.uuid)).map((e) => e.payload)).toEqual([expectedStatusEvent(res.body)]);
      expectOrderHeld(await newPaymentFor(created.order_id));
    });

    it('processing (a processor timeout) -> completed, the timeout reason cleared', async () => {
      const created = await create();
      expect(await paid(created.uuid, TIMEOUT)).toMatchObject({
        status: 'processing',
        failure_code: 'processor_timeout',
      });
      t.clock.advance(5 * 60_000);
      const res = await confirm(created.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        status: 'completed',
        failure_code: null,
        completed_at: nowApi(),
        rrn: expect.stringMatching(RRN),
        customer_id: expect.stringMatching(CUSTOMER_ID),
      });
      expect((await row(created.uuid)).card_last4).toBe('0119');
      expect((await events(created.uuid)).map((e) => e.payload)).toEqual([expectedStatusEvent(res.body)]);
    });

    it('failed -> completed (late confirmation): completed_at set, an event, the order taken back', async () => {
      const created = await create();
      const failed = await paid(created.uuid, DECLINED);
      t.clock.advance(3 * 60_000);
      const res = await confirm(created.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        ...failed,
        status: 'completed',
        rrn: expect.stringMatching(RRN),
        customer_id: expect.stringMatching(CUSTOMER_ID),
        completed_at: nowApi(),
        failure_code: null,
      });
      const written = await events(created.uuid);
      expect(written.map((e) => e.payload)).toEqual([expectedStatusEvent(failed), expectedStatusEvent(res.body)]);
      const stored = await row(created.uuid);
      expect(stored.active_order_id).toBe(created.order_id);
      expect(stored.reconciliation_flag).toBeNull();
      expectOrderHeld(await newPaymentFor(created.order_id));
    });

    it('completed -> unchanged, no second event', async () => {
      const created = await create();
      const completed = await paid(created.uuid, APPROVED);
      t.clock.advance(1000);
      for (let i = 0; i < 2; i++) {
        const res = await confirm(created.uuid);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual(completed);
      }
      expect(await events(created.uuid)).toHaveLength(1);
    });

    it('late confirmation of a failed payment whose order was paid meanwhile: completed, flagged, not holding', async () => {
      const first = await create();
      await paid(first.uuid, DECLINED);
      const second = await create({ order_id: first.order_id });
      const secondPaid = await paid(second.uuid, APPROVED);

      const res = await confirm(first.uuid);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'completed', completed_at: nowApi() });
      const stored = await row(first.uuid);
      expect(stored.reconciliation_flag).toBe('duplicate_completion');
      expect(stored.active_order_id).toBeNull();
      expect((await row(second.uuid)).active_order_id).toBe(first.order_id);
      expect((await row(second.uuid)).reconciliation_flag).toBeNull();
      expect(await read(second.uuid)).toEqual(secondPaid);
      expect((await events(first.uuid)).map((e) => e.payload.transaction)).toEqual([
        expect.objectContaining({ status: 'failed' }),
        expect.objectContaining({ status: 'completed' }),
      ]);
    });
  });

  describe('who may use the helpers', () => {
    it('a live key gets 404 not_found on every helper, even for its own sandbox payment', async () => {
      const host = uniqueHost('helpers');
      const live = await t.liveMerchant(host);
      const created = await create({ processor: 'sandbox', return_url: `https://${host}/done` }, live.liveKey);
      const testPayment = await create({}, live.testKey);

      for (const uuid of [created.uuid, testPayment.uuid]) {
        expectError(await pay(uuid, APPROVED, live.liveKey), 404, 'not_found');
        expectError(await confirm(uuid, live.liveKey), 404, 'not_found');
      }
      expectError(
        await t.call('POST', '/api/v1/test_helpers/clock/advance', { key: live.liveKey, body: { seconds: 60 } }),
        404,
        'not_found',
      );
      expect(await read(created.uuid, live.liveKey)).toEqual(created);
      expect(await read(testPayment.uuid, live.testKey)).toEqual(testPayment);
      expect(await events(created.uuid)).toEqual([]);
      expect(await events(testPayment.uuid)).toEqual([]);
    });

    it("another merchant's payment is 404 not_found and stays as it was", async () => {
      const other = await t.merchant({ name: 'Other Shop' });
      const theirs = await create({}, other.testKey);
      expectError(await pay(theirs.uuid, APPROVED), 404, 'not_found');
      expectError(await confirm(theirs.uuid), 404, 'not_found');
      expect(await read(theirs.uuid, other.testKey)).toEqual(theirs);
      expect(await events(theirs.uuid)).toEqual([]);
    });

    it.each([
      ['an unknown uuid', randomUUID()],
      ['a malformed uuid', 'not-a-uuid'],
    ])('%s is 404 not_found', async (_label, uuid) => {
      expectError(await pay(uuid, APPROVED), 404, 'not_found');
      expectError(await confirm(uuid), 404, 'not_found');
    });

    it('without a key: 401', async () => {
      const created = await create();
      const res = await t.call('POST', `/api/v1/test_helpers/payments/${created.uuid}/pay`, {
        body: { card_number: APPROVED },
      });
      expect(res.status, res.text).toBe(401);
      expect(await read(created.uuid)).toEqual(created);
    });

    it('a payments-only test key may use them', async () => {
      const key = await t.key(m.merchantId, 'test', 'payments');
      const created = await create({}, key);
      expect((await pay(created.uuid, APPROVED, key)).body).toMatchObject({ status: 'completed' });
    });
  });

  describe('the customer of a completed payment', () => {
    async function customerOf(overrides: Json, key = m.testKey): Promise<string> {
      const created = await create(overrides, key);
      const res = await pay(created.uuid, APPROVED, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe('completed');
      if (typeof overrides.customer_email === 'string') {
        expect(res.text.toLowerCase()).not.toContain(overrides.customer_email.toLowerCase());
      }
      return res.body.customer_id as string;
    }

    const customerRows = () => t.gateway.deps.db.selectFrom('customers').selectAll().execute();

    it('is the one the merchant named at creation; no customer record is made', async () => {
      const before = (await customerRows()).length;
      expect(await customerOf({ customer_id: 'shop-customer-7', customer_email: 'named@example.am' })).toBe(
        'shop-customer-7',
      );
      expect(await customerOf({ customer_id: 42 })).toBe('42');
      expect((await customerRows()).length).toBe(before);
    });

    it('is the same for two payments with the same email, whatever its case', async () => {
      const email = `Buyer.${Math.random().toString(36).slice(2, 8)}@Example.AM`;
      const first = await customerOf({ customer_email: email });
      const second = await customerOf({ customer_email: email.toLowerCase() });
      const third = await customerOf({ customer_email: email.toUpperCase() });
      expect(first).toMatch(CUSTOMER_ID);
      expect(second).toBe(first);
      expect(third).toBe(first);
      const records = (await customerRows()).filter((c) => c.id === first);
      expect(records).toEqual([
        {
          id: first,
          merchant_id: m.merchantId,
          environment: 'test',
          email: email.toLowerCase(),
          created_at: expect.any(String),
        },
      ]);
    });

    it('is one record for a new buyer whose payments complete at the same time', async () => {
      const email = `together.${Math.random().toString(36).slice(2, 8)}@example.am`;
      const payments = await Promise.all(Array.from({ length: 6 }, () => create({ customer_email: email })));
      const answers = await Promise.all(payments.map((p) => paid(p.uuid, APPROVED)));
      const ids = new Set(answers.map((a) => a.customer_id));
      expect(ids.size).toBe(1);
      const records = (await customerRows()).filter((c) => c.email === email);
      expect(records.map((c) => c.id)).toEqual([...ids]);
    });

    it('differs between emails and between merchants', async () => {
      const email = `shared.${Math.random().toString(36).slice(2, 8)}@example.am`;
      const mine = await customerOf({ customer_email: email });
      const otherEmail = await customerOf({ customer_email: `x.${email}` });
      const other = await t.merchant({ name: 'Second Shop' });
      const theirs = await customerOf({ customer_email: email }, other.testKey);
      expect(new Set([mine, otherEmail, theirs]).size).toBe(3);
      const their = (await customerRows()).find((c) => c.id === theirs);
      expect(their?.merchant_id).toBe(other.merchantId);
    });

    it('is a new one for every payment without an email, recorded without an email', async () => {
      const ids = [await customerOf({}), await customerOf({}), await customerOf({ customer_name: 'Ani' })];
      for (const id of ids) expect(id).toMatch(CUSTOMER_ID);
      expect(new Set(ids).size).toBe(3);
      const records = (await customerRows()).filter((c) => ids.includes(c.id));
      expect(records).toHaveLength(3);
      for (const record of records) expect(record).toMatchObject({ merchant_id: m.merchantId, email: null });
    });

    it('a failed payment gets none', async () => {
      const created = await create({ customer_email: 'declined.buyer@example.am' });
      expect((await paid(created.uuid, DECLINED)).customer_id).toBeNull();
    });
  });

  describe('the order', () => {
    it('a failed attempt releases it: a new payment for the order is accepted and may complete', async () => {
      const first = await create();
      await paid(first.uuid, '4000 0000 0000 0341');
      const retry = await newPaymentFor(first.order_id);
      expect(retry.status, retry.text).toBe(201);
      expect(await paid(retry.body.uuid, APPROVED)).toMatchObject({ status: 'completed' });
      expectOrderHeld(await newPaymentFor(first.order_id));

      const order = await t.call('GET', `/api/v1/orders/${encodeURIComponent(String(first.order_id))}/payment`, {
        key: m.testKey,
      });
      expect(order.body.uuid).toBe(retry.body.uuid);
    });

    it('a completed payment keeps it, and a timeout leaves it held while the payment is processing', async () => {
      const completed = await create();
      await paid(completed.uuid, APPROVED);
      expectOrderHeld(await newPaymentFor(completed.order_id));
      const waiting = await create();
      await paid(waiting.uuid, TIMEOUT);
      expectOrderHeld(await newPaymentFor(waiting.order_id));
    });
  });

  describe('card numbers', () => {
    /** Every text cell of every table of the database. */
    async function everyStoredText(): Promise<string[]> {
      const db = t.gateway.deps.db;
      const tables =
        dialect === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
          : await sql<{ name: string }>`
              select table_name as name from information_schema.tables
              where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
      const names = tables.rows.map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(['payments', 'outbox_events', 'customers']));
      const cells: string[] = [];
      for (const name of names) {
        const rows = await sql<Json>`select * from ${sql.table(name)}`.execute(db);
        for (const r of rows.rows) for (const value of Object.values(r)) if (value !== null) cells.push(String(value));
      }
      return cells;
    }

    it('only the last four digits are kept; the number is in no table and no response', async () => {
      const cards = ['5105 1051 0510 5100', '4000 0000 0000 0002', '4000 0000 0000 0119', '6011-1111-1111-1117'];
      const texts: string[] = [];
      for (const card of cards) {
        const created = await create();
        const res = await pay(created.uuid, card);
        expect(res.status, res.text).toBe(200);
        texts.push(res.text, (await t.call('GET', `/api/v1/payments/${created.uuid}`, { key: m.testKey })).text);
        const digits = card.replace(/\D/g, '');
        expect((await row(created.uuid)).card_last4).toBe(digits.slice(-4));
      }
      const refused = await pay((await create()).uuid, '5105 1051 0510 510');
      expect(refused.status).toBe(422);
      texts.push(refused.text);

      const stored = await everyStoredText();
      for (const card of [...cards, '5105 1051 0510 510']) {
        const digits = card.replace(/\D/g, '');
        const leading = digits.slice(0, 12);
        for (const text of [...stored, ...texts]) {
          expect(text).not.toContain(digits);
          expect(text).not.toContain(card);
          expect(text.replace(/[\s-]/g, '')).not.toContain(leading);
        }
      }
    });
  });

  describe('POST /api/v1/test_helpers/clock/advance', () => {
    const advance = (body: unknown, key = m.testKey) =>
      t.call('POST', '/api/v1/test_helpers/clock/advance', { key, body });

    it('moves the server clock and answers {now}', async () => {
      const before = t.clock.nowMs();
      const res = await advance({ seconds: 90 });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ now: toApiInstant(toStoredInstant(before + 90_000)) });
      expect(t.clock.nowMs()).toBe(before + 90_000);

      const created = await create();
      expect(created.created_at).toBe(res.body.now);
    });

    it.each([
      ['a fraction', { seconds: 1.5 }],
      ['zero', { seconds: 0 }],
      ['a negative number', { seconds: -60 }],
      ['a string', { seconds: '60' }],
      ['null', { seconds: null }],
      ['a boolean', { seconds: true }],
      ['a missing seconds', {}],
    ])('refuses %s with 422 errors.seconds, the clock unmoved', async (_label, body) => {
      const before = t.clock.nowMs();
      const res = await advance(body);
      const error = expectError(res, 422, 'validation_failed', ['errors']);
      expect(Object.keys(error.errors as Json)).toEqual(['seconds']);
      expect(t.clock.nowMs()).toBe(before);
    });

    it('runs the work that became due before answering', async () => {
      const created = await create();
      const res = await advance({ seconds: (20 * MINUTE_MS) / 1000 });
      expect(res.status, res.text).toBe(200);
      expect(await read(created.uuid)).toMatchObject({ status: 'expired' });
    });

    describe('without GATEWAY_CLOCK=manual', () => {
      let plain: TestGateway;
      beforeAll(async () => {
        plain = await startTestGateway(dialect);
      });
      afterAll(async () => plain?.close());

      it('is 404 not_found, whatever the body, and the clock does not move', async () => {
        const merchant = await plain.merchant();
        const before = plain.clock.nowMs();
        for (const body of [{ seconds: 60 }, { seconds: 0 }, {}]) {
          const res = await plain.call('POST', '/api/v1/test_helpers/clock/advance', {
            key: merchant.testKey,
            body,
          });
          expectError(res, 404, 'not_found');
        }
        expect(plain.clock.nowMs()).toBe(before);
      });

      it('the payment helpers still work there', async () => {
        const merchant = await plain.merchant();
        const created = await plain.call('POST', '/api/v1/payments', { key: merchant.testKey, body: paymentBody() });
        const res = await plain.call('POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
          key: merchant.testKey,
          body: { card_number: APPROVED },
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.status).toBe('completed');
      });
    });
  });
});
