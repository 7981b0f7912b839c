/**
 * The durable issuing of fiscal receipts (docs/receipts.md "Exactly once"): due work that takes
 * receipt rows to the fiscal system, so that each is issued once, whatever retries, restarts and
 * instances do.
 *
 * - A claim (one short transaction, FOR UPDATE SKIP LOCKED on PostgreSQL) moves a `pending` row to
 *   `issuing` with a fresh sequence number of its register and a lease, before anything is sent.
 *   Two instances never try one receipt at once, and a try is on record before it starts.
 * - The answer is applied conditionally on that try (status and seq): issued; refused (nothing was
 *   issued: tried again later with back-off, or `failed` when it never can be); unavailable
 *   (nothing reached the system: tried again later); unknown (it may have been issued).
 * - A receipt whose try had an unknown outcome, or whose lease lapsed (the process died mid-try),
 *   is never sent again blindly: the register is searched for it first. Found: it is issued.
 *   Absent: a new try. Undecided: it stays `unknown`, searched again later, and after
 *   `SEARCHES_BEFORE_ALERT` searches the merchant is asked to decide (`receipts resolve`).
 * - One instance at a time calls a register (a lease on `fiscal_registers`), and makes its tries
 *   one after another in the order of their sequence numbers, so they reach it in that order.
 * - The merchant is emailed at most once per domain every 6 hours when receipts are refused, failed
 *   or cannot be issued.
 */
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import {
  anyReceiptDue,
  claimDueReceipts,
  findReceipt,
  findRegister,
  leaseRegister,
  moveReceipt,
  nextRegisterSeq,
  releaseRegister,
} from '../../storage/receipt.repository.js';
import type { ReceiptRow, ReceiptStatus } from '../../storage/receipt.table.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { StoredLine, StoredReturnLine } from '../domain/receipt-lines.js';
import { queueMerchantEmail } from '../notifications/merchant-emails.js';
import { counterpartKey } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import type { FiscalSystem, IssueAnswer, SearchAnswer } from './fiscal-system.js';
import { afterIssued, issuedColumns } from './receipts.service.js';
import { type DomainReceipts, domainReceipts } from './settings.js';

/** How long a claimed try belongs to its instance: well above the adapters' 20 s answer wait. */
export const TRY_LEASE_MS = 2 * MINUTE_MS;
/** How long after a try with an unknown outcome the register is searched for its receipt. */
export const SEARCH_AFTER_MS = MINUTE_MS;
/** Waits before the next try after a try that issued nothing, by tries made so far; the last repeats. */
export const RETRY_AFTER_MS = [
  MINUTE_MS,
  2 * MINUTE_MS,
  5 * MINUTE_MS,
  10 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  2 * HOUR_MS,
  4 * HOUR_MS,
  6 * HOUR_MS,
] as const;
/**
 * Tries one claim makes on one register: they go out one after another, each waiting up to the
 * adapter's 20 s, so that all of them end well within their lease.
 */
export const MAX_TRIES_PER_REGISTER = 4;
/** A return whose sale is not issued yet waits; the sale's issuing makes it due at once. */
export const RETURN_WAITS_FOR_SALE_MS = HOUR_MS;
/** Undecided searches of one receipt before the merchant is asked to decide. */
export const SEARCHES_BEFORE_ALERT = 3;
/** Tries that issued nothing before the merchant is told that receipts are not being issued. */
export const TRIES_BEFORE_ALERT = 3;
/** At most one receipts email per domain in this interval. */
export const ALERT_INTERVAL_MS = 6 * HOUR_MS;
export const RECEIPTS_ALERT_KIND = 'receipts_not_issued';

export function retryDelayMs(tries: number): number {
  const index = Math.min(Math.max(tries, 1), RETRY_AFTER_MS.length) - 1;
  return RETRY_AFTER_MS[index] as number;
}

type Fiscal = Extract<DomainReceipts, { kind: 'fiscal' }>;

interface Task {
  readonly kind: 'issue' | 'search';
  readonly row: ReceiptRow;
  readonly settings: Fiscal;
  /** The sale receipt of a return. */
  readonly sale: ReceiptRow | undefined;
  /** The counterpart the task calls (`counterpartKey` of the system at its address). */
  readonly counterpart: string;
}

