/**
 * Idram, the Armenian wallet (docs/processors.md "Idram"). Nothing is registered at Idram: `start`
 * answers the form the buyer's browser posts to Idram's payment page, keyed by our bill number
 * (`EDP_BILL_NO`, the session's order number). Idram then calls the RESULT_URL twice (./callback.ts):
 * an unsigned precheck and a confirmation signed with the merchant's secret, which is the only
 * proof of payment, since Idram has no status API. Refunds are made by hand through Idram: there is
 * no refund API (the core answers `refund_not_supported`).
 *
 * The gateway makes no HTTP call to Idram, so no call timeout applies here.
 */
import type { Processor, StartAnswer } from '../processor.js';
import { idramCallback } from './callback.js';
import { IdramConfig } from './config.js';
import { idramAmount, idramLanguage } from './map.js';
import { IdramPaymentForm } from './wire.js';

/** A wallet with a clasp. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">' +
  '<path d="M9 9V7.5A2.5 2.5 0 0 1 11.5 5H34" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>' +
  '<rect x="5" y="9" width="36" height="20" rx="3" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<path d="M41 14h-8a5 5 0 0 0 0 10h8" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<circle cx="33.5" cy="19" r="2.5" fill="#F29100"/>' +
  '</svg>';

function refused(detail: string): StartAnswer {
  return { kind: 'refused', failureCode: 'general_failure', detail };
}

export const idramProcessor: Processor<IdramConfig> = {
  slug: 'idram',
  displayName: 'Idram',
  logoSvg: LOGO_SVG,
  configSchema: IdramConfig,

  async start(call, payment, session) {
    if (payment.currency !== 'AMD') return refused('Idram takes payments in AMD only');
    const amount = idramAmount(payment.amount);
    if (amount === null) return refused('Idram takes a positive whole amount');
    const description = payment.description?.trim() || `Order ${payment.orderId}`;
    const form = IdramPaymentForm.safeParse({
      EDP_LANGUAGE: idramLanguage(call.language),
      EDP_REC_ACCOUNT: call.config.rec_account,
      EDP_DESCRIPTION: description,
      EDP_AMOUNT: amount,
      EDP_BILL_NO: session.orderNumber,
    });
    if (!form.success) {
      const fields = [...new Set(form.error.issues.map((issue) => issue.path.join('.')))];
      return refused(`the Idram form would be invalid: ${fields.join(', ')}`);
    }
    // EDP_EMAIL is left out: it replaces the merchant's EMAIL, where Idram mails a confirmation the
    // gateway did not answer `OK`; that is the merchant's reconciliation, not the buyer's business.
    return {
      kind: 'redirect',
      reference: null,
      redirect: { method: 'POST', url: call.config.form_url, fields: form.data },
    };
  },

  callback: idramCallback,
};
