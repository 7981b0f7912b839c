/**
 * Creating payments (spec "Payments"; reading them is ./payment-reads.service.ts). Creation resolves
 * the request's domain, checks what the domain may take, and writes the payment and its
 * idempotency record in one transaction.
 *
 * Order of the checks at creation (docs/decisions.md, "Payment limits"): the body (with the
 * currency's exchange rate) → the service-wide largest amount → the domain → the domain's payment
 * methods → the capture method (docs/decisions.md "Holds") → the domain's largest amount → the
 * balance → (in the writing transaction) the velocity limit → the order rule.
 */
import {
  type DomainWithProcessors,
  listMerchantDomainsWithProcessors,
  rowToDomainLimits,
} from '../../storage/domain.repository.js';
import { isUniqueViolation, violatedConstraint } from '../../storage/errors.js';
import { insertPayment, rowToPayment } from '../../storage/payment.repository.js';
import type { PaymentRow } from '../../storage/payment.table.js';
import { type CreatePaymentBody, createPaymentSchema } from '../api/schemas/payment.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import { assertBalanceAllowsPayment } from '../billing/billing.service.js';
import {
  type DomainSignals,
  type MerchantDomain,
  resolveBoundDomain,
  resolveLiveDomain,
  resolveTestDomain,
} from '../domain/domain-resolution.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { BASE_CURRENCY, CURRENCY_CODE, convertToAmd } from '../domain/fx.js';
import { toPaymentResponse } from '../domain/payment.js';
import { buyerKey, type DomainLimitSettings, effectiveLimits } from '../domain/payment-limits.js';
import { domainProcessors } from '../processors/registry.js';
import type { Deps } from '../runtime/deps.js';
import { assertCaptureMethodTaken } from './capture-methods.js';
import { currenciesWithRate, rateInForce } from './fx-rates.service.js';
import { runIdempotent, type StoredResponse } from './idempotency.js';
import { newPaymentRow } from './new-payment-row.js';
import { idempotencyScopeOf } from './payment-scope.js';
import { assertVelocityAllows, type VelocityCheck } from './velocity.js';

interface DomainChoice extends MerchantDomain {
  readonly processors: readonly string[];
  readonly limits: DomainLimitSettings;
}

function toDomainChoice(row: DomainWithProcessors): DomainChoice {
  return {
    id: row.id,
    host: row.host,
    verified: row.verified === 1,
    hosted: row.hosted === 1,
    processors: domainProcessors(row.processors, row.hosted === 1),
    limits: rowToDomainLimits(row),
  };
}

export interface CreatePaymentRequest {
  readonly principal: Principal;
  /** The JSON body as sent; validated inside the idempotent section, so a replay never re-validates. */
  readonly body: unknown;
  readonly origin: string | undefined;
  readonly idempotencyKey: string | undefined;
}

export async function createPayment(
  deps: Deps,
  request: CreatePaymentRequest,
): Promise<StoredResponse & { replayed: boolean }> {
  const { principal } = request;
  return runIdempotent(
    deps,
    idempotencyScopeOf(principal, 'payments.create'),
    request.idempotencyKey,
    request.body,
    async (complete) => {
      const { body, rate } = await parseCreatePaymentBody(deps, request.body);
      const { row, velocity } = await preparePayment(deps, principal, body, rate, request.origin);
      // A new payment has reached no processor: it waits for no processor's reference.
      const response = toPaymentResponse(rowToPayment(row), deps.config.publicUrl, false);
      try {
        await deps.transact(
          async (trx) => {
            if (velocity !== null) await assertVelocityAllows(deps, trx, velocity, Date.parse(row.created_at));
            await insertPayment(trx, row);
            await complete(trx, { status: 201, body: response });
          },
          // Without a velocity limit or a key to complete, the insert is the whole write.
          { oneStatement: velocity === null && request.idempotencyKey === undefined },
        );
      } catch (error) {
        if (isUniqueViolation(error) && (violatedConstraint(error) ?? '').includes('active_order')) {
          throw validationFailed(
            {
              order_id: [
                'already has a pending, processing or completed payment; read it with GET /api/v1/orders/{order_id}/payment',
              ],
            },
            `Order ${row.order_id} already has a payment in progress or paid.`,
          );
        }
        throw error;
      }
      deps.metrics.payment('created', row);
      return { status: 201, body: response };
    },
  );
}

