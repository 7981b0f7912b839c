/**
 * Auto top-up (spec "Billing": `PUT /api/v1/billing/auto-topup/{counter}`, "Auto top-up settings").
 *
 * A setting is armed while the balance is above `threshold_qty`. When a balance change (consumption,
 * or anything else that calls `afterBalanceChange`) leaves it at or below the threshold while the
 * setting is enabled and armed, it is disarmed (a conditional update: of racing changes only one
 * wins), a purchase of `refill_qty` is prepared (source `auto_topup`; card for a preset quantity,
 * else bank transfer) and the merchant is emailed its one-click payment link (or the transfer's
 * reference and amount). Further changes at or below the threshold send nothing; a change that lifts
 * the balance above the threshold (a credited purchase) re-arms it, so the next fall is a new
 * crossing. Saving the settings arms them only if the balance is above the threshold at that moment.
 * Unlimited accounts never trigger it.
 */
import { ensureBalances, findBalance } from '../../storage/billing.repository.js';
import type { BillingAutoTopupRow } from '../../storage/billing.table.js';
import {
  disarmAutoTopup,
  findAutoTopup,
  insertPurchase,
  rearmAutoTopup,
  saveAutoTopup,
} from '../../storage/billing-purchase.repository.js';
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { autoTopupBodySchema } from '../api/schemas/purchase.schema.js';
import { parseOr422 } from '../api/schemas/validation.js';
import type { Principal } from '../auth/principal.js';
import type { Language } from '../checkout/i18n/index.js';
import { COUNTERS, type Counter, isCounter } from '../domain/billing.js';
import { toApiInstant, toStoredInstant } from '../domain/clock.js';
import { ApiError, validationFailed } from '../domain/errors.js';
import { type Catalog, defineMessages } from '../i18n/messages.js';
import { queueMerchantEmail } from '../notifications/merchant-emails.js';
import type { Deps } from '../runtime/deps.js';
import { newPurchaseRow, purchasePayLink } from './house-account.js';

export const AUTO_TOPUP_EMAIL_KIND = 'auto_topup';

export interface AutoTopupResponse {
  counter: Counter;
  enabled: boolean;
  threshold_qty: number;
  refill_qty: number;
  payment_method_id: string | null;
  /** True while the balance is above the threshold: the next fall to it sends a top-up email. */
  armed: boolean;
  updated_at: string;
}

function toAutoTopupResponse(row: BillingAutoTopupRow): AutoTopupResponse {
  return {
    counter: row.counter,
    enabled: row.enabled === 1,
    threshold_qty: Number(row.threshold_qty),
    refill_qty: Number(row.refill_qty),
    payment_method_id: row.payment_method_id,
    armed: row.armed === 1,
    updated_at: toApiInstant(row.updated_at) as string,
  };
}

/** `PUT /api/v1/billing/auto-topup/{counter}`. */
export async function configureAutoTopup(
  deps: Deps,
  principal: Pick<Principal, 'merchantId'>,
  counter: string,
  input: unknown,
): Promise<AutoTopupResponse> {
  if (!isCounter(counter)) {
    throw new ApiError('not_found', `There is no counter "${counter}": use transactions or receipts.`);
  }
  const body = parseOr422(autoTopupBodySchema, input);
  const minimum = deps.config.billing.minPurchase;
  if (body.refill_qty < minimum) {
    throw validationFailed({ refill_qty: [`must be at least ${minimum} (the minimum purchase)`] });
  }
  const row = await deps.transact(async (trx) => {
    const now = toStoredInstant(deps.clock.nowMs());
    await ensureBalances(trx, principal.merchantId, deps.config.billing.signupGrant, now);
    const balance = await findBalance(trx, principal.merchantId, counter);
    return saveAutoTopup(trx, {
      merchantId: principal.merchantId,
      counter,
      enabled: body.enabled,
      thresholdQty: body.threshold_qty,
      refillQty: body.refill_qty,
      paymentMethodId: body.payment_method_id,
      armed: Number(balance?.available ?? 0) > body.threshold_qty,
      now,
    });
  });
  return toAutoTopupResponse(row);
}

/** The account's auto top-up settings of each counter (null: never set), `transactions` first. */
export async function readAutoTopups(
  deps: Deps,
  merchantId: string,
): Promise<Array<{ counter: Counter; setting: AutoTopupResponse | null }>> {
  return Promise.all(
    COUNTERS.map(async (counter) => {
      const row = await findAutoTopup(deps.db, merchantId, counter);
      return { counter, setting: row === undefined ? null : toAutoTopupResponse(row) };
    }),
  );
}

