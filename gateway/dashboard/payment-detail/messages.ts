/**
 * The texts of a payment's page (its fields, items, receipts, timeline, and the settling of a
 * payment its processor never reported), in the dashboard's three languages (picked with
 * `shell.lang`), with the texts of its webhook events (./events.messages.ts) and of its refunds
 * (./refund.messages.ts) in `PAYMENT_DETAIL_MESSAGES`. Not escaped here: the pages escape
 * everything they print.
 */

import { LANGUAGES, type Language } from '../../i18n/languages.js';
import { type Catalog, defineMessages } from '../../i18n/messages.js';
import { EVENT_MESSAGES, type EventMessages } from './events.messages.js';
import { REFUND_MESSAGES, type RefundMessages } from './refund.messages.js';

export interface DetailMessages {
  readonly title: (orderId: string) => string;
  readonly backToPayments: string;
  readonly detailsTitle: string;
  readonly fields: {
    readonly uuid: string;
    readonly order_id: string;
    readonly amount: string;
    readonly refunded_amount: string;
    readonly charge: string;
    readonly customer_id: string;
    readonly status: string;
    readonly checkout_url: string;
    readonly processor: string;
    readonly created_at: string;
    readonly completed_at: string;
    readonly refunded_at: string;
    readonly payment_flow: string;
    readonly qr_code: string;
    readonly rrn: string;
    readonly redirect_url: string;
    readonly description: string;
    readonly livemode: string;
    readonly failure_code: string;
    readonly capture_method: string;
    readonly authorized_amount: string;
    readonly capture_before: string;
  };
  readonly captureMethods: { readonly automatic: string; readonly manual: string };
  readonly none: string;
  readonly live: string;
  readonly test: string;
  /** `amount` in whole drams; `rate` as the reader's language writes numbers. */
  readonly chargeText: (amount: number, rate: string) => string;
  readonly statuses: Readonly<Record<string, string>>;

  readonly itemsTitle: string;
  readonly itemName: string;
  readonly itemQuantity: string;
  readonly itemUnitPrice: string;
  readonly itemCode: string;

  readonly receiptsTitle: string;
  readonly receiptSale: string;
  readonly receiptReturn: string;
  readonly receiptKind: string;
  readonly receiptStatus: string;
  readonly receiptAmount: string;
  readonly receiptOpen: string;

  readonly timelineTitle: string;
  readonly timelineCreated: string;
  readonly timelineExpires: string;
  readonly timelineStatus: (status: string) => string;
  readonly timelineRefunded: (amount: number) => string;

  /** A payment whose processor names the order only in a notice that never came (Telcell's invoice). */
  readonly settleTitle: (processor: string) => string;
  readonly settleText: (processor: string) => string;
  readonly settleLabel: string;
  readonly settleButton: string;
  readonly settled: string;
  readonly settleNotConfirmed: (processor: string) => string;
  readonly settleConflict: string;
  readonly settleInvalid: string;
}

/** Everything the payment page and the refund confirmation say. */
export type PaymentDetailMessages = DetailMessages & EventMessages & RefundMessages;

const en: Catalog<DetailMessages> = {
  title: 'Payment for order {orderId}',
  backToPayments: '← Payments',
  detailsTitle: 'Details',
  fields: {
    uuid: 'Payment id',
    order_id: 'Order id',
    amount: 'Amount',
    refunded_amount: 'Refunded',
    charge: 'Charged',
    customer_id: 'Customer id',
    status: 'Status',
    checkout_url: 'Checkout page',
    processor: 'Processor',
    created_at: 'Created',
    completed_at: 'Completed',
    refunded_at: 'Refunded on',
    payment_flow: 'Payment flow',
    qr_code: 'QR code',
    rrn: 'RRN',
    redirect_url: 'Redirect URL',
    description: 'Description',
    livemode: 'Environment',
    failure_code: 'Failure code',
    capture_method: 'Capture',
    authorized_amount: 'Held on the card',
    capture_before: 'Capture by',
  },
  captureMethods: { automatic: 'Automatic: taken when paid', manual: 'Manual: held, captured later' },
  none: '—',
  live: 'Live',
  test: 'Test',
  chargeText: '{amount, number, amd} at a rate of {rate}',
  statuses: {
    pending: 'Pending',
    processing: 'Processing',
    authorized: 'Authorized',
    completed: 'Completed',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
  },
  itemsTitle: 'Items',
  itemName: 'Name',
  itemQuantity: 'Quantity',
  itemUnitPrice: 'Unit price',
  itemCode: 'Code',
  receiptsTitle: 'Receipts',
  receiptSale: 'Sale',
  receiptReturn: 'Return',
  receiptKind: 'Receipt',
  receiptStatus: 'Status',
  receiptAmount: 'Amount',
  receiptOpen: 'Open the receipt',
  timelineTitle: 'Timeline',
  timelineCreated: 'Created (pending)',
  timelineExpires: 'Expires if not paid',
  timelineStatus: 'Status: {status}',
  timelineRefunded: 'Refunded {amount, number, amd}',
  settleTitle: '{name} has not reported this payment',
  settleText:
    'The gateway cannot ask {name} about it without the invoice number, which only {name}’s notice carries, and that notice never came. If the buyer paid, enter the {name} invoice number (from the buyer, or from {name}’s back office): the gateway asks {name} and completes the payment only if {name} says that invoice paid this order and amount.',
  settleLabel: 'Invoice number',
  settleButton: 'Check with the processor and settle',
  settled: 'The processor was asked, and its answer applied to the payment.',
  settleNotConfirmed:
    '{name} did not confirm this invoice for this payment (another order or amount, or no answer). Nothing was changed.',
  settleConflict:
    'This payment cannot be settled with an invoice number now (it is paid, or the processor named its invoice already).',
  settleInvalid: 'Enter the invoice number: letters, digits, dots, dashes or underscores.',
};

