/**
 * What `bin/gateway trigger <event>` does: makes a real sandbox event of an account, through the
 * code paths an integration drives: a sandbox payment created as `POST /api/v1/payments` creates
 * it, paid as the test card helper pays it, refunded as `POST /api/v1/payments/{uuid}/refund`
 * refunds it. Its events are written, and delivered, like any other (to the payment's domain's
 * webhook URL when it has one), and `bin/gateway listen` forwards them.
 */
import { listPaymentEvents } from '../../storage/outbox-event.repository.js';
import { findPayment } from '../../storage/payment.repository.js';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import type { PaymentResponse } from '../domain/payment.js';
import { OperatorError } from '../merchants/operator.js';
import { createRefund } from '../refunds/refund.service.js';
import type { Deps } from '../runtime/deps.js';
import { createPayment } from './payment.service.js';
import { scopeOf } from './payment-scope.js';
import { payWithTestCard } from './test-card.service.js';

/** What each event name makes: the card that pays the payment, and whether it is then refunded. */
const SCENARIOS = {
  'payment.completed': { card: '4111 1111 1111 1111', refund: false },
  'payment.failed': { card: '4000 0000 0000 0002', refund: false },
  'payment.refunded': { card: '4111 1111 1111 1111', refund: true },
  'transaction.status.updated': { card: '4111 1111 1111 1111', refund: false },
} as const;

export type TriggerEvent = keyof typeof SCENARIOS;
export const TRIGGER_EVENTS = Object.keys(SCENARIOS) as TriggerEvent[];

/** The amount of a triggered payment, AMD. */
export const TRIGGER_AMOUNT = 5000;

export interface TriggerResult {
  readonly triggered: TriggerEvent;
  readonly merchant_id: string;
  readonly payment_uuid: string;
  readonly order_id: string;
  readonly domain: string;
  /** The payment's status at the end. */
  readonly status: string;
  /** The events written, oldest first. */
  readonly events: ReadonlyArray<{ readonly event_id: string; readonly event: string }>;
}

/**
 * Makes the event: a sandbox payment of `TRIGGER_AMOUNT` AMD on `domain` (a verified domain of the
 * account; by default its hosted domain), paid, and refunded for `payment.refunded`.
 */
export async function triggerEvent(
  deps: Deps,
  input: { principal: ApiKeyPrincipal; event: TriggerEvent; domain: string | null },
): Promise<TriggerResult> {
  const { principal, event } = input;
  const scenario = SCENARIOS[event];
  const created = await createPayment(deps, {
    principal,
    body: {
      amount: TRIGGER_AMOUNT,
      order_id: `trigger-${deps.ids.token(9)}`,
      return_url: `${deps.config.publicUrl}/`,
      processor: 'sandbox',
      description: `bin/gateway trigger ${event}`,
      ...(input.domain === null ? {} : { domain: input.domain }),
    },
    origin: undefined,
    idempotencyKey: undefined,
  });
  const uuid = (created.body as PaymentResponse).uuid;
  const payment = await findPayment(deps.db, scopeOf(principal), uuid);
  if (payment === undefined) throw new OperatorError(`the payment ${uuid} just created cannot be read back`);
  const paid = await payWithTestCard(deps, payment, scenario.card);
  if (!paid.ok) throw new OperatorError(`the test card was refused: ${paid.reason}`);
  let status: string = paid.payment.status;
  if (scenario.refund) {
    const refunded = await createRefund(deps, {
      principal,
      paymentUuid: uuid,
      body: { reason: `bin/gateway trigger ${event}` },
      idempotencyKey: undefined,
    });
    status = refunded.body.payment_status;
  }
  deps.dueSignal.notify();
  const events = await listPaymentEvents(deps.db, uuid);
  const domain = await deps.db
    .selectFrom('domains')
    .select('host')
    .where('id', '=', payment.domainId)
    .executeTakeFirstOrThrow();
  return {
    triggered: event,
    merchant_id: principal.merchantId,
    payment_uuid: uuid,
    order_id: payment.orderId,
    domain: domain.host,
    status,
    events: events.map((row) => ({ event_id: row.id, event: row.event })),
  };
}
