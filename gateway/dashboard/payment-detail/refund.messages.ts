/**
 * The texts of a payment's refunds on its page (the list, the form, the refusals) and of the refund
 * confirmation, in the dashboard's three languages. Not escaped here.
 */
import { type Catalog, defineMessages } from '../../i18n/messages.js';

export interface RefundMessages {
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

const en: Catalog<RefundMessages> = {
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

const hy: Catalog<RefundMessages> = {
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

const ru: Catalog<RefundMessages> = {
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

export const REFUND_MESSAGES = defineMessages<RefundMessages>(
  'dashboard.payment-detail.refunds',
  { en, hy, ru },
  {
    refundAmountHint: ['remaining'],
    confirmText: ['amount', 'orderId'],
    confirmReason: ['reason'],
    amountTooLarge: ['remaining'],
    wholeOnly: ['amount'],
  },
);
