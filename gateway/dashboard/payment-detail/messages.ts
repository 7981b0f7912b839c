/**
 * The texts of a payment's page (its fields, timeline, webhook events and refunds) and of the
 * refund confirmation, in the dashboard's three languages (picked with `shell.lang`). Not escaped
 * here: the pages escape everything they print.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface PaymentDetailMessages {
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
  };
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

  readonly eventsTitle: string;
  readonly eventsIntro: string;
  readonly noEvents: string;
  readonly noDeliveries: string;
  readonly deliveryTarget: string;
  readonly deliveryStatus: string;
  readonly deliveryAttempts: string;
  readonly deliveryLastAttempt: string;
  readonly deliveryAnswer: string;
  readonly deliveryError: string;
  readonly deliveryNext: string;
  readonly deliveryStates: { readonly pending: string; readonly delivered: string; readonly failed: string };
  readonly notYet: string;
  /** Heading of a delivery's attempts; `n` is the delivery's place in the event's list. */
  readonly attemptsTitle: (n: number) => string;
  readonly attemptNumber: string;
  readonly attemptTime: string;
  readonly attemptTarget: string;
  readonly attemptAnswer: string;
  readonly attemptDuration: string;
  readonly attemptError: string;
  readonly attemptOutcome: string;
  readonly attemptOutcomes: { readonly delivered: string; readonly retry: string; readonly failed: string };
  readonly noAnswer: string;
  readonly durationMs: (ms: number) => string;
  readonly noAttempts: string;
  readonly resend: (event: string) => string;
  readonly resent: string;
  readonly noWebhookTarget: string;

  /** A payment whose processor names the order only in a notice that never came (Telcell's invoice). */
  readonly settleTitle: (processor: string) => string;
  readonly settleText: (processor: string) => string;
  readonly settleLabel: string;
  readonly settleButton: string;
  readonly settled: string;
  readonly settleNotConfirmed: (processor: string) => string;
  readonly settleConflict: string;
  readonly settleInvalid: string;

  readonly refundsTitle: string;
  readonly noRefunds: string;
  readonly refundAmount: string;
  readonly refundReason: string;
  readonly refundStatus: string;
  readonly refundCreated: string;
  readonly refundStates: Readonly<Record<string, string>>;

  readonly refundFormTitle: string;
  readonly refundAmountLabel: string;
  readonly refundAmountHint: (remaining: number) => string;
  readonly refundReasonLabel: string;
  readonly refundReasonHint: string;
  readonly refundContinue: string;
  readonly notRefundable: string;
  /** Heading of the problems of a refund form, at the top of the page, each linked to its field. */
  readonly refundNotMade: string;

  readonly confirmTitle: string;
  readonly confirmText: (amount: number, orderId: string) => string;
  readonly confirmReason: (reason: string) => string;
  readonly confirmNoReason: string;
  readonly confirmButton: string;
  readonly cancel: string;

  readonly refunded: string;
  readonly amountInvalid: string;
  readonly amountTooLarge: (remaining: number) => string;
  readonly reasonTooLong: string;
  readonly wholeOnly: (amount: number) => string;
  readonly refusals: {
    readonly not_refundable: string;
    readonly already_refunded: string;
    readonly refund_not_supported: string;
    readonly refund_in_progress: string;
    readonly refund_declined: string;
    readonly processor_unavailable: string;
    readonly refund_outcome_unknown: string;
    readonly other: string;
  };
}

