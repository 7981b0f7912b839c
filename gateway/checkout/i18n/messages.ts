/**
 * Every text of the checkout pages, by key. One catalog of ICU messages per language (en.ts, hy.ts,
 * ru.ts) implements this interface, so a missing or extra key in a translation is a type error.
 * Functions take the values a text needs (amounts already formatted by gateway/i18n/format.ts, not
 * yet escaped: the pages escape everything they print).
 */
import type { FailureCode } from '../../domain/payment-lifecycle.js';

export type { Language } from '../../i18n/languages.js';

export interface Messages {
  /** BCP 47 tag for `<html lang>` and number formatting. */
  readonly locale: string;
  /** The language's own name, for the language links. */
  readonly languageName: string;

  readonly checkoutTitle: string;
  readonly amount: string;
  readonly order: string;
  readonly description: string;
  readonly chooseMethod: string;
  readonly preselected: string;
  readonly continueToPay: (amount: string) => string;
  /** A payment priced in another currency: the AMD charged and the locked rate (`1 USD = 387.5 AMD`). */
  readonly chargedInAmd: (amount: string, rate: string) => string;
  readonly noMethods: string;
  readonly chooseMethodError: string;
  /** The chosen processor could not start the payment (refused or did not answer). */
  readonly methodUnavailable: string;
  /** The step to a processor's page; `method` is the method's name (gateway/i18n/method-names.ts). */
  readonly handoffTitle: (method: string) => string;
  readonly handoffText: string;
  /** The button to the processor's page (the method is named in the title above it). */
  readonly handoffButton: string;
  readonly cancel: string;
  readonly testMode: string;
  readonly securedBy: string;
  readonly expiresIn: (minutes: number) => string;

  readonly testPageTitle: string;
  readonly testNotice: string;
  readonly cardNumber: string;
  readonly expiry: string;
  readonly cvv: string;
  readonly cardholder: string;
  readonly payButton: (amount: string) => string;
  readonly testCardsTitle: string;
  readonly testCardsHint: string;
  readonly useCard: string;
  readonly outcome: Readonly<Record<'approved' | FailureCode, string>>;
  readonly cardNumberMissing: string;
  readonly cardNumberLength: string;

  readonly completedTitle: string;
  readonly completedText: string;
  readonly returningSoon: string;
  readonly backToShop: string;
  readonly failedTitle: string;
  /** What the buyer reads for each `failure_code`. */
  readonly failure: Readonly<Record<FailureCode, string>>;
  readonly failedHint: string;
  readonly expiredTitle: string;
  readonly expiredText: string;
  readonly waitingTitle: string;
  readonly waitingText: string;
  /*
   * A payment whose processor has not reported it and cannot be asked without the id only its
   * notice carries (Telcell's invoice): the buyer may have paid. `name` is the method's name.
   */
  /** The waiting page's title while the processor's notice is awaited. */
  readonly confirmingTitle: string;
  /** What is happening: the processor has not told the shop, so wait and do not pay again. */
  readonly confirmingText: (name: string) => string;
  /** What a buyer who paid can do: keep the invoice number and give it to the shop. */
  readonly waitingForNotice: (name: string) => string;
  /** The expired page's title when the processor never reported the payment. */
  readonly unconfirmedTitle: string;
  /** The expired page's text then: no money taken if unpaid; if paid, the shop confirms it with the invoice number. */
  readonly unconfirmedText: (name: string) => string;
  readonly refundedTitle: string;
  readonly refundedText: string;
  readonly cancelledTitle: string;
  readonly cancelledText: string;
  readonly embeddedDone: string;

  readonly notFoundTitle: string;
  readonly notFoundText: string;
  readonly goneTitle: string;
  readonly goneText: string;
  readonly forbiddenTitle: string;
  readonly forbiddenText: string;
  readonly backToPayment: string;
  readonly badEmbedTitle: string;
  readonly badEmbedText: string;
}
