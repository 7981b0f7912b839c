/**
 * What the operator's actions on accounts share (the CLI's, also called by the dashboard): the
 * error for a mistake in what was asked, and the merchant an action names.
 */
import { findMerchant } from '../../storage/merchant.repository.js';
import type { Deps } from '../runtime/deps.js';

/** A mistake in what the operator asked for; the CLI prints the message and exits non-zero. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}

/** The merchant an action names; refuses an unknown id. */
export async function requireMerchant(deps: Deps, merchantId: string) {
  const merchant = await findMerchant(deps.db, merchantId);
  if (merchant === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
  return merchant;
}
