/**
 * `gateway receipts enable|disable|check|list|retry|resolve` (docs/receipts.md "Operating"). The
 * settings given with `--config` are validated, stored sealed and never printed back. `--json`
 * prints: enable/disable `{merchant_id, host, system, retried}`; check `{host, system, ok, detail}`;
 * list `{receipts: [...]}`; retry/resolve the receipt's summary.
 */
import {
  checkReceipts,
  disableReceipts,
  enableReceipts,
  listMerchantReceipts,
  type ReceiptLine,
  resolveReceipt,
  retryReceipt,
} from '../../receipts/receipts-admin.service.js';
import type { CommandTable, Run } from '../command.js';
import { required, UsageError } from '../options.js';

function line(r: ReceiptLine): string {
  const fiscal = r.fiscal_id === null ? '' : ` fiscal ${r.fiscal_id}`;
  const error = r.last_error === null || r.status === 'issued' ? '' : ` (${r.last_error})`;
  return `${r.id}  ${r.livemode ? 'live' : 'test'} ${r.type} ${r.amount} AMD  ${r.status}${fiscal}${error}`;
}

export function receiptsEnable(merchantId: string, host: string, system: string, config: string | undefined): Run {
  return async (deps) => {
    const view = await enableReceipts(deps, { merchantId, host, system, config });
    const what = system === 'test' ? 'test receipts only (sandbox payments)' : `fiscal receipts through ${system}`;
    const retried = view.retried > 0 ? ` ${view.retried} failed receipts will be tried again.` : '';
    return { json: view, text: `${view.host} now issues ${what}.${retried}` };
  };
}

export function receiptsDisable(merchantId: string, host: string): Run {
  return async (deps) => {
    const view = await disableReceipts(deps, { merchantId, host });
    return { json: view, text: `${view.host} no longer issues receipts; receipts already queued will fail.` };
  };
}

export function receiptsCheck(merchantId: string, host: string): Run {
  return async (deps) => {
    const result = await checkReceipts(deps, { merchantId, host });
    return {
      json: result,
      text: result.ok
        ? `${result.host}: ${result.system} settings work${result.detail === null ? '' : ` (${result.detail})`}.`
        : `${result.host}: ${result.system} settings do not work: ${result.detail}`,
    };
  };
}

export function receiptsList(merchantId: string, status: string | undefined, limit: number): Run {
  return async (deps) => {
    const listed = await listMerchantReceipts(deps, { merchantId, status, limit });
    return {
      json: listed,
      text: listed.receipts.length === 0 ? 'No receipts.' : listed.receipts.map(line).join('\n'),
    };
  };
}

export function receiptsRetry(id: string): Run {
  return async (deps) => {
    const receipt = await retryReceipt(deps, id);
    return { json: receipt, text: `Receipt ${id} will be tried again.` };
  };
}

export function receiptsResolve(id: string, fiscalId: string | undefined, notIssued: boolean): Run {
  return async (deps) => {
    const receipt = await resolveReceipt(deps, { id, fiscalId, notIssued });
    return {
      json: receipt,
      text: notIssued
        ? `Receipt ${id} was not issued: it will be issued now.`
        : `Receipt ${id} recorded as fiscal receipt ${receipt.fiscal_id}.`,
    };
  };
}

export const receiptsCommands: CommandTable = {
  'receipts enable': (values) => {
    if (values.test === true && (values.config !== undefined || values.system !== undefined)) {
      throw new UsageError('--test excludes --config and --system');
    }
    if (values.test !== true && values.config === undefined)
      throw new UsageError('--config JSON (or --test) is required');
    const system = values.test === true ? 'test' : (values.system ?? 'ehdm');
    return receiptsEnable(required(values, 'merchant'), required(values, 'host'), system, values.config);
  },
  'receipts disable': (values) => receiptsDisable(required(values, 'merchant'), required(values, 'host')),
  'receipts check': (values) => receiptsCheck(required(values, 'merchant'), required(values, 'host')),
  'receipts list': (values) => {
    const raw = values.limit ?? '50';
    if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) {
      throw new UsageError('--limit must be a whole number from 1 to 1000');
    }
    return receiptsList(required(values, 'merchant'), values.status, Number(raw));
  },
  'receipts retry': (values) => receiptsRetry(required(values, 'receipt')),
  'receipts resolve': (values) =>
    receiptsResolve(required(values, 'receipt'), values['fiscal-id'], values['not-issued'] === true),
};
