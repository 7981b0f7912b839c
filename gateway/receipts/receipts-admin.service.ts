/**
 * Managing a domain's fiscal receipts (the `receipts` CLI commands; the dashboard will call the
 * same): enable with the fiscal system's settings (validated, sealed, never printed back) or for
 * test receipts only, disable, check the settings against the fiscal system, list receipts, and the
 * two decisions a person makes: try a failed receipt again, and settle a receipt whose outcome the
 * register search could not establish.
 */
import {
  deleteDomainReceipts,
  ensureRegister,
  findReceipt,
  listReceipts,
  moveReceipt,
  nextRegisterSeq,
  saveDomainReceipts,
} from '../../storage/receipt.repository.js';
import type { ReceiptRow, ReceiptStatus } from '../../storage/receipt.table.js';
import { toStoredInstant } from '../domain/clock.js';
import { requireDomain } from '../merchants/domains.service.js';
import { OperatorError } from '../merchants/operator.js';
import type { Deps } from '../runtime/deps.js';
import { InvalidSettings } from '../runtime/settings-json.js';
import { afterIssued } from './receipt-issued.js';
import { issuedColumns } from './receipts.service.js';
import { fiscalSystemFor, isKnownFiscalSystem } from './registry.js';
import { domainReceipts, parseReceiptSettings, sealReceiptSettings, TEST_ONLY } from './settings.js';

export interface ReceiptsSettingView {
  merchant_id: string;
  host: string;
  /** `ehdm`, `test` (sandbox receipts only) or null (disabled). */
  system: string | null;
  /** Failed receipts of the domain put back to be tried again by this change. */
  retried: number;
}