const en: Catalog<PaymentDetailMessages> = {
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
  },
  none: '—',
  live: 'Live',
  test: 'Test',
  chargeText: '{amount, number, amd} at a rate of {rate}',
  statuses: {
    pending: 'Pending',
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
  eventsTitle: 'Webhook events',
  eventsIntro:
    'Each event the payment sent to your webhook, and how each delivery went. Resend queues a new signed delivery of the event to the current webhook address.',
  noEvents: 'No events yet: a payment sends one when it completes, fails, expires or is refunded.',
  noDeliveries: 'Not delivered: the payment had no callback URL and its domain no webhook URL.',
  deliveryTarget: 'Target',
  deliveryStatus: 'Status',
  deliveryAttempts: 'Attempts',
  deliveryLastAttempt: 'Last attempt',
  deliveryAnswer: 'Answer',
  deliveryError: 'Error',
  deliveryNext: 'Next attempt',
  deliveryStates: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
  notYet: 'Not yet',
  attemptsTitle: 'Delivery {n}: attempts',
  attemptNumber: '#',
  attemptTime: 'Time',
  attemptTarget: 'Target',
  attemptAnswer: 'Answer',
  attemptDuration: 'Duration',
  attemptError: 'Error',
  attemptOutcome: 'Outcome',
  attemptOutcomes: { delivered: 'Delivered', retry: 'Will retry', failed: 'Given up' },
  noAnswer: 'No answer',
  durationMs: '{ms, number} ms',
  noAttempts: 'No attempt yet.',
  resend: 'Resend {event}',
  resent: 'The event is queued for a new delivery.',
  noWebhookTarget:
    'Nothing to send to: the payment has no callback URL and its domain no webhook URL. Set the webhook URL, then resend.',
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
  refundsTitle: 'Refunds',
  noRefunds: 'No refunds.',
  refundAmount: 'Amount',
  refundReason: 'Reason',
  refundStatus: 'Status',
  refundCreated: 'Created',
  refundStates: {
    pending: 'In progress',
    succeeded: 'Refunded',
    failed: 'Failed',
    unknown: 'Outcome unknown',
  },
  refundFormTitle: 'Refund',
  refundAmountLabel: 'Amount to refund (AMD)',
  refundAmountHint: 'Up to {remaining, number, amd}. Leave the whole amount to refund everything that remains.',
  refundReasonLabel: 'Reason (optional)',
  refundReasonHint: 'Kept with the refund and sent in the payment.refunded event.',
  refundContinue: 'Continue to confirm',
  notRefundable: 'This payment cannot be refunded now.',
  refundNotMade: 'The refund was not made',
  confirmTitle: 'Confirm the refund',
  confirmText: 'Refund {amount, number, amd} of the payment for order {orderId}?',
  confirmReason: 'Reason: {reason}',
  confirmNoReason: 'No reason given.',
  confirmButton: 'Refund',
  cancel: 'Cancel',
  refunded: 'The refund went through.',
  amountInvalid: 'Enter a whole number of AMD, at least 1.',
  amountTooLarge: 'That is more than the {remaining, number, amd} that remain refundable.',
  reasonTooLong: 'The reason can be at most 500 characters.',
  wholeOnly: 'This payment’s processor refunds only the whole payment, once: {amount, number, amd}.',
  refusals: {
    not_refundable: 'Only a completed payment can be refunded.',
    already_refunded: 'This payment is already fully refunded.',
    refund_not_supported: 'This payment’s processor cannot refund it through the gateway.',
    refund_in_progress: 'Another refund of this payment is still in progress. Try again when it has finished.',
    refund_declined: 'The processor declined the refund; nothing was refunded.',
    processor_unavailable: 'The processor could not be reached; nothing was refunded. Try again later.',
    refund_outcome_unknown:
      'The processor did not answer. The refund keeps its amount reserved until a status check settles it; it is never sent twice.',
    other: 'The refund could not be made.',
  },
};

