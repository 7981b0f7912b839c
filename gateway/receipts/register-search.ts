/**
 * The search of a register for a receipt whose try had an unknown outcome, or whose lease lapsed:
 * found, it is issued; absent, a new try may be made; undecided, it stays `unknown` and is
 * searched again later, and after `SEARCHES_BEFORE_ALERT` searches the merchant is asked to
 * decide (`receipts resolve`). A receipt is never sent again blindly.
 */
import type { Executor } from '../../storage/database.js';
import { moveReceipt, nextRegisterSeq } from '../../storage/receipt.repository.js';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import type { SearchAnswer } from './fiscal-system.js';
import { retryDelayMs, SEARCHES_BEFORE_ALERT } from './issuing-schedule.js';
import type { Task } from './issuing-task.js';
import { afterIssued } from './receipt-issued.js';
import { issuedColumns } from './receipts.service.js';
import { alertMerchant } from './receipts-alert.js';

export async function search(deps: Deps, task: Task): Promise<void> {
  const { row, settings } = task;
  const register = row.register as string;
  let answer: SearchAnswer;
  try {
    answer = await settings.system.search(settings.call, {
      // A register with no receipt of ours yet is read from its first receipt.
      afterFiscalId: row.search_after ?? '0',
      type: row.type,
      cardAmount: Number(row.card_amount),
      cashAmount: Number(row.cash_amount),
      // The window starts at the first attempt: a receipt a lost earlier try issued is looked for too.
      notBeforeMs: Date.parse(row.first_attempt_at ?? row.attempt_started_at ?? row.created_at),
      nextSeq: () => deps.transact((trx) => nextRegisterSeq(trx, register, toStoredInstant(deps.clock.nowMs()))),
    });
  } catch (error) {
    deps.logger.error({ err: error, receipt: row.id }, 'fiscal adapter failed to search');
    answer = { kind: 'undecided', detail: 'the fiscal adapter failed' };
  }
  await deps.transact(async (trx) => {
    if (answer.kind === 'found') {
      // A receipt another row of ours already holds is not this one.
      const held = await trx
        .selectFrom('receipts')
        .select('id')
        .where('register', '=', register)
        .where('fiscal_id', '=', answer.receipt.fiscalId)
        .where('id', '!=', row.id)
        .executeTakeFirst();
      if (held !== undefined) answer = { kind: 'undecided', detail: 'the only match is a receipt already recorded' };
    }
    await applySearchAnswer(deps, trx, row, answer);
  });
}

async function applySearchAnswer(deps: Deps, trx: Executor, row: ReceiptRow, answer: SearchAnswer): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const onTry = { seq: row.seq };
  const searches = row.searches + 1;
  switch (answer.kind) {
    case 'found': {
      const issued = await moveReceipt(
        trx,
        row.id,
        ['unknown'],
        { ...issuedColumns(answer.receipt, now), searches },
        onTry,
      );
      if (issued !== undefined) await afterIssued(deps, trx, issued);
      return;
    }
    case 'absent':
      // The register holds no such receipt: the try issued nothing, a new try may be made.
      await moveReceipt(
        trx,
        row.id,
        ['unknown'],
        {
          status: 'pending',
          searches,
          next_attempt_at: now,
          last_error: 'the last try issued nothing (the register was searched)',
          updated_at: now,
        },
        onTry,
      );
      return;
    case 'undecided': {
      const moved = await moveReceipt(
        trx,
        row.id,
        ['unknown'],
        {
          searches,
          next_attempt_at: toStoredInstant(nowMs + retryDelayMs(searches)),
          last_error: `outcome unknown, search undecided: ${answer.detail}`,
          updated_at: now,
        },
        onTry,
      );
      if (moved !== undefined && searches >= SEARCHES_BEFORE_ALERT) await alertMerchant(deps, trx, moved);
      return;
    }
  }
}
