/**
 * Order lines on a payment (`items` of `POST /api/v1/payments`, docs/decisions.md "Order lines
 * (`items`)") over HTTP on both databases: lines are stored normalised (quantities in thousandths)
 * and read back exactly by uuid, by order id and in the list; every rule refuses with 422 and the
 * field's path, leaving nothing behind; a payment without lines answers `items: null`; and the
 * `Idempotency-Key` fingerprint covers the lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFxRate } from '../../gateway/payments/fx-rates.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  type ApiResponse,
  expectErrorBody,
  paymentBody,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';
import { ALL_PAYMENT_KEYS_SORTED } from '../support/payment-shape.js';

type Json = Record<string, unknown>;

const ITEM_KEYS = ['classification_code', 'code', 'name', 'quantity', 'unit', 'unit_price'];

/** Three lines worth 3000 + 1500 + 500 = 5000 AMD. */
const LINES = [
  { name: 'Armenian cookbook', quantity: 2, unit_price: 1500, classification_code: '4901', code: 'BK-17', unit: 'pcs' },
  { name: 'Apricots', quantity: 1.5, unit_price: 1000, unit: 'kg' },
  { name: 'Delivery', unit_price: 500 },
];

/** What the API answers for `LINES`. */
const LINES_ANSWERED = [
  { name: 'Armenian cookbook', quantity: 2, unit_price: 1500, classification_code: '4901', code: 'BK-17', unit: 'pcs' },
  { name: 'Apricots', quantity: 1.5, unit_price: 1000, classification_code: null, code: null, unit: 'kg' },
  { name: 'Delivery', quantity: 1, unit_price: 500, classification_code: null, code: null, unit: null },
];

