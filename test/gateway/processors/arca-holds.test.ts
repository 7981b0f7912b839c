/**
 * ArCa holds against the strict local ArCa host (test/support/processors/fake-arca.ts): a manual
 * payment is registered with `registerPreAuth.do` and reads back authorized once paid (held,
 * `orderStatus` 1); `deposit.do` captures all or part of it, in minor units, once; `reverse.do`
 * releases it on the day it was paid, and is refused after; an unanswered deposit or reversal is
 * unknown and the read-back says what became of the hold. Automatic payments still use
 * `register.do`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../gateway/domain/clock.js';
import type { Payment } from '../../../gateway/domain/payment.js';
import { arcaProcessor } from '../../../gateway/processors/arca/adapter.js';
import type { ArcaConfig } from '../../../gateway/processors/arca/config.js';
import { ARCA_HOLD_MS } from '../../../gateway/processors/arca/holds.js';
import type { ProcessorHttp } from '../../../gateway/processors/http.js';
import type { HoldRequest, ProcessorCall, ProcessorSession } from '../../../gateway/processors/processor.js';
import { freePort } from '../../support/ports.js';
import { loopbackHttp, testCall, testPayment, testSession } from '../../support/processors/call.js';
import { type FakeArca, startFakeArca } from '../../support/processors/fake-arca.js';

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ArCa adapter has no ${what}`);
  return value;
}
const start = defined(arcaProcessor.start, 'start');
const status = defined(arcaProcessor.status, 'status');
const holds = defined(arcaProcessor.holds, 'holds');

const OPERATION_ID = '01937a4e-5c1d-7abc-8def-0123456789ab';

let client: ProcessorHttp;
let fake: FakeArca;
let bankNow = Date.UTC(2026, 10, 23, 10, 0, 0);

function call(config: Partial<ArcaConfig> = {}): ProcessorCall<ArcaConfig> {
  return testCall(
    { base_url: fake.baseUrl, username: fake.username, password: fake.password, bank: 'ACBA', ...config },
    client,
  );
}

/** A manual payment of `amount` AMD registered at the fake and paid there: the hold. */
async function held(amount = 1500): Promise<{ payment: Payment; session: ProcessorSession; orderId: string }> {
  const payment = testPayment({ amount, captureMethod: 'manual' });
  const base = testSession({
    processor: 'arca',
    paymentId: payment.uuid,
    orderNumber: `${payment.uuid.replaceAll('-', '').slice(0, 24)}${Math.random().toString(36).slice(2, 10)}`,
  });
  const answer = await start(call(), payment, base);
  if (answer.kind !== 'redirect' || answer.reference === null) throw new Error(JSON.stringify(answer));
  const session = { ...base, reference: answer.reference };
  await fake.pay(answer.reference);
  return { payment, session, orderId: answer.reference };
}

/** The payment as the core holds it once authorized. */
function authorized(payment: Payment): Payment {
  return { ...payment, status: 'authorized', authorizedAmount: payment.amount };
}

function request(
  kind: HoldRequest['kind'],
  payment: Payment,
  session: ProcessorSession,
  amount = payment.amount,
): HoldRequest {
  return { operationId: OPERATION_ID, kind, payment: authorized(payment), session, amount };
}

beforeAll(() => {
  client = loopbackHttp();
});
afterAll(() => client.close());
beforeEach(async () => {
  bankNow = Date.UTC(2026, 10, 23, 10, 0, 0);
  fake = await startFakeArca({ now: () => bankNow });
});
afterEach(async () => fake.close());

describe('authorization (registerPreAuth.do)', () => {
  it('registers a manual payment as a two-phase order with the same parameters as register.do', async () => {
    const { orderId } = await held(2500);
    const [sent, ...more] = fake.requestsOf('registerPreAuth');
    expect(more).toEqual([]);
    expect(fake.requestsOf('register')).toEqual([]);
    expect(Object.keys(sent?.params ?? {}).sort()).toEqual(
      [
        'amount',
        'currency',
        'description',
        'failUrl',
        'language',
        'orderNumber',
        'password',
        'returnUrl',
        'sessionTimeoutSecs',
        'userName',
      ].sort(),
    );
    expect(sent?.params.amount).toBe('250000');
    expect(fake.order(orderId)).toMatchObject({ twoPhase: true, status: 1 });
  });

  it('reads a held order back as authorized for the hold window, never as paid', async () => {
    const { payment, session, orderId } = await held();
    const answer = await status(call(), payment, session);
    expect(answer).toEqual({
      kind: 'authorized',
      rrn: fake.order(orderId).authRefNum,
      cardLast4: '1111',
      holdMs: ARCA_HOLD_MS,
      processor: 'arca',
    });
    expect(ARCA_HOLD_MS).toBe(7 * DAY_MS);
  });

  it('keeps an automatic payment on register.do, and reads a held order of an automatic payment as pending', async () => {
    const payment = testPayment({ amount: 1500 });
    const base = testSession({ processor: 'arca', paymentId: payment.uuid, orderNumber: 'auto0001' });
    const answer = await start(call(), payment, base);
    expect(answer.kind).toBe('redirect');
    expect(fake.requestsOf('register')).toHaveLength(1);
    expect(fake.requestsOf('registerPreAuth')).toEqual([]);
    // A held order is no money taken for an automatic payment: it stays pending, as before.
    const hold = await held();
    const read = await status(call(), { ...hold.payment, captureMethod: 'automatic' }, hold.session);
    expect(read).toMatchObject({ kind: 'pending' });
  });
});