const hy: Catalog<PaymentDetailMessages> = {
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
  },
  none: '—',
  live: 'Իրական',
  test: 'Թեստային',
  chargeText: '{amount, number, amd}՝ {rate} փոխարժեքով',
  statuses: {
    pending: 'Սպասման մեջ',
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
  eventsTitle: 'Վեբհուքի իրադարձություններ',
  eventsIntro:
    'Յուրաքանչյուր իրադարձություն, որ վճարումն ուղարկել է ձեր վեբհուքին, և ինչպես է անցել յուրաքանչյուր առաքումը։ «Կրկին ուղարկել»-ը իրադարձության նոր ստորագրված առաքում է հերթագրում ընթացիկ վեբհուքի հասցեին։',
  noEvents:
    'Իրադարձություններ դեռ չկան. վճարումն իրադարձություն է ուղարկում, երբ ավարտվում է, ձախողվում, ժամկետանց է դառնում կամ վերադարձվում։',
  noDeliveries: 'Չի առաքվել. վճարումը callback հասցե չուներ, իսկ դոմենը՝ վեբհուքի հասցե։',
  deliveryTarget: 'Հասցե',
  deliveryStatus: 'Կարգավիճակ',
  deliveryAttempts: 'Փորձեր',
  deliveryLastAttempt: 'Վերջին փորձը',
  deliveryAnswer: 'Պատասխան',
  deliveryError: 'Սխալ',
  deliveryNext: 'Հաջորդ փորձը',
  deliveryStates: { pending: 'Սպասման մեջ', delivered: 'Առաքված', failed: 'Չառաքված' },
  notYet: 'Դեռ ոչ',
  attemptsTitle: 'Առաքում {n}՝ փորձեր',
  attemptNumber: '№',
  attemptTime: 'Ժամանակ',
  attemptTarget: 'Հասցե',
  attemptAnswer: 'Պատասխան',
  attemptDuration: 'Տևողություն',
  attemptError: 'Սխալ',
  attemptOutcome: 'Արդյունք',
  attemptOutcomes: { delivered: 'Առաքված', retry: 'Կկրկնվի', failed: 'Դադարեցված' },
  noAnswer: 'Պատասխան չկա',
  durationMs: '{ms, number} մվ',
  noAttempts: 'Դեռ փորձ չի եղել։',
  resend: 'Կրկին ուղարկել {event}',
  resent: 'Իրադարձությունը հերթագրված է նոր առաքման համար։',
  noWebhookTarget:
    'Ուղարկելու տեղ չկա. վճարումը callback հասցե չունի, իսկ դոմենը՝ վեբհուքի հասցե։ Սահմանեք վեբհուքի հասցեն, ապա կրկին ուղարկեք։',
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
  refundsTitle: 'Վերադարձներ',
  noRefunds: 'Վերադարձներ չկան։',
  refundAmount: 'Գումար',
  refundReason: 'Պատճառ',
  refundStatus: 'Կարգավիճակ',
  refundCreated: 'Ստեղծվել է',
  refundStates: {
    pending: 'Ընթացքում է',
    succeeded: 'Կատարված',
    failed: 'Չկատարված',
    unknown: 'Արդյունքն անհայտ է',
  },
  refundFormTitle: 'Վերադարձ',
  refundAmountLabel: 'Վերադարձվող գումարը (֏)',
  refundAmountHint: 'Առավելագույնը՝ {remaining, number, amd}։ Ամբողջ մնացորդը վերադարձնելու համար թողեք այս գումարը։',
  refundReasonLabel: 'Պատճառ (ոչ պարտադիր)',
  refundReasonHint: 'Պահվում է վերադարձի հետ և ուղարկվում payment.refunded իրադարձությամբ։',
  refundContinue: 'Անցնել հաստատման',
  notRefundable: 'Այս վճարումը հիմա հնարավոր չէ վերադարձնել։',
  refundNotMade: 'Վերադարձը չի կատարվել',
  confirmTitle: 'Հաստատեք վերադարձը',
  confirmText: 'Վերադարձնե՞լ {amount, number, amd} {orderId} պատվերի վճարումից։',
  confirmReason: 'Պատճառ՝ {reason}',
  confirmNoReason: 'Պատճառ նշված չէ։',
  confirmButton: 'Վերադարձնել',
  cancel: 'Չեղարկել',
  refunded: 'Վերադարձը կատարվեց։',
  amountInvalid: 'Մուտքագրեք գումարն ամբողջ դրամներով՝ առնվազն 1 ֏։',
  amountTooLarge: 'Գումարը գերազանցում է վերադարձման ենթակա մնացորդը՝ {remaining, number, amd}։',
  reasonTooLong: 'Պատճառը կարող է լինել առավելագույնը 500 նիշ։',
  wholeOnly: 'Այս վճարային համակարգը վերադարձնում է միայն ամբողջ վճարումը՝ մեկ անգամ՝ {amount, number, amd}։',
  refusals: {
    not_refundable: 'Միայն ավարտված վճարումը կարելի է վերադարձնել։',
    already_refunded: 'Այս վճարումն արդեն ամբողջությամբ վերադարձված է։',
    refund_not_supported: 'Այս վճարային համակարգը չի կարող այն վերադարձնել դարպասի միջոցով։',
    refund_in_progress: 'Այս վճարման մեկ այլ վերադարձ դեռ ընթացքում է։ Փորձեք կրկին, երբ այն ավարտվի։',
    refund_declined: 'Վճարային համակարգը մերժեց վերադարձը. ոչինչ չի վերադարձվել։',
    processor_unavailable: 'Վճարային համակարգը հասանելի չէր. ոչինչ չի վերադարձվել։ Փորձեք ավելի ուշ։',
    refund_outcome_unknown:
      'Վճարային համակարգը չպատասխանեց։ Վերադարձի գումարը պահված է, մինչև կարգավիճակի ստուգումը պարզի արդյունքը. այն երբեք երկու անգամ չի ուղարկվում։',
    other: 'Վերադարձը հնարավոր չեղավ կատարել։',
  },
};