export async function enableReceipts(
  deps: Deps,
  input: { merchantId: string; host: string; system: string; config: string | undefined },
): Promise<ReceiptsSettingView> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  let sealed: string | null = null;
  if (input.system === TEST_ONLY) {
    if (input.config !== undefined) throw new OperatorError('--test takes no --config');
  } else {
    if (!isKnownFiscalSystem(input.system)) throw new OperatorError(`unknown fiscal system "${input.system}"`);
    if (input.config === undefined) throw new OperatorError(`${input.system} needs --config JSON`);
    let json: string;
    try {
      json = parseReceiptSettings(input.system, input.config);
    } catch (error) {
      if (error instanceof InvalidSettings) throw new OperatorError(error.message);
      throw error;
    }
    const system = fiscalSystemFor(input.system);
    const config = system.configSchema.parse(JSON.parse(json));
    const register = `${input.system}:${system.registerOf(config)}`;
    // The register's row exists before any call or receipt: claims then never create it, and never wait.
    await ensureRegister(deps.db, register, toStoredInstant(deps.clock.nowMs()));
    // The settings are checked against the fiscal system before they are kept: settings it refuses
    // (a wrong CRN, a certificate it does not know, an address it does not answer on) are refused
    // here with its own answer, and the domain keeps what it had.
    const seq = await deps.transact((trx) => nextRegisterSeq(trx, register, toStoredInstant(deps.clock.nowMs())));
    const answer = await system.check(
      { config, http: deps.counterparts.http(deps.processorHttp, input.system, 'interactive') },
      seq,
    );
    if (!answer.ok) {
      throw new OperatorError(
        `these settings do not work with ${input.system} (nothing was changed): ${answer.detail}`,
      );
    }
    sealed = sealReceiptSettings(deps.sealer, domain.id, input.system, json);
  }
  const now = toStoredInstant(deps.clock.nowMs());
  const retried = await deps.transact(async (trx) => {
    await saveDomainReceipts(trx, {
      domain_id: domain.id,
      merchant_id: input.merchantId,
      system: input.system,
      config: sealed,
      now,
    });
    if (sealed === null) return 0;
    // Receipts that failed (refused settings, receipts disabled) are tried again with these.
    const result = await trx
      .updateTable('receipts')
      .set({ status: 'pending', next_attempt_at: now, updated_at: now })
      .where('domain_id', '=', domain.id)
      .where('status', '=', 'failed')
      .where('sandbox', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
  if (retried > 0) deps.dueSignal.notify();
  return { merchant_id: input.merchantId, host: domain.host, system: input.system, retried };
}

export async function disableReceipts(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<ReceiptsSettingView> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  await deleteDomainReceipts(deps.db, domain.id);
  return { merchant_id: input.merchantId, host: domain.host, system: null, retried: 0 };
}

/** Asks the fiscal system whether the domain's settings work (certificate, register). */
export async function checkReceipts(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<{ host: string; system: string; ok: boolean; detail: string | null }> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  // A person is waiting for this answer: it is not background work.
  const settings = await domainReceipts(deps, deps.db, domain.id, 'interactive');
  switch (settings.kind) {
    case 'none':
      throw new OperatorError(`${domain.host} does not issue receipts`);
    case 'test':
      return { host: domain.host, system: TEST_ONLY, ok: true, detail: 'test receipts only: nothing to check' };
    case 'broken':
      return { host: domain.host, system: 'unknown', ok: false, detail: settings.detail };
    case 'fiscal': {
      const register = `${settings.slug}:${settings.system.registerOf(settings.call.config)}`;
      const seq = await deps.transact((trx) => nextRegisterSeq(trx, register, toStoredInstant(deps.clock.nowMs())));
      const answer = await settings.system.check(settings.call, seq);
      return { host: domain.host, system: settings.slug, ok: answer.ok, detail: answer.ok ? null : answer.detail };
    }
  }
}

export interface ReceiptLine {
  id: string;
  type: string;
  status: ReceiptStatus;
  livemode: boolean;
  payment_uuid: string | null;
  amount: number;
  fiscal_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

function summary(row: ReceiptRow): ReceiptLine {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    livemode: row.sandbox === 0,
    payment_uuid: row.payment_id,
    amount: Number(row.card_amount) + Number(row.cash_amount),
    fiscal_id: row.fiscal_id,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
  };
}

export async function listMerchantReceipts(
  deps: Deps,
  input: { merchantId: string; status: string | undefined; limit: number },
): Promise<{ receipts: ReceiptLine[] }> {
  const statuses: readonly ReceiptStatus[] = ['pending', 'issuing', 'unknown', 'issued', 'failed'];
  if (input.status !== undefined && !(statuses as readonly string[]).includes(input.status)) {
    throw new OperatorError(`--status must be one of ${statuses.join(', ')}`);
  }
  const rows = (
    await Promise.all(
      (['live', 'test'] as const).map((environment) =>
        listReceipts(deps.db, {
          merchantId: input.merchantId,
          environment,
          statuses: input.status === undefined ? undefined : [input.status as ReceiptStatus],
          limit: input.limit,
        }),
      ),
    )
  )
    .flat()
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .slice(0, input.limit);
  return { receipts: rows.map(summary) };
}

async function requireReceipt(deps: Deps, id: string): Promise<ReceiptRow> {
  const row = await findReceipt(deps.db, id);
  if (row === undefined) throw new OperatorError(`no receipt ${id}`);
  return row;
}

/** A failed receipt is tried again (after the cause was fixed). */
export async function retryReceipt(deps: Deps, id: string): Promise<ReceiptLine> {
  const row = await requireReceipt(deps, id);
  if (row.status !== 'failed')
    throw new OperatorError(`receipt ${id} is ${row.status}: only a failed receipt is retried`);
  const now = toStoredInstant(deps.clock.nowMs());
  const moved = await moveReceipt(deps.db, id, ['failed'], {
    status: 'pending',
    next_attempt_at: now,
    updated_at: now,
  });
  if (moved === undefined) throw new OperatorError(`receipt ${id} changed meanwhile: look again`);
  deps.dueSignal.notify();
  return summary(moved);
}

/**
 * A person looked in the register for a receipt whose outcome is unknown. `--not-issued`: it is not
 * there, a new try is made. `--fiscal-id N`: it is there as receipt N, which is read from the
 * register and checked (type, amounts) before it is recorded.
 */
export async function resolveReceipt(
  deps: Deps,
  input: { id: string; fiscalId: string | undefined; notIssued: boolean },
): Promise<ReceiptLine> {
  if ((input.fiscalId === undefined) === !input.notIssued) {
    throw new OperatorError('give exactly one of --fiscal-id N and --not-issued');
  }
  const row = await requireReceipt(deps, input.id);
  if (row.status !== 'unknown') {
    throw new OperatorError(
      `receipt ${input.id} is ${row.status}: only a receipt whose outcome is unknown is resolved`,
    );
  }
  const now = toStoredInstant(deps.clock.nowMs());
  if (input.notIssued) {
    const moved = await moveReceipt(
      deps.db,
      input.id,
      ['unknown'],
      { status: 'pending', next_attempt_at: now, last_error: 'resolved by a person: not issued', updated_at: now },
      { seq: row.seq },
    );
    if (moved === undefined) throw new OperatorError(`receipt ${input.id} changed meanwhile: look again`);
    deps.dueSignal.notify();
    return summary(moved);
  }
  const fiscalId = input.fiscalId as string;
  if (!/^\d{1,18}$/.test(fiscalId))
    throw new OperatorError('--fiscal-id must be the receipt number the register shows');
  const settings = await domainReceipts(deps, deps.db, row.domain_id);
  if (settings.kind !== 'fiscal' || row.register === null) {
    throw new OperatorError('the domain has no usable fiscal settings to read the receipt with');
  }
  const register = row.register;
  const answer = await settings.system.search(settings.call, {
    afterFiscalId: String(BigInt(fiscalId) - 1n),
    type: row.type,
    cardAmount: Number(row.card_amount),
    cashAmount: Number(row.cash_amount),
    notBeforeMs: Date.parse(row.first_attempt_at ?? row.created_at),
    nextSeq: () => deps.transact((trx) => nextRegisterSeq(trx, register, toStoredInstant(deps.clock.nowMs()))),
  });
  if (answer.kind !== 'found' || answer.receipt.fiscalId !== fiscalId) {
    throw new OperatorError(
      `receipt ${fiscalId} of the register is not this receipt (type, amounts or time differ, or it could not be read)`,
    );
  }
  const moved = await deps.transact(async (trx) => {
    const done = await moveReceipt(trx, input.id, ['unknown'], issuedColumns(answer.receipt, now), { seq: row.seq });
    if (done !== undefined) await afterIssued(deps, trx, done);
    return done;
  });
  if (moved === undefined) throw new OperatorError(`receipt ${input.id} changed meanwhile: look again`);
  deps.dueSignal.notify();
  return summary(moved);
}