/** Called after every balance change, in its transaction (see the file comment). */
export async function afterBalanceChange(
  deps: Deps,
  trx: Executor,
  change: { merchantId: string; counter: Counter; balanceAfter: number },
): Promise<void> {
  const setting = await findAutoTopup(trx, change.merchantId, change.counter);
  if (setting === undefined) return;
  if (change.balanceAfter > Number(setting.threshold_qty)) {
    if (setting.armed === 0) await rearmAutoTopup(trx, change.merchantId, change.counter);
    return;
  }
  if (setting.enabled !== 1 || setting.armed !== 1) return;
  const merchant = await findMerchant(trx, change.merchantId);
  if (merchant === undefined || merchant.unlimited === 1) return;

  const purchase = await newPurchaseRow(deps, trx, {
    merchantId: change.merchantId,
    counter: change.counter,
    quantity: Number(setting.refill_qty),
    source: 'auto_topup',
    paymentMethodId: setting.payment_method_id,
  });
  if (!(await disarmAutoTopup(trx, change.merchantId, change.counter, purchase.id))) return;
  await insertPurchase(trx, purchase);

  const content = autoTopupEmail(
    {
      counter: change.counter,
      balance: change.balanceAfter,
      threshold: Number(setting.threshold_qty),
      quantity: Number(purchase.quantity),
      amountAmd: Number(purchase.amount_amd),
      payLink: purchase.method === 'card' ? purchasePayLink(deps.config.publicUrl, deps.secret, purchase.id) : null,
      reference: purchase.reference ?? null,
      purchaseId: purchase.id,
    },
    merchant.language,
  );
  await queueMerchantEmail(deps, trx, {
    merchantId: change.merchantId,
    domainId: null,
    kind: AUTO_TOPUP_EMAIL_KIND,
    recipient: merchant.email,
    ...content,
  });
  deps.logger.info(
    { merchant_id: change.merchantId, counter: change.counter, purchase_id: purchase.id },
    'auto top-up: purchase prepared and merchant emailed',
  );
}

export interface AutoTopupEmailInput {
  counter: Counter;
  balance: number;
  threshold: number;
  quantity: number;
  amountAmd: number;
  /** The one-click link of a card purchase; null for a bank transfer. */
  payLink: string | null;
  reference: string | null;
  purchaseId: string;
}

/** The texts of the auto top-up email (ICU messages: each line whole, numbers by plural rules, amounts from the formatter). */
export interface AutoTopupMessages {
  readonly hello: string;
  readonly subject: (counter: Counter, quantity: number) => string;
  readonly intro: (counter: Counter, balance: number, threshold: number) => string;
  readonly purchase: (id: string) => string;
  readonly units: (quantity: number, counter: Counter) => string;
  readonly price: (amount: number) => string;
  readonly byCard: string;
  /** The bank transfer is paid with a transfer code (a reference), never a link. */
  readonly byTransfer: string;
  readonly reference: (code: string) => string;
  readonly amount: (amount: number) => string;
  readonly credited: string;
  readonly once: string;
  readonly signature: string;
}

const en: Catalog<AutoTopupMessages> = {
  hello: 'Hello,',
  subject:
    'Top up your {counter, select, transactions {transactions} other {receipts}}: {quantity, plural, one {# unit ready to pay} other {# units ready to pay}}',
  intro:
    'Your {counter, select, transactions {transactions} other {receipts}} balance is down to {balance, plural, one {# unit} other {# units}}, at or below the auto top-up threshold of {threshold, number} you set. We prepared a purchase for you:',
  purchase: 'Purchase:   {id}',
  units: 'Units:      {quantity, number} {counter, select, transactions {transactions} other {receipts}}',
  price: 'Price:      {amount, number, amd}',
  byCard: 'Pay by card with one click (the link stays valid until the purchase is paid):',
  byTransfer: 'Pay by bank transfer, quoting this reference in the transfer details:',
  reference: 'Reference:  {code}',
  amount: 'Amount:     {amount, number, amd}',
  credited: 'The units are credited as soon as the transfer arrives.',
  once: 'We send this once each time the balance falls to the threshold; the next email comes after a purchase lifts the balance above it again.',
  signature: 'Payment Gateway',
};