/** The tries and searches one claim leased a register for, made one after another in `seq` order. */
export interface RegisterWork {
  /** `<system>:<register number>`. */
  readonly register: string;
  /** The fiscal system's address the calls go to (gateway/processors/counterparts.ts). */
  readonly counterpart: string;
  readonly tasks: readonly Task[];
  /** The lease the register is held under (released when the work ends). */
  readonly lease: string;
}

/** What the claim may start: how many registers of a counterpart (see `RegisterWork`) may still be called. */
export interface ClaimRoom {
  /** Domains whose register this instance is calling now: their rows are left for later, unread. */
  readonly skipDomains: readonly string[];
  /** Registers of `counterpart` the claim may still start work for (Infinity: no bound). */
  roomFor(counterpart: string): number;
}

const UNBOUNDED: ClaimRoom = { skipDomains: [], roomFor: () => Number.POSITIVE_INFINITY };

/** Issues (or searches for) one batch of due receipts and waits for it; answers how many rows it claimed. */
export async function issueDueReceipts(deps: Deps, limit = 20): Promise<number> {
  const { handled, work } = await claimReceipts(deps, limit, UNBOUNDED);
  await Promise.all(work.map((one) => runRegisterWork(deps, one)));
  return handled;
}

/**
 * Claims one batch of due receipts (see `claim`): answers how many rows it handled (moved on in any
 * way) and the work to start, one `RegisterWork` per register leased.
 */
export async function claimReceipts(
  deps: Deps,
  limit: number,
  room: ClaimRoom,
): Promise<{ handled: number; work: RegisterWork[] }> {
  // Most ticks find nothing due: a read answers that without taking the database's write lock.
  if (!(await anyReceiptDue(deps.db, toStoredInstant(deps.clock.nowMs())))) return { handled: 0, work: [] };
  const { handled, tasks, lease } = await deps.transact((trx) => claim(deps, trx, limit, room));
  const byRegister = new Map<string, Task[]>();
  for (const task of tasks) {
    const register = task.row.register as string;
    byRegister.set(register, [...(byRegister.get(register) ?? []), task]);
  }
  const work = [...byRegister.entries()].map(([register, queue]) => ({
    register,
    counterpart: queue[0]?.counterpart ?? '',
    tasks: queue,
    lease,
  }));
  return { handled, work };
}

/** Makes one register's tries and searches one after another, then gives the register back. */
export async function runRegisterWork(deps: Deps, work: RegisterWork): Promise<void> {
  for (const task of work.tasks) {
    try {
      await (task.kind === 'issue' ? issue(deps, task) : search(deps, task));
    } catch (error) {
      // The try is on record (issuing/unknown with a lease): when the lease lapses the
      // register is searched, so nothing is issued twice.
      deps.logger.error({ err: error, receipt: task.row.id }, 'could not finish a receipt try');
    }
  }
  await releaseRegister(deps.db, work.register, work.lease);
  // Issued receipts release or write events, and queued emails: the dispatcher and mailer run next.
  deps.dueSignal.notify();
}

/**
 * Claims due rows: answers the tries and searches to make now, the lease they run under, and how
 * many rows were handled (moved on in any way). A row of a register another instance is calling is
 * left due, uncounted, for that instance or a later run.
 */