describe.each(DIALECTS)('order lines (items) on %s', (dialect) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  const create = (key: string, body: unknown, headers?: Record<string, string>) =>
    t.call('POST', '/api/v1/payments', { key, body, ...(headers ? { headers } : {}) });

  function storedRow(uuid: string) {
    return t.gateway.deps.db.selectFrom('payments').selectAll().where('id', '=', uuid).executeTakeFirstOrThrow();
  }

  async function storedCount(merchantId: string): Promise<number> {
    const row = await t.gateway.deps.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function expectValidation(res: ApiResponse): Record<string, string[]> {
    return expectErrorBody(res, 422, 'validation_failed', ['errors']).errors as Record<string, string[]>;
  }

  /** Creates a payment with `items` worth `amount`; answers the 201 body. */
  async function createWith(key: string, amount: number, items: unknown[]): Promise<Json> {
    const res = await create(key, paymentBody({ amount, items }));
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  describe('a payment with lines', () => {
    it('stores them normalised and answers them by uuid, by order id and in the list', async () => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ amount: 5000, order_id: 'order-lines-1', items: LINES }));
      expect(res.status, res.text).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(ALL_PAYMENT_KEYS_SORTED);
      expect(res.body.items).toEqual(LINES_ANSWERED);
      for (const item of res.body.items as Json[]) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      const uuid = String(res.body.uuid);

      const row = await storedRow(uuid);
      expect(JSON.parse(row.items ?? 'null')).toEqual([
        {
          name: 'Armenian cookbook',
          quantity_milli: 2000,
          unit_price: 1500,
          classification_code: '4901',
          code: 'BK-17',
          unit: 'pcs',
        },
        { name: 'Apricots', quantity_milli: 1500, unit_price: 1000, classification_code: null, code: null, unit: 'kg' },
        { name: 'Delivery', quantity_milli: 1000, unit_price: 500, classification_code: null, code: null, unit: null },
      ]);

      const byUuid = await t.call('GET', `/api/v1/payments/${uuid}`, { key: m.testKey });
      expect(byUuid.status).toBe(200);
      expect(byUuid.body).toEqual(res.body);
      const byOrder = await t.call('GET', '/api/v1/orders/order-lines-1/payment', { key: m.testKey });
      expect(byOrder.status).toBe(200);
      expect(byOrder.body.items).toEqual(LINES_ANSWERED);
      const list = await t.call<{ data: Json[] }>('GET', '/api/v1/payments', { key: m.testKey });
      expect(list.status).toBe(200);
      expect(list.body.data[0]?.items).toEqual(LINES_ANSWERED);
    });

    it('reads quantities exactly: three decimals, and binary floating-point drift taken as the decimal meant', async () => {
      const m = await t.merchant();
      const drifted = 0.1 + 0.2; // 0.30000000000000004, as a client's arithmetic sends it
      expect(drifted).not.toBe(0.3);
      const items = [
        { name: 'a', quantity: 0.1, unit_price: 1000 }, // 100
        { name: 'b', quantity: 1.005, unit_price: 200 }, // 201
        { name: 'c', quantity: drifted, unit_price: 10 }, // 3
        { name: 'd', quantity: 0.001, unit_price: 10 }, // 0.01
        { name: 'e', quantity: 0.999, unit_price: 10 }, // 9.99
        { name: 'f', quantity: 2.5, unit_price: 3 }, // 7.5
        { name: 'g', quantity: 0.5, unit_price: 5 }, // 2.5
      ];
      const p = await createWith(m.testKey, 324, items);
      expect((p.items as Json[]).map((i) => i.quantity)).toEqual([0.1, 1.005, 0.3, 0.001, 0.999, 2.5, 0.5]);
      const stored = JSON.parse((await storedRow(String(p.uuid))).items ?? 'null') as Json[];
      expect(stored.map((i) => i.quantity_milli)).toEqual([100, 1005, 300, 1, 999, 2500, 500]);
    });

    it('takes the largest quantity, 100 lines, and null optional fields as absent (quantity 1)', async () => {
      const m = await t.merchant();
      const largest = await createWith(m.testKey, 1_000_000, [{ name: 'Sand', quantity: 1_000_000, unit_price: 1 }]);
      expect((largest.items as Json[])[0]?.quantity).toBe(1_000_000);

      const hundred = Array.from({ length: 100 }, (_, i) => ({ name: `line ${i + 1}`, unit_price: 10 }));
      expect(((await createWith(m.testKey, 1000, hundred)).items as Json[]).length).toBe(100);

      const nulls = await createWith(m.testKey, 700, [
        { name: 'Tea', quantity: null, unit_price: 700, classification_code: null, code: null, unit: null },
      ]);
      expect(nulls.items).toEqual([
        { name: 'Tea', quantity: 1, unit_price: 700, classification_code: null, code: null, unit: null },
      ]);
    });

    it('refuses unknown keys inside a line, as in the body, naming each', async () => {
      const m = await t.merchant();
      const res = await create(
        m.testKey,
        paymentBody({ amount: 1200, items: [{ name: 'Coffee', unit_price: 1200, vat_rate: 20, sku: 'C-1' }] }),
      );
      expect(expectValidation(res)).toEqual({
        'items.0.vat_rate': ['is not a field of this request'],
        'items.0.sku': ['is not a field of this request'],
      });
    });

    it('answers items: null for a payment without lines (null items too)', async () => {
      const m = await t.merchant();
      for (const body of [paymentBody(), paymentBody({ items: null })]) {
        const res = await create(m.testKey, body);
        expect(res.status, res.text).toBe(201);
        expect(res.body.items).toBeNull();
        expect((await storedRow(String(res.body.uuid))).items).toBeNull();
        const read = await t.call('GET', `/api/v1/payments/${res.body.uuid}`, { key: m.testKey });
        expect(read.body.items).toBeNull();
      }
    });
  });

  describe('refusals: 422 with the field path, nothing stored', () => {
    const line = (overrides: Json = {}): Json => ({ name: 'Book', quantity: 1, unit_price: 5000, ...overrides });
    const cases: Array<{ name: string; amount?: number; items: unknown; errors: Record<string, string[]> }> = [
      { name: 'an empty array', items: [], errors: { items: ['must have at least 1 line'] } },
      {
        name: '101 lines',
        amount: 101,
        items: Array.from({ length: 101 }, () => line({ unit_price: 1 })),
        errors: { items: ['must have at most 100 lines'] },
      },
      { name: 'items not an array', items: { name: 'Book' }, errors: { items: ['must be an array of order lines'] } },
      { name: 'a line not an object', items: ['Book'], errors: { 'items.0': ['must be an object'] } },
      { name: 'a missing name', items: [{ unit_price: 5000 }], errors: { 'items.0.name': ['is required'] } },
      { name: 'an empty name', items: [line({ name: '' })], errors: { 'items.0.name': ['must not be empty'] } },
      {
        name: 'a name of 256 characters',
        items: [line({ name: 'x'.repeat(256) })],
        errors: { 'items.0.name': ['must be at most 255 characters'] },
      },
      {
        name: 'a name with a control character',
        items: [line({ name: 'Book\n' })],
        errors: { 'items.0.name': ['must not contain control characters'] },
      },
      {
        name: 'quantity 0',
        items: [line({ quantity: 0 })],
        errors: { 'items.0.quantity': ['must be greater than 0'] },
      },
      {
        name: 'a negative quantity',
        items: [line({ quantity: -1 })],
        errors: { 'items.0.quantity': ['must be greater than 0'] },
      },
      {
        name: 'a quantity with 4 decimals',
        items: [line({ quantity: 1.0005 })],
        errors: { 'items.0.quantity': ['must have at most 3 decimals'] },
      },
      {
        name: 'a quantity below a thousandth',
        items: [line({ quantity: 0.0001 })],
        errors: { 'items.0.quantity': ['must have at most 3 decimals'] },
      },
      {
        name: 'a quantity above 1,000,000',
        items: [line({ quantity: 1_000_000.001, unit_price: 1 })],
        errors: { 'items.0.quantity': ['must be at most 1000000'] },
      },
      {
        name: 'a quantity sent as a string',
        items: [line({ quantity: '2' })],
        errors: { 'items.0.quantity': ['must be a number'] },
      },
      {
        name: 'unit_price 0',
        items: [line({ unit_price: 0 })],
        errors: { 'items.0.unit_price': ['must be at least 1'] },
      },
      {
        name: 'a fractional unit_price',
        amount: 10,
        items: [line({ unit_price: 10.5 })],
        errors: { 'items.0.unit_price': ['must be a whole number of AMD (no minor units)'] },
      },
      {
        name: 'a unit_price sent as a string',
        items: [line({ unit_price: '5000' })],
        errors: { 'items.0.unit_price': ['must be an integer (whole AMD)'] },
      },
      {
        name: 'a missing unit_price',
        items: [{ name: 'Book' }],
        errors: { 'items.0.unit_price': ['is required'] },
      },
      {
        name: 'a classification_code of 21 characters',
        items: [line({ classification_code: '1'.repeat(21) })],
        errors: { 'items.0.classification_code': ['must be at most 20 characters'] },
      },
      {
        name: 'a code of 51 characters',
        items: [line({ code: 'c'.repeat(51) })],
        errors: { 'items.0.code': ['must be at most 50 characters'] },
      },
      {
        name: 'a unit of 21 characters',
        items: [line({ unit: 'u'.repeat(21) })],
        errors: { 'items.0.unit': ['must be at most 20 characters'] },
      },
      { name: 'an empty unit', items: [line({ unit: '' })], errors: { 'items.0.unit': ['must not be empty'] } },
      {
        name: 'lines that do not add up to amount',
        amount: 5000,
        items: [line({ unit_price: 3000 }), line({ quantity: 1.5, unit_price: 1333 })],
        errors: { items: ['must add up to amount (5000 AMD); the lines add up to 4999.5 AMD'] },
      },
      {
        name: 'lines worth more than amount',
        amount: 5000,
        items: [line(), line({ unit_price: 1 })],
        errors: { items: ['must add up to amount (5000 AMD); the lines add up to 5001 AMD'] },
      },
      {
        name: 'a line whose value is not exact to 2 decimals',
        amount: 1,
        items: [line({ quantity: 0.001, unit_price: 1 }), line({ quantity: 0.999, unit_price: 1 })],
        errors: {
          'items.0': ['is worth unit_price × quantity = 0.001 AMD, which must be exact to 2 decimals'],
          'items.1': ['is worth unit_price × quantity = 0.999 AMD, which must be exact to 2 decimals'],
        },
      },
      {
        name: 'the second line wrong',
        items: [line({ unit_price: 4000 }), line({ quantity: -2, unit_price: 500 })],
        errors: { 'items.1.quantity': ['must be greater than 0'] },
      },
    ];

    it.each(cases)('refuses $name', async ({ amount, items, errors }) => {
      const m = await t.merchant();
      const res = await create(m.testKey, paymentBody({ amount: amount ?? 5000, items }));
      expect(expectValidation(res)).toEqual(errors);
      expect(await storedCount(m.merchantId)).toBe(0);
    });

    it('refuses lines on a payment priced in another currency', async () => {
      await setFxRate(t.gateway.deps, { currency: 'USD', rate: '400' });
      const m = await t.merchant();
      const res = await create(
        m.testKey,
        paymentBody({ amount: 10, currency: 'usd', items: [{ name: 'Book', unit_price: 4000 }] }),
      );
      expect(expectValidation(res)).toEqual({ items: ['are accepted only for payments in AMD'] });
      expect(await storedCount(m.merchantId)).toBe(0);
      // The same lines in AMD are fine, `currency` named or not.
      expect(
        (await create(m.testKey, paymentBody({ amount: 4000, currency: 'amd', items: [line({ unit_price: 4000 })] })))
          .status,
      ).toBe(201);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the same body with its lines, and refuses other lines with the same key', async () => {
      const m = await t.merchant();
      const body = paymentBody({ amount: 5000, items: LINES });
      const first = await create(m.testKey, body, { 'Idempotency-Key': 'items-key-1' });
      expect(first.status, first.text).toBe(201);

      const replay = await create(m.testKey, body, { 'Idempotency-Key': 'items-key-1' });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(replay.body.items).toEqual(LINES_ANSWERED);

      const otherLines = { ...body, items: [{ name: 'Something else', unit_price: 5000 }] };
      const reordered = { ...body, items: [LINES[2], LINES[0], LINES[1]] };
      const withoutLines = { ...body, items: undefined };
      for (const other of [otherLines, reordered, withoutLines]) {
        const res = await create(m.testKey, other, { 'Idempotency-Key': 'items-key-1' });
        expect(expectValidation(res)).toEqual({
          'Idempotency-Key': ['was already used with a different request body; use a new key for a new request'],
        });
      }
      expect(await storedCount(m.merchantId)).toBe(1);
    });
  });
});
