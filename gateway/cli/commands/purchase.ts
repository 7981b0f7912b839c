/**
 * `gateway purchase credit --reference REF`: the operator saw a purchase's bank transfer arrive.
 * Credits the purchase once; a second call for the same reference is refused (exit 1) and changes
 * nothing. `--json` prints `{purchase_id, merchant_id, counter, quantity, status, balance_after}`.
 */
import { creditBankTransfer } from '../../billing/purchases.service.js';
import type { CommandTable } from '../command.js';
import { required } from '../options.js';

export const purchaseCommands: CommandTable = {
  'purchase credit': (values) => {
    const reference = required(values, 'reference');
    return async (deps) => {
      const credited = await creditBankTransfer(deps, reference);
      return {
        json: credited,
        text: `Purchase ${credited.purchase_id} credited: +${credited.quantity} ${credited.counter} for merchant ${credited.merchant_id} (balance now ${credited.balance_after}).`,
      };
    };
  },
};