async function claim(
  deps: Deps,
  trx: Executor,
  limit: number,
  room: ClaimRoom,
): Promise<{ handled: number; tasks: Task[]; lease: string }> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const lease = toStoredInstant(nowMs + TRY_LEASE_MS);
  const rows = await claimDueReceipts(trx, now, limit, deps.dialect === 'postgres', room.skipDomains);
  /** Registers this claim starts work for, by counterpart: bounded by `room`. */
  const started = new Map<string, Set<string>>();
  const hasRoom = (counterpart: string, register: string): boolean => {
    const registers = started.get(counterpart) ?? new Set<string>();
    if (registers.has(register)) return true;
    if (registers.size >= room.roomFor(counterpart)) return false;
    registers.add(register);
    started.set(counterpart, registers);
    return true;
  };
  /**
   * A row whose fiscal system's calls are paused (its breaker is open) waits until they may be
   * made: no sequence number is taken and no try is counted. Answers whether the row waits.
   */
  const waitsForCounterpart = async (row: ReceiptRow, settings: Fiscal): Promise<boolean> => {
    const refusal = deps.counterparts.refusal(settings.slug, settings.system.serviceUrl(settings.call.config));
    if (refusal === null) return false;
    await moveReceipt(
      trx,
      row.id,
      [row.status],
      {
        // A try whose process died is searched for, as always, once calls may be made again.
        ...(row.status === 'issuing' ? { status: 'unknown' as const } : {}),
        next_attempt_at: toStoredInstant(nowMs + refusal.retryInMs),
        last_error: `not tried: the fiscal system did not answer recently, calls are paused`,
        updated_at: now,
      },
      row.status === 'pending' ? {} : { seq: row.seq },
    );
    return true;
  };
  const tasks: Task[] = [];
  const registers = new Map<string, boolean>();
  const mayCall = async (register: string): Promise<boolean> => {
    let taken = registers.get(register);
    if (taken === undefined) {
      taken = await leaseRegister(trx, register, { now, until: lease, lock: deps.dialect === 'postgres' });
      registers.set(register, taken);
    }
    return taken;
  };
  // Opening settings checks the credentials (the key with its passphrase): once per domain per claim.
  const opened = new Map<string | null, Promise<DomainReceipts>>();
  const settingsOf = (domainId: string | null): Promise<DomainReceipts> => {
    let settings = opened.get(domainId);
    if (settings === undefined) {
      settings = domainReceipts(deps, trx, domainId);
      opened.set(domainId, settings);
    }
    return settings;
  };
  let handled = 0;
  for (const row of rows) {
    const sale =
      row.type === 'return' && row.sale_receipt_id !== null ? await findReceipt(trx, row.sale_receipt_id) : undefined;
    const settings = await settingsOf(row.domain_id);
    if (row.status === 'pending') {
      if (row.type === 'return' && sale?.status !== 'issued') {
        await moveReceipt(trx, row.id, ['pending'], {
          next_attempt_at: toStoredInstant(nowMs + RETURN_WAITS_FOR_SALE_MS),
          last_error: 'waiting for the sale receipt to be issued',
          last_error_code: null,
          updated_at: now,
        });
        handled += 1;
        continue;
      }
      if (settings.kind !== 'fiscal') {
        const detail =
          settings.kind === 'broken' ? settings.detail : 'fiscal receipts are no longer enabled on this domain';
        const failed = await moveReceipt(trx, row.id, ['pending'], {
          status: 'failed',
          next_attempt_at: null,
          last_error: detail,
          last_error_code: null,
          updated_at: now,
        });
        if (failed !== undefined) await alertMerchant(deps, trx, failed);
        handled += 1;
        continue;
      }
      if (await waitsForCounterpart(row, settings)) {
        handled += 1;
        continue;
      }
      const register = `${settings.slug}:${settings.system.registerOf(settings.call.config)}`;
      const counterpart = counterpartKey(settings.slug, settings.system.serviceUrl(settings.call.config));
      if (!hasRoom(counterpart, register)) continue;
      if (!(await mayCall(register))) continue;
      if (tasks.filter((task) => task.row.register === register).length >= MAX_TRIES_PER_REGISTER) continue;
      const seq = await nextRegisterSeq(trx, register, now);
      const known = await findRegister(trx, register);
      const tried = await moveReceipt(trx, row.id, ['pending'], {
        status: 'issuing',
        register,
        seq,
        attempts: row.attempts + 1,
        attempt_started_at: now,
        first_attempt_at: row.first_attempt_at ?? now,
        search_after: known?.last_fiscal_id ?? null,
        next_attempt_at: lease,
        updated_at: now,
      });
      if (tried !== undefined) tasks.push({ kind: 'issue', row: tried, settings, sale, counterpart });
      handled += 1;
      continue;
    }
    // `issuing` past its lease (the try's process died) or `unknown`: search before anything else.
    if (settings.kind !== 'fiscal') {
      await moveReceipt(
        trx,
        row.id,
        [row.status],
        {
          status: 'unknown',
          next_attempt_at: toStoredInstant(nowMs + retryDelayMs(RETRY_AFTER_MS.length)),
          last_error: 'the outcome of a try is unknown and the domain has no usable fiscal settings to search with',
          updated_at: now,
        },
        { seq: row.seq },
      );
      handled += 1;
      continue;
    }
    if (await waitsForCounterpart(row, settings)) {
      handled += 1;
      continue;
    }
    const searchCounterpart = counterpartKey(settings.slug, settings.system.serviceUrl(settings.call.config));
    if (row.register === null || !hasRoom(searchCounterpart, row.register)) continue;
    if (!(await mayCall(row.register))) continue;
    const searching = await moveReceipt(
      trx,
      row.id,
      [row.status],
      { status: 'unknown', next_attempt_at: lease, updated_at: now },
      { seq: row.seq },
    );
    if (searching !== undefined) {
      tasks.push({ kind: 'search', row: searching, settings, sale, counterpart: searchCounterpart });
    }
    handled += 1;
  }
  // A register leased for rows that all turned out to need nothing is given back at once.
  for (const [register, taken] of registers) {
    if (taken && !tasks.some((task) => task.row.register === register)) await releaseRegister(trx, register, lease);
  }
  return { handled, tasks, lease };
}

