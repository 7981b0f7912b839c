/**
 * Ameriabank holds against the strict local vPOS (test/support/processors/fake-ameria.ts): a
 * terminal set up for two-stage payments (`two_stage: true`) takes manual payments only, and a
 * one-stage one automatic payments only. A held payment (OrderStatus "1") reads back authorized;
 * ConfirmPayment captures all or part of it, in drams, once; CancelPayment releases it within 72
 * hours of the payment; an unanswered confirm or cancel is unknown and the read-back
 * (GetPaymentDetails) says what became of the hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../gateway/domain/clock.js';
import type { Payment } from '../../../gateway/domain/payment.js';
import { ameriaProcessor } from '../../../gateway/processors/ameria/adapter.js';
import { type AmeriaConfig, ameriaConfigSchema } from '../../../gateway/processors/ameria/config.js';
import { AMERIA_HOLD_MS } from '../../../gateway/processors/ameria/holds.js';
import type { ProcessorHttp } from '../../../gateway/processors/http.js';
import type { HoldRequest, ProcessorCall, ProcessorSession } from '../../../gateway/processors/processor.js';
import { freePort } from '../../support/ports.js';
import { loopbackHttp, memorySequence, testCall, testPayment, testSession } from '../../support/processors/call.js';
import { FakeAmeria } from '../../support/processors/fake-ameria.js';

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the Ameria adapter has no ${what}`);
  return value;
}
const start = defined(ameriaProcessor.start, 'start');
const status = defined(ameriaProcessor.status, 'status');
const newOrderNumber = defined(ameriaProcessor.newOrderNumber, 'newOrderNumber');
const holds = defined(ameriaProcessor.holds, 'holds');

const OPERATION_ID = '01937a4e-5c1d-7abc-8def-0123456789ab';

let http: ProcessorHttp;
let twoStage: FakeAmeria;
let oneStage: FakeAmeria;
let bankNow = Date.UTC(2026, 10, 23, 10, 0, 0);
const sequence = memorySequence();

function configOf(fake: FakeAmeria): AmeriaConfig {
  return ameriaConfigSchema.parse(fake.settings());
}

function call(fake: FakeAmeria, config: AmeriaConfig = configOf(fake)): ProcessorCall<AmeriaConfig> {
  return testCall(config, http, { sequence });
}

/** A manual 10 AMD payment registered at `fake` and paid there. */
async function paid(
  fake: FakeAmeria,
  overrides: Partial<Payment> = {},
): Promise<{ payment: Payment; session: ProcessorSession; paymentId: string }> {
  const payment = testPayment({ amount: 10, captureMethod: 'manual', ...overrides });
  const base = testSession({
    processor: 'ameria',
    paymentId: payment.uuid,
    orderNumber: await newOrderNumber(call(fake), payment),
  });
  const answer = await start(call(fake), payment, base);
  if (answer.kind !== 'redirect' || answer.reference === null) throw new Error(JSON.stringify(answer));
  const order = fake.order(answer.reference);
  if (order === undefined) throw new Error('no order at the fake');
  fake.pay(order);
  return { payment, session: { ...base, reference: answer.reference }, paymentId: answer.reference };
}

function request(kind: HoldRequest['kind'], payment: Payment, session: ProcessorSession, amount = payment.amount) {
  const held: Payment = { ...payment, status: 'authorized', authorizedAmount: payment.amount };
  return { operationId: OPERATION_ID, kind, payment: held, session, amount } satisfies HoldRequest;
}

beforeAll(async () => {
  http = loopbackHttp();
  twoStage = await FakeAmeria.start({ twoStage: true, testAmountRule: false, now: () => bankNow });
  oneStage = await FakeAmeria.start({ testAmountRule: false, now: () => bankNow });
});

afterAll(async () => {
  http.close();
  await twoStage.close();
  await oneStage.close();
});

describe('settings: the terminal decides which payments it takes', () => {
  it('a two-stage terminal takes manual payments only; a one-stage one (the default) automatic ones only', () => {
    const captureMethods = defined(holds.captureMethods, 'captureMethods');
    expect(captureMethods(configOf(twoStage))).toEqual(['manual']);
    expect(captureMethods(configOf(oneStage))).toEqual(['automatic']);
    expect(configOf(oneStage).two_stage).toBeUndefined();
    expect(() => ameriaConfigSchema.parse({ ...twoStage.settings(), two_stage: 'yes' })).toThrow();
  });
});

describe('authorization (a two-stage terminal)', () => {
  it('reads a held payment back as authorized for 71 hours, with its card and rrn', async () => {
    const { payment, session, paymentId } = await paid(twoStage);
    const answer = await status(call(twoStage), payment, session);
    expect(answer).toEqual({
      kind: 'authorized',
      rrn: twoStage.order(paymentId)?.rrn,
      cardLast4: '1818',
      holdMs: AMERIA_HOLD_MS,
    });
    expect(AMERIA_HOLD_MS).toBe(71 * HOUR_MS);
  });

  it('reads a held payment of an automatic payment as pending, as before', async () => {
    const { payment, session } = await paid(twoStage);
    expect((await status(call(twoStage), { ...payment, captureMethod: 'automatic' }, session)).kind).toBe('pending');
  });
});