const hy: Catalog<AutoTopupMessages> = {
  hello: 'Բարև Ձեզ,',
  subject:
    'Համալրեք {counter, select, transactions {գործարքների} other {կտրոնների}} մնացորդը. {quantity, number} միավոր պատրաստ է վճարման',
  intro:
    'Ձեր {counter, select, transactions {գործարքների} other {կտրոնների}} մնացորդը նվազել է մինչև {balance, number} միավոր՝ հասնելով ավտոմատ համալրման Ձեր սահմանած շեմին ({threshold, number}) կամ իջնելով դրանից։ Մենք Ձեզ համար պատրաստել ենք գնում․',
  purchase: 'Գնում՝          {id}',
  units: 'Միավորներ՝      {quantity, number} ({counter, select, transactions {գործարքներ} other {կտրոններ}})',
  price: 'Գին՝            {amount, number, amd}',
  byCard: 'Վճարեք քարտով մեկ սեղմումով (հղումը գործում է, մինչև գնումը վճարվի)․',
  byTransfer: 'Վճարեք բանկային փոխանցումով՝ «Վճարման նպատակ» դաշտում նշելով միայն այս փոխանցման կոդը․',
  reference: 'Փոխանցման կոդ՝  {code}',
  amount: 'Գումար՝         {amount, number, amd}',
  credited: 'Միավորները կհաշվեգրվեն փոխանցումը ստանալուն պես։',
  once: 'Այս նամակն ուղարկում ենք ամեն անգամ, երբ մնացորդը նվազում է մինչև շեմը․ հաջորդ նամակը կստանաք, երբ գնումից հետո մնացորդը կրկին գերազանցի շեմը։',
  signature: 'Վճարային դարպաս',
};

const ru: Catalog<AutoTopupMessages> = {
  hello: 'Здравствуйте!',
  subject:
    'Пополните баланс {counter, select, transactions {транзакций} other {чеков}}: {quantity, plural, one {# единица готова к оплате} few {# единицы готовы к оплате} many {# единиц готовы к оплате} other {# единицы готовы к оплате}}',
  intro:
    'Баланс {counter, select, transactions {транзакций} other {чеков}} снизился до {balance, plural, one {# единицы} few {# единиц} many {# единиц} other {# единицы}} — до заданного вами порога автопополнения ({threshold, number}) или ниже. Мы подготовили покупку:',
  purchase: 'Покупка:    {id}',
  units: 'Единиц:     {quantity, number} ({counter, select, transactions {транзакции} other {чеки}})',
  price: 'Цена:       {amount, number, amd}',
  byCard: 'Оплатите картой в один клик (ссылка действует, пока покупка не оплачена):',
  byTransfer: 'Оплатите банковским переводом, указав в поле «Назначение платежа» только этот код перевода:',
  reference: 'Код:        {code}',
  amount: 'Сумма:      {amount, number, amd}',
  credited: 'Единицы будут зачислены, как только поступит перевод.',
  once: 'Мы отправляем это письмо каждый раз, когда баланс опускается до порога; следующее придёт после того, как покупка снова поднимет баланс выше него.',
  signature: 'Платёжный шлюз',
};

export const AUTO_TOPUP_MESSAGES = defineMessages<AutoTopupMessages>(
  'mail.auto-topup',
  { en, hy, ru },
  {
    subject: ['counter', 'quantity'],
    intro: ['counter', 'balance', 'threshold'],
    purchase: ['id'],
    units: ['quantity', 'counter'],
    price: ['amount'],
    reference: ['code'],
    amount: ['amount'],
  },
);

/** Subject and plain-text body of the auto top-up email, in the account's language. */
export function autoTopupEmail(
  input: AutoTopupEmailInput,
  language: Language = 'en',
): { subject: string; text: string } {
  const m = AUTO_TOPUP_MESSAGES[language];
  const how =
    input.payLink !== null
      ? [m.byCard, `  ${input.payLink}`]
      : [m.byTransfer, `  ${m.reference(input.reference ?? '')}`, `  ${m.amount(input.amountAmd)}`, m.credited];
  const text = [
    m.hello,
    '',
    m.intro(input.counter, input.balance, input.threshold),
    '',
    `  ${m.purchase(input.purchaseId)}`,
    `  ${m.units(input.quantity, input.counter)}`,
    `  ${m.price(input.amountAmd)}`,
    '',
    ...how,
    '',
    m.once,
    '',
    '--',
    m.signature,
    '',
  ].join('\n');
  return { subject: m.subject(input.counter, input.quantity), text };
}