const ru: Catalog<PaymentDetailMessages> = {
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
  },
  none: '—',
  live: 'Боевая',
  test: 'Тестовая',
  chargeText: '{amount, number, amd} по курсу {rate}',
  statuses: {
    pending: 'Ожидает',
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
  eventsTitle: 'События вебхуков',
  eventsIntro:
    'Каждое событие, которое платёж отправил на ваш вебхук, и как прошла каждая доставка. «Отправить снова» ставит в очередь новую подписанную доставку события на текущий адрес вебхука.',
  noEvents: 'Событий пока нет: платёж отправляет событие, когда завершается, не проходит, истекает или возвращается.',
  noDeliveries: 'Не доставлено: у платежа не было callback-адреса, а у домена — адреса вебхука.',
  deliveryTarget: 'Адрес',
  deliveryStatus: 'Статус',
  deliveryAttempts: 'Попытки',
  deliveryLastAttempt: 'Последняя попытка',
  deliveryAnswer: 'Ответ',
  deliveryError: 'Ошибка',
  deliveryNext: 'Следующая попытка',
  deliveryStates: { pending: 'Ожидает', delivered: 'Доставлено', failed: 'Не доставлено' },
  notYet: 'Ещё нет',
  attemptsTitle: 'Доставка {n}: попытки',
  attemptNumber: '№',
  attemptTime: 'Время',
  attemptTarget: 'Адрес',
  attemptAnswer: 'Ответ',
  attemptDuration: 'Длительность',
  attemptError: 'Ошибка',
  attemptOutcome: 'Итог',
  attemptOutcomes: { delivered: 'Доставлено', retry: 'Будет повтор', failed: 'Попытки прекращены' },
  noAnswer: 'Нет ответа',
  durationMs: '{ms, number} мс',
  noAttempts: 'Попыток ещё не было.',
  resend: 'Отправить снова {event}',
  resent: 'Событие поставлено в очередь на новую доставку.',
  noWebhookTarget:
    'Некуда отправлять: у платежа нет callback-адреса, а у домена — адреса вебхука. Укажите адрес вебхука и отправьте снова.',
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
  refundsTitle: 'Возвраты',
  noRefunds: 'Возвратов нет.',
  refundAmount: 'Сумма',
  refundReason: 'Причина',
  refundStatus: 'Статус',
  refundCreated: 'Создан',
  refundStates: {
    pending: 'Выполняется',
    succeeded: 'Выполнен',
    failed: 'Не выполнен',
    unknown: 'Итог неизвестен',
  },
  refundFormTitle: 'Возврат',
  refundAmountLabel: 'Сумма возврата, драм',
  refundAmountHint: 'Максимум: {remaining, number, amd}. Оставьте эту сумму, чтобы вернуть всё, что осталось.',
  refundReasonLabel: 'Причина (необязательно)',
  refundReasonHint: 'Хранится с возвратом и передаётся в событии payment.refunded.',
  refundContinue: 'Перейти к подтверждению',
  notRefundable: 'Этот платёж сейчас нельзя вернуть.',
  refundNotMade: 'Возврат не выполнен',
  confirmTitle: 'Подтвердите возврат',
  confirmText: 'Вернуть {amount, number, amd} из платежа по заказу {orderId}?',
  confirmReason: 'Причина: {reason}',
  confirmNoReason: 'Причина не указана.',
  confirmButton: 'Вернуть',
  cancel: 'Отмена',
  refunded: 'Возврат выполнен.',
  amountInvalid: 'Введите сумму в целых драмах, не меньше 1 драма.',
  amountTooLarge: 'Сумма больше остатка, доступного для возврата: {remaining, number, amd}.',
  reasonTooLong: 'Причина может содержать не более 500 символов.',
  wholeOnly: 'Платёжная система этого платежа возвращает только весь платёж, один раз: {amount, number, amd}.',
  refusals: {
    not_refundable: 'Вернуть можно только завершённый платёж.',
    already_refunded: 'Этот платёж уже полностью возвращён.',
    refund_not_supported: 'Платёжная система этого платежа не может вернуть его через шлюз.',
    refund_in_progress: 'Другой возврат по этому платежу ещё выполняется. Повторите, когда он завершится.',
    refund_declined: 'Платёжная система отклонила возврат; ничего не возвращено.',
    processor_unavailable: 'Платёжная система недоступна; ничего не возвращено. Повторите позже.',
    refund_outcome_unknown:
      'Платёжная система не ответила. Сумма возврата зарезервирована, пока проверка статуса не выяснит итог; повторно возврат не отправляется.',
    other: 'Возврат не удалось выполнить.',
  },
};

export const PAYMENT_DETAIL_MESSAGES = defineMessages<PaymentDetailMessages>(
  'dashboard.payment-detail',
  { en, hy, ru },
  {
    title: ['orderId'],
    chargeText: ['amount', 'rate'],
    timelineStatus: ['status'],
    timelineRefunded: ['amount'],
    attemptsTitle: ['n'],
    durationMs: ['ms'],
    resend: ['event'],
    refundAmountHint: ['remaining'],
    confirmText: ['amount', 'orderId'],
    confirmReason: ['reason'],
    amountTooLarge: ['remaining'],
    wholeOnly: ['amount'],
    settleTitle: ['name'],
    settleText: ['name'],
    settleNotConfirmed: ['name'],
  },
);