describe('capture (ConfirmPayment)', () => {
  it('confirms part of the hold in drams; the read-back finds it captured for that part', async () => {
    const { payment, session, paymentId } = await paid(twoStage);
    const done = await holds.capture(call(twoStage), request('capture', payment, session, 6));
    expect(done).toEqual({ kind: 'done', reference: `${paymentId}/${OPERATION_ID}` });
    const [sent, ...more] = twoStage.calls('ConfirmPayment');
    expect(more).toEqual([]);
    expect(sent?.json).toEqual({
      PaymentID: paymentId,
      Username: twoStage.username,
      Password: twoStage.password,
      Amount: 6,
    });
    expect(twoStage.order(paymentId)).toMatchObject({ status: '2', depositedAmount: 6, approvedAmount: 10 });
    expect(await holds.status(call(twoStage), request('capture', payment, session, 6))).toEqual({
      kind: 'captured',
      amount: 6,
      reference: `${paymentId}/${OPERATION_ID}`,
    });
    // A second confirmation is refused: nothing more is taken.
    expect(await holds.capture(call(twoStage), request('capture', payment, session, 4))).toEqual({
      kind: 'declined',
      code: '07',
    });
  });

  it('is declined for more than the hold, and by a one-stage terminal', async () => {
    const { payment, session } = await paid(twoStage);
    expect(await holds.capture(call(twoStage), request('capture', payment, session, 11))).toEqual({
      kind: 'declined',
      code: '0110',
    });
    const one = await paid(oneStage);
    expect(await holds.capture(call(oneStage), request('capture', one.payment, one.session))).toEqual({
      kind: 'declined',
      code: '0-2012',
    });
  });

  it('is unknown when the answer is lost after the bank confirmed; the read-back finds it captured', async () => {
    const { payment, session } = await paid(twoStage);
    twoStage.failNext('ConfirmPayment', { kind: 'dropAfter' });
    const before = twoStage.calls('ConfirmPayment').length;
    expect(await holds.capture(call(twoStage), request('capture', payment, session))).toEqual({ kind: 'unknown' });
    expect(twoStage.calls('ConfirmPayment')).toHaveLength(before + 1);
    const found = await holds.status(call(twoStage), request('capture', payment, session));
    expect(found).toMatchObject({ kind: 'captured', amount: 10 });
  });

  it('is unknown on a system error; the read-back finds the hold still held', async () => {
    const { payment, session } = await paid(twoStage);
    twoStage.failNext('ConfirmPayment', { kind: 'error200', code: '550' });
    expect(await holds.capture(call(twoStage), request('capture', payment, session))).toEqual({ kind: 'unknown' });
    expect(await holds.status(call(twoStage), request('capture', payment, session))).toEqual({ kind: 'held' });
  });

  it('is unavailable when the bank cannot be reached, or the bank never gave a PaymentID (nothing sent)', async () => {
    const { payment, session } = await paid(twoStage);
    const closed = { ...configOf(twoStage), base_url: `http://127.0.0.1:${await freePort()}/VPOS/` };
    expect(await holds.capture(call(twoStage, closed), request('capture', payment, session))).toEqual({
      kind: 'unavailable',
    });
    const before = twoStage.calls('ConfirmPayment').length;
    expect(await holds.capture(call(twoStage), request('capture', payment, { ...session, reference: null }))).toEqual({
      kind: 'unavailable',
    });
    expect(twoStage.calls('ConfirmPayment')).toHaveLength(before);
  });
});

describe('release (CancelPayment)', () => {
  it('cancels a held payment; the read-back finds it released, and it can no longer be captured', async () => {
    const { payment, session, paymentId } = await paid(twoStage);
    expect(await holds.release(call(twoStage), request('release', payment, session))).toEqual({
      kind: 'done',
      reference: `${paymentId}/${OPERATION_ID}`,
    });
    expect(twoStage.calls('CancelPayment').at(-1)?.json).toEqual({
      PaymentID: paymentId,
      Username: twoStage.username,
      Password: twoStage.password,
    });
    expect(await holds.status(call(twoStage), request('release', payment, session))).toEqual({ kind: 'released' });
    expect((await holds.capture(call(twoStage), request('capture', payment, session))).kind).toBe('declined');
  });

  it('is declined 72 hours after the payment ("07")', async () => {
    const { payment, session } = await paid(twoStage);
    bankNow += 72 * HOUR_MS + 1;
    try {
      expect(await holds.release(call(twoStage), request('release', payment, session))).toEqual({
        kind: 'declined',
        code: '07',
      });
    } finally {
      bankNow -= 72 * HOUR_MS + 1;
    }
  });

  it('takes "514" (no reversal permission) as declined, and a timeout as unknown', async () => {
    const { payment, session } = await paid(twoStage);
    twoStage.failNext('CancelPayment', {
      kind: 'error200',
      code: '514',
      message: 'Do not have Reverse operation permission',
    });
    expect(await holds.release(call(twoStage), request('release', payment, session))).toEqual({
      kind: 'declined',
      code: '514',
    });
    twoStage.failNext('CancelPayment', { kind: 'fault500' });
    expect(await holds.release(call(twoStage), request('release', payment, session))).toEqual({ kind: 'unknown' });
    expect(await holds.status(call(twoStage), request('release', payment, session))).toEqual({ kind: 'held' });
  });
});