describe('capture (deposit.do)', () => {
  it('captures part of the hold, in minor units, by orderId; the order then reads deposited for that part', async () => {
    const { payment, session, orderId } = await held(1500);
    const done = await holds.capture(call(), request('capture', payment, session, 600));
    expect(done).toEqual({ kind: 'done', reference: orderId });
    const [sent, ...more] = fake.requestsOf('deposit');
    expect(more).toEqual([]);
    expect(sent?.params).toEqual({ userName: fake.username, password: fake.password, orderId, amount: '60000' });
    expect(sent?.query).toBe('');
    expect(fake.order(orderId)).toMatchObject({ status: 2, deposited: 60000 });
    const found = await holds.status(call(), request('capture', payment, session, 600));
    expect(found).toEqual({ kind: 'captured', amount: 600, reference: orderId });
  });

  it('is declined for more than the hold, and for a second capture; nothing more is taken', async () => {
    const { payment, session, orderId } = await held(1500);
    expect(await holds.capture(call(), request('capture', payment, session, 1501))).toEqual({
      kind: 'declined',
      code: 'arca_error_5',
    });
    expect(fake.order(orderId).status).toBe(1);
    expect((await holds.capture(call(), request('capture', payment, session))).kind).toBe('done');
    expect(await holds.capture(call(), request('capture', payment, session))).toEqual({
      kind: 'declined',
      code: 'arca_error_7',
    });
    expect(fake.order(orderId).deposited).toBe(150000);
  });

  it('refunds after a partial capture only up to what was captured', async () => {
    const { payment, session, orderId } = await held(1500);
    await holds.capture(call(), request('capture', payment, session, 1000));
    const refund = defined(arcaProcessor.refund, 'refund');
    const captured = { ...authorized(payment), status: 'completed' as const, amount: 1000 };
    const over = await refund(call(), {
      refundId: OPERATION_ID,
      payment: captured,
      session,
      amount: 1001,
      reason: null,
    });
    expect(over).toEqual({ kind: 'declined', code: 'arca_error_7' });
    const ok = await refund(call(), { refundId: OPERATION_ID, payment: captured, session, amount: 400, reason: null });
    expect(ok).toEqual({ kind: 'refunded', reference: orderId });
    expect(fake.refundedAmount(fake.order(orderId))).toBe(40000);
  });

  it('is unknown when the answer is lost after the bank deposited; the read-back finds it captured', async () => {
    const { payment, session, orderId } = await held(1500);
    fake.failNext({ kind: 'drop' }, 'deposit');
    expect(await holds.capture(call(), request('capture', payment, session, 900))).toEqual({ kind: 'unknown' });
    expect(fake.requestsOf('deposit')).toHaveLength(1);
    expect(await holds.status(call(), request('capture', payment, session, 900))).toEqual({
      kind: 'captured',
      amount: 900,
      reference: orderId,
    });
  });

  it('is unknown on an HTTP 500 that did not take effect; the read-back finds the hold still held', async () => {
    const { payment, session } = await held(1500);
    fake.failNext({ kind: 'http500' }, 'deposit');
    expect(await holds.capture(call(), request('capture', payment, session))).toEqual({ kind: 'unknown' });
    expect(await holds.status(call(), request('capture', payment, session))).toEqual({ kind: 'held' });
  });

  it('is unavailable when the bank cannot be reached (nothing was sent), declined without an orderId', async () => {
    const { payment, session } = await held(1500);
    const closed = `http://127.0.0.1:${await freePort()}/payment/rest/`;
    expect(await holds.capture(call({ base_url: closed }), request('capture', payment, session))).toEqual({
      kind: 'unavailable',
    });
    expect(await holds.capture(call(), request('capture', payment, { ...session, reference: null }))).toEqual({
      kind: 'declined',
      code: 'arca_no_order_id',
    });
    expect(fake.requestsOf('deposit')).toEqual([]);
  });
});

describe('release (reverse.do)', () => {
  it('reverses a held order on the day it was paid; the read-back finds it released', async () => {
    const { payment, session, orderId } = await held();
    expect(await holds.release(call(), request('release', payment, session))).toEqual({
      kind: 'done',
      reference: orderId,
    });
    const [sent] = fake.requestsOf('reverse');
    expect(sent?.params).toEqual({ userName: fake.username, password: fake.password, orderId });
    expect(fake.order(orderId).status).toBe(3);
    expect(await holds.status(call(), request('release', payment, session))).toEqual({ kind: 'released' });
    expect((await holds.capture(call(), request('capture', payment, session))).kind).toBe('declined');
  });

  it('is declined after the bank day of the payment, and again after that: the hold lapses at the issuer', async () => {
    const { payment, session, orderId } = await held();
    bankNow += DAY_MS;
    expect(await holds.release(call(), request('release', payment, session))).toEqual({
      kind: 'declined',
      code: 'arca_error_7',
    });
    bankNow -= DAY_MS;
    expect((await holds.release(call(), request('release', payment, session))).kind).toBe('declined');
    expect(fake.order(orderId).status).toBe(1);
    expect(await holds.status(call(), request('release', payment, session))).toEqual({ kind: 'held' });
  });

  it('reads nothing from an answer about another order or amount', async () => {
    const { payment, session } = await held(1500);
    const other = await holds.status(call(), request('capture', { ...payment, amount: 1400 }, session));
    expect(other.kind).toBe('unavailable');
  });
});