async function issue(deps: Deps, task: Task): Promise<void> {
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

async function search(deps: Deps, task: Task): Promise<void> {
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

/** Emails the merchant about a receipt that is not being issued, at most once per domain every 6 hours. */
async function alertMerchant(deps: Deps, trx: Executor, row: ReceiptRow): Promise<void> {
  if (row.domain_id === null) return;
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const slot = await trx
    .updateTable('domain_receipts')
    .set({ alert_email_at: now })
    .where('domain_id', '=', row.domain_id)
    .where((eb) =>
      eb.or([eb('alert_email_at', 'is', null), eb('alert_email_at', '<=', toStoredInstant(nowMs - ALERT_INTERVAL_MS))]),
    )
    .executeTakeFirst();
  if (slot.numUpdatedRows === 0n) return;
  const merchant = await findMerchant(trx, row.merchant_id);
  const domain = await trx.selectFrom('domains').select('host').where('id', '=', row.domain_id).executeTakeFirst();
  const counts = await trx
    .selectFrom('receipts')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('domain_id', '=', row.domain_id)
    .where('status', 'in', ['pending', 'issuing', 'unknown', 'failed'])
    .groupBy('status')
    .execute();
  const count = (statuses: ReceiptStatus[]) =>
    counts.filter((c) => statuses.includes(c.status)).reduce((sum, c) => sum + Number(c.n), 0);
  const host = domain?.host ?? row.domain_id;
  await queueMerchantEmail(deps, trx, {
    merchantId: row.merchant_id,
    domainId: row.domain_id,
    kind: RECEIPTS_ALERT_KIND,
    recipient: merchant?.email ?? null,
    subject: `Fiscal receipts for ${host} are not being issued`,
    text: [
      `Fiscal receipts for payments on ${host} are not being issued.`,
      '',
      `Last problem (receipt ${row.id}): ${row.last_error ?? 'unknown'}`,
      '',
      `Waiting to be issued: ${count(['pending', 'issuing'])}`,
      `Outcome unknown (the register is searched before anything is issued again): ${count(['unknown'])}`,
      `Refused for good: ${count(['failed'])}`,
      '',
      'What to do:',
      '- If the fiscal system is down, nothing is needed: receipts are tried again with back-off.',
      '- If it refuses the settings (certificate, register number, cashier, department), give them again',
      '  with `receipts enable`: receipts that failed are then tried again.',
      '- A receipt whose outcome stays unknown needs you to look in the register and say what happened:',
      '  `receipts resolve --receipt ID --fiscal-id N` (it was issued) or `--not-issued`.',
      '',
      'You get this email at most once every 6 hours per domain.',
    ].join('\n'),
  });
}