const hy: Catalog<DetailMessages> = {
  title: '{orderId} պատվերի վճարումը',
  backToPayments: '← Վճարումներ',
  detailsTitle: 'Մանրամասներ',
  fields: {
    uuid: 'Վճարման նույնացուցիչ',
    order_id: 'Պատվերի համար',
    amount: 'Գումար',
    refunded_amount: 'Վերադարձված',
    charge: 'Գանձված',
    customer_id: 'Հաճախորդի նույնացուցիչ',
    status: 'Կարգավիճակ',
    checkout_url: 'Վճարման էջ',
    processor: 'Վճարային համակարգ',
    created_at: 'Ստեղծվել է',
    completed_at: 'Ավարտվել է',
    refunded_at: 'Վերադարձվել է',
    payment_flow: 'Վճարման եղանակ',
    qr_code: 'QR կոդ',
    rrn: 'RRN',
    redirect_url: 'Վերահղման հասցե',
    description: 'Նկարագրություն',
    livemode: 'Միջավայր',
    failure_code: 'Սխալի կոդ',
    capture_method: 'Գանձում',
    authorized_amount: 'Արգելափակված գումար',
    capture_before: 'Գանձել մինչև',
  },
  captureMethods: {
    automatic: 'Ավտոմատ՝ գանձվում է վճարելիս',
    manual: 'Ձեռքով՝ արգելափակվում է, գանձվում է հետո',
  },
  none: '—',
  live: 'Իրական',
  test: 'Թեստային',
  chargeText: '{amount, number, amd}՝ {rate} փոխարժեքով',
  statuses: {
    pending: 'Սպասման մեջ',
    processing: 'Մշակվում է',
    authorized: 'Արգելափակված',
    completed: 'Ավարտված',
    failed: 'Անհաջող',
    expired: 'Ժամկետանց',
    refunded: 'Վերադարձված',
  },
  itemsTitle: 'Ապրանքներ',
  itemName: 'Անվանում',
  itemQuantity: 'Քանակ',
  itemUnitPrice: 'Միավորի գին',
  itemCode: 'Կոդ',
  receiptsTitle: 'Կտրոններ',
  receiptSale: 'Վաճառք',
  receiptReturn: 'Վերադարձ',
  receiptKind: 'Կտրոն',
  receiptStatus: 'Կարգավիճակ',
  receiptAmount: 'Գումար',
  receiptOpen: 'Բացել կտրոնը',
  timelineTitle: 'Ժամանակագրություն',
  timelineCreated: 'Ստեղծվել է (սպասման մեջ)',
  timelineExpires: 'Ժամկետը լրանում է, եթե չվճարվի',
  timelineStatus: 'Կարգավիճակ՝ {status}',
  timelineRefunded: 'Վերադարձվել է {amount, number, amd}',
  settleTitle: 'Վճարային համակարգը՝ {name}, չի տեղեկացրել այս վճարման մասին',
  settleText:
    'Դարպասը չի կարող հարցնել վճարային համակարգին՝ {name}, առանց հաշվի համարի, որը միայն նրա ծանուցման մեջ է, և այդ ծանուցումը չի ստացվել։ Եթե գնորդը վճարել է, մուտքագրեք հաշվի համարը (գնորդից կամ վճարային համակարգի անձնական էջից). դարպասը կհարցնի և կհաստատի վճարումը միայն այն դեպքում, եթե վճարային համակարգը հաստատի, որ այդ հաշվով վճարվել են այս պատվերը և այս գումարը։',
  settleLabel: 'Հաշվի համար',
  settleButton: 'Ստուգել և կարգավորել',
  settled: 'Վճարային համակարգին հարցվել է, և պատասխանը կիրառվել է վճարման վրա։',
  settleNotConfirmed:
    'Վճարային համակարգը՝ {name}, չի հաստատել այս հաշիվը այս վճարման համար (այլ պատվեր կամ գումար, կամ պատասխան չկա)։ Ոչինչ չի փոխվել։',
  settleConflict:
    'Այս վճարումը հիմա չի կարող կարգավորվել հաշվի համարով (այն վճարված է, կամ վճարային համակարգն արդեն նշել է իր հաշիվը)։',
  settleInvalid: 'Մուտքագրեք հաշվի համարը՝ տառեր, թվեր, կետեր, գծիկներ կամ ընդգծումներ։',
};