/**
 * The body checked against the currencies accepted now: AMD, and a currency with an exchange rate in
 * force. `rate` is that currency's rate (read once: it is the one the payment locks), null for AMD.
 * Rates are read only when the body names a currency other than AMD.
 */
async function parseCreatePaymentBody(
  deps: Deps,
  raw: unknown,
): Promise<{ body: CreatePaymentBody; rate: string | null }> {
  const named =
    typeof raw === 'object' && raw !== null && 'currency' in raw && typeof raw.currency === 'string'
      ? raw.currency.toUpperCase()
      : BASE_CURRENCY;
  const checks = { allowPrivateCallback: deps.config.allowPrivateWebhooks };
  if (named === BASE_CURRENCY) return { body: parseOr422(createPaymentSchema(undefined, checks), raw), rate: null };
  const rate = CURRENCY_CODE.test(named) ? await rateInForce(deps.db, named) : null;
  if (rate !== null) {
    const accepted = { accepted: [BASE_CURRENCY, named], unit: named };
    return { body: parseOr422(createPaymentSchema(accepted, checks), raw), rate };
  }
  // Refused: list what is accepted (never the named currency, even if a rate was set meanwhile).
  const others = (await currenciesWithRate(deps.db)).filter((code) => code !== named);
  return {
    body: parseOr422(createPaymentSchema({ accepted: [BASE_CURRENCY, ...others], unit: BASE_CURRENCY }, checks), raw),
    rate: null,
  };
}

function amountLimitExceeded(
  amd: number,
  maxAmount: number,
  price: { amount: number; currency: string; rate: string } | null,
  host: string | null,
): ApiError {
  const amount =
    price === null
      ? 'The amount'
      : `The amount, ${price.amount} ${price.currency} at the rate ${price.rate} = ${amd} AMD,`;
  const where = host === null ? '' : ` on ${host}`;
  return new ApiError(
    'amount_limit_exceeded',
    `${amount} is above the largest amount one payment may carry${where} (${maxAmount} AMD).`,
    { details: { max_amount: maxAmount } },
  );
}

interface PreparedPayment {
  readonly row: PaymentRow;
  /** The velocity limit to check in the writing transaction; null when none applies. */
  readonly velocity: VelocityCheck | null;
}

