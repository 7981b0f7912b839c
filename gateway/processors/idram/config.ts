/**
 * The Idram settings of a domain (`processor enable idram --config JSON`): what the merchant's account at the
 * processor is, checked when it is entered. Read by the adapter and by the callback handler.
 */
import { z } from 'zod';
import { isProcessorAddress } from '../settings.js';
import { IDRAM_FORM_URL, IdramAccount } from './wire.js';

/** An address the buyer's browser posts to: http(s), without a user, a password or a fragment. */
const FormUrl = z
  .url({ protocol: /^https?$/ })
  .refine((value) => isProcessorAddress(value, { query: true }), 'must not carry a user, a password or a fragment');

/**
 * A domain's Idram settings (`processor enable idram --config JSON`). Idram sets the RESULT_URL,
 * SUCCESS_URL, FAIL_URL and the secret key on its side for the merchant's account; they are not
 * sent per payment.
 */
export const IdramConfig = z.strictObject({
  /** The merchant's IdramID, `EDP_REC_ACCOUNT` (a test account for test payments: Idram has no test URL). */
  rec_account: IdramAccount,
  /** Idram's SECRET_KEY for that account, which signs the confirmation. */
  secret_key: z
    .string()
    .min(1)
    .max(256)
    .regex(/^\S(.*\S)?$/s, 'must not begin or end with spaces'),
  /** Where the buyer's browser posts the payment form. */
  form_url: FormUrl.default(IDRAM_FORM_URL),
});
export type IdramConfig = z.infer<typeof IdramConfig>;
