/**
 * One try to issue a receipt at its fiscal system, made only while its claim holds, and the answer
 * applied conditionally on that try (status and seq): issued; refused (nothing was issued: tried
 * again later with back-off, or `failed` when it never can be); unavailable (nothing reached the
 * system: tried again later); unknown (it may have been issued: the register is searched).
 */
import type { Executor } from '../../storage/database.js';
import { findReceipt, moveReceipt } from '../../storage/receipt.repository.js';
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { toStoredInstant } from '../domain/clock.js';
import type { StoredLine, StoredReturnLine } from '../domain/receipt-lines.js';
import type { Deps } from '../runtime/deps.js';
import type { FiscalSystem, IssueAnswer } from './fiscal-system.js';
import { retryDelayMs, SEARCH_AFTER_MS, TRIES_BEFORE_ALERT } from './issuing-schedule.js';
import type { Task } from './issuing-task.js';
import { afterIssued } from './receipt-issued.js';
import { issuedColumns } from './receipts.service.js';
import { alertMerchant } from './receipts-alert.js';

export async function issue(deps: Deps, task: Task): Promise<void> {
  const { row, settings } = task;
  // The try is made only while its claim holds: past its lease, another instance may be searching
  // for it, and only a search may decide what happens next.
  const current = await findReceipt(deps.db, row.id);
  if (
    current?.status !== 'issuing' ||
    Number(current.seq) !== Number(row.seq) ||
    (current.next_attempt_at ?? '') <= toStoredInstant(deps.clock.nowMs())
  ) {
    return;
  }
  const system: FiscalSystem = settings.system;
  const seq = Number(row.seq);
  let answer: IssueAnswer;
  try {
    if (row.type === 'sale') {
      answer = await system.issueSale(settings.call, {
        seq,
        cardAmount: Number(row.card_amount),
        cashAmount: Number(row.cash_amount),
        lines: JSON.parse(row.lines) as StoredLine[],
      });
    } else {
      answer = await system.issueReturn(settings.call, {
        seq,
        saleFiscalId: task.sale?.fiscal_id ?? '',
        cardAmount: Number(row.card_amount),
        cashAmount: Number(row.cash_amount),
        lines: JSON.parse(row.lines) as StoredReturnLine[],
      });
    }
  } catch (error) {
    deps.logger.error({ err: error, receipt: row.id }, 'fiscal adapter failed');
    answer = { kind: 'unknown', detail: 'the fiscal adapter failed' };
  }
  await deps.transact((trx) => applyIssueAnswer(deps, trx, row, answer));
}

async function applyIssueAnswer(deps: Deps, trx: Executor, row: ReceiptRow, answer: IssueAnswer): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const onTry = { seq: row.seq };
  switch (answer.kind) {
    case 'issued': {
      const issued = await moveReceipt(trx, row.id, ['issuing', 'unknown'], issuedColumns(answer.receipt, now), onTry);
      if (issued !== undefined) await afterIssued(deps, trx, issued);
      return;
    }
    case 'refused': {
      const moved = await moveReceipt(
        trx,
        row.id,
        ['issuing'],
        answer.retry
          ? {
              status: 'pending',
              next_attempt_at: toStoredInstant(nowMs + retryDelayMs(row.attempts)),
              last_error: `refused: ${answer.detail}`,
              last_error_code: answer.code,
              updated_at: now,
            }
          : {
              status: 'failed',
              next_attempt_at: null,
              last_error: `refused: ${answer.detail}`,
              last_error_code: answer.code,
              updated_at: now,
            },
        onTry,
      );
      if (moved !== undefined && (!answer.retry || row.attempts >= TRIES_BEFORE_ALERT)) {
        await alertMerchant(deps, trx, moved);
      }
      return;
    }
    case 'unavailable': {
      const moved = await moveReceipt(
        trx,
        row.id,
        ['issuing'],
        {
          status: 'pending',
          next_attempt_at: toStoredInstant(nowMs + retryDelayMs(row.attempts)),
          last_error: `not reached: ${answer.detail}`,
          last_error_code: null,
          updated_at: now,
        },
        onTry,
      );
      if (moved !== undefined && row.attempts >= TRIES_BEFORE_ALERT) await alertMerchant(deps, trx, moved);
      return;
    }
    case 'unknown':
      await moveReceipt(
        trx,
        row.id,
        ['issuing'],
        {
          status: 'unknown',
          next_attempt_at: toStoredInstant(nowMs + SEARCH_AFTER_MS),
          last_error: `outcome unknown: ${answer.detail}`,
          last_error_code: null,
          updated_at: now,
        },
        onTry,
      );
      return;
  }
}