async function preparePayment(
  deps: Deps,
  principal: Principal,
  body: CreatePaymentBody,
  rate: string | null,
  origin: string | undefined,
): Promise<PreparedPayment> {
  const price = rate === null ? null : { amount: body.amount, currency: body.currency ?? BASE_CURRENCY, rate };
  let amd = body.amount;
  if (price !== null) {
    const converted = convertToAmd(price.amount, price.rate);
    if (converted < 1n) {
      throw validationFailed({
        amount: [`is less than 1 AMD at the rate ${price.rate} AMD per ${price.currency}`],
      });
    }
    if (converted > BigInt(deps.config.maxPaymentAmount)) {
      throw amountLimitExceeded(Number(converted), deps.config.maxPaymentAmount, price, null);
    }
    amd = Number(converted);
  }
  if (amd > deps.config.maxPaymentAmount) {
    throw amountLimitExceeded(amd, deps.config.maxPaymentAmount, price, null);
  }
  const rows =
    (await deps.accountCache.domains.getOrLoad(principal.merchantId, () =>
      listMerchantDomainsWithProcessors(deps.db, principal.merchantId),
    )) ?? [];
  const domains = rows.map(toDomainChoice);
  const signals: DomainSignals = {
    origin,
    domainField: body.domain,
    returnUrl: body.return_url,
    docsOrigin: new URL(deps.config.publicUrl).origin,
  };
  const live = principal.environment === 'live';
  let domain: DomainChoice;
  if (principal.kind === 'connect_token') {
    // The connector receives webhooks on its own host: a token's callback_url may be anywhere.
    domain = resolveBoundDomain({
      boundDomainId: principal.domain.id,
      domainField: body.domain,
      urls: live ? { return_url: body.return_url, cancel_url: body.cancel_url } : {},
      domains,
    });
  } else if (live) {
    domain = resolveLiveDomain({
      signals,
      urls: { return_url: body.return_url, cancel_url: body.cancel_url, callback_url: body.callback_url },
      domains,
    });
  } else {
    domain = resolveTestDomain(signals, domains);
  }

  const enabled = domain.processors;
  if (live && principal.kind === 'connect_token' && body.processor === 'sandbox') {
    // A store's connection is live or test for good: its sandbox payments go through a test token.
    throw validationFailed({
      processor: ['cannot be sandbox with a live connect token: a test connect token makes sandbox payments'],
    });
  }
  if (live) {
    if (body.processor !== undefined && !enabled.includes(body.processor)) {
      throw new ApiError(
        'no_payment_method_configured',
        `The processor ${body.processor} is not enabled for ${domain.host}.`,
        { details: { domain: domain.host, enabled_processors: enabled } },
      );
    }
    if (enabled.length === 0) {
      throw new ApiError('no_payment_method_configured', `No processor is enabled for ${domain.host}.`, {
        details: { domain: domain.host, enabled_processors: enabled },
      });
    }
    // A live payment is paid at a live processor only: the sandbox never pays it (docs/decisions.md
    // "Live and test payments"). With the sandbox alone, a live key makes test payments when asked.
    if (body.processor !== 'sandbox' && !enabled.some((slug) => slug !== 'sandbox')) {
      throw new ApiError(
        'no_payment_method_configured',
        `No live processor is enabled for ${domain.host}: the sandbox there only takes payments created with "processor": "sandbox" (test payments).`,
        { details: { domain: domain.host, enabled_processors: enabled } },
      );
    }
  }

  const sandbox = !live || body.processor === 'sandbox';
  const captureMethod = body.capture_method ?? 'automatic';
  await assertCaptureMethodTaken(deps, {
    captureMethod,
    named: body.processor,
    offered: sandbox ? ['sandbox'] : enabled.filter((slug) => slug !== 'sandbox'),
    domainId: domain.id,
    host: domain.host,
    live: !sandbox,
  });
  const limits = effectiveLimits(domain.limits, deps.config, { sandbox });
  if (amd > limits.maxAmount) throw amountLimitExceeded(amd, limits.maxAmount, price, domain.host);

  // 402 BALANCE_EXHAUSTED: only for a live payment that would consume a unit; never for test payments.
  await assertBalanceAllowsPayment(deps, principal.merchantId, { sandbox, amount: amd });

  const buyer = buyerKey({ customerId: body.customer_id ?? null, customerEmail: body.customer_email ?? null });
  const row = newPaymentRow(
    deps,
    {
      merchant_id: principal.merchantId,
      key_environment: principal.environment,
      sandbox: sandbox ? 1 : 0,
      domain_id: domain.id,
      order_id: body.order_id,
      active_order_id: body.order_id,
      amount: amd,
      currency: BASE_CURRENCY,
      processor: body.processor ?? null,
      redirect_mode: body.redirect_mode ?? 'hosted',
      customer_id: body.customer_id ?? null,
      customer_email: body.customer_email ?? null,
      customer_name: body.customer_name ?? null,
      description: body.description ?? null,
      return_url: body.return_url,
      cancel_url: body.cancel_url ?? null,
      callback_url: body.callback_url ?? null,
    },
    { buyerKey: buyer, conversion: price, items: body.items ?? null, captureMethod },
  );
  const velocity: VelocityCheck | null =
    buyer === null || limits.velocityLimit === 0
      ? null
      : {
          domainId: domain.id,
          sandbox: row.sandbox,
          buyerKey: buyer,
          host: domain.host,
          identifiedBy: body.customer_id === undefined ? 'customer_email' : 'customer_id',
          limit: limits.velocityLimit,
          windowMinutes: limits.velocityWindowMinutes,
        };
  return { row, velocity };
}