const ru: Catalog<DetailMessages> = {
  title: 'Платёж по заказу {orderId}',
  backToPayments: '← Платежи',
  detailsTitle: 'Подробности',
  fields: {
    uuid: 'Идентификатор платежа',
    order_id: 'Номер заказа',
    amount: 'Сумма',
    refunded_amount: 'Возвращено',
    charge: 'Списано',
    customer_id: 'Идентификатор клиента',
    status: 'Статус',
    checkout_url: 'Страница оплаты',
    processor: 'Платёжная система',
    created_at: 'Создан',
    completed_at: 'Завершён',
    refunded_at: 'Возвращён',
    payment_flow: 'Способ оплаты',
    qr_code: 'QR-код',
    rrn: 'RRN',
    redirect_url: 'Адрес перенаправления',
    description: 'Описание',
    livemode: 'Среда',
    failure_code: 'Код ошибки',
    capture_method: 'Списание',
    authorized_amount: 'Заблокированная сумма',
    capture_before: 'Списать до',
  },
  captureMethods: { automatic: 'Автоматически: при оплате', manual: 'Вручную: блокировка, списание позже' },
  none: '—',
  live: 'Боевая',
  test: 'Тестовая',
  chargeText: '{amount, number, amd} по курсу {rate}',
  statuses: {
    pending: 'Ожидает',
    processing: 'Обрабатывается',
    authorized: 'Авторизован',
    completed: 'Завершён',
    failed: 'Неуспешный',
    expired: 'Истёк',
    refunded: 'Возвращён',
  },
  itemsTitle: 'Товары',
  itemName: 'Название',
  itemQuantity: 'Количество',
  itemUnitPrice: 'Цена за единицу',
  itemCode: 'Код',
  receiptsTitle: 'Чеки',
  receiptSale: 'Продажа',
  receiptReturn: 'Возврат',
  receiptKind: 'Чек',
  receiptStatus: 'Статус',
  receiptAmount: 'Сумма',
  receiptOpen: 'Открыть чек',
  timelineTitle: 'История',
  timelineCreated: 'Создан (ожидает)',
  timelineExpires: 'Истечёт, если не оплачен',
  timelineStatus: 'Статус: {status}',
  timelineRefunded: 'Возвращено {amount, number, amd}',
  settleTitle: 'Платёжная система «{name}» не сообщила об этом платеже',
  settleText:
    'Шлюз не может запросить платёжную систему «{name}» без номера счёта, который есть только в её уведомлении, а оно не пришло. Если покупатель оплатил, введите номер счёта (от покупателя или из кабинета платёжной системы): шлюз запросит её и завершит платёж, только если она подтвердит, что этим счётом оплачены этот заказ и эта сумма.',
  settleLabel: 'Номер счёта',
  settleButton: 'Проверить и урегулировать',
  settled: 'Платёжная система опрошена, её ответ применён к платежу.',
  settleNotConfirmed:
    'Платёжная система «{name}» не подтвердила этот счёт для этого платежа (другой заказ или сумма, или нет ответа). Ничего не изменено.',
  settleConflict:
    'Этот платёж сейчас нельзя урегулировать номером счёта (он оплачен, или платёжная система уже назвала свой счёт).',
  settleInvalid: 'Введите номер счёта: буквы, цифры, точки, дефисы или подчёркивания.',
};

const DETAIL_MESSAGES = defineMessages<DetailMessages>(
  'dashboard.payment-detail',
  { en, hy, ru },
  {
    title: ['orderId'],
    chargeText: ['amount', 'rate'],
    timelineStatus: ['status'],
    timelineRefunded: ['amount'],
    settleTitle: ['name'],
    settleText: ['name'],
    settleNotConfirmed: ['name'],
  },
);

export const PAYMENT_DETAIL_MESSAGES: Readonly<Record<Language, PaymentDetailMessages>> = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    { ...DETAIL_MESSAGES[language], ...EVENT_MESSAGES[language], ...REFUND_MESSAGES[language] },
  ]),
) as Record<Language, PaymentDetailMessages>;
