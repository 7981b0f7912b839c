/**
 * The durable issuing of fiscal receipts (docs/receipts.md "Exactly once"): due work that takes
 * receipt rows to the fiscal system, so that each is issued once, whatever retries, restarts and
 * instances do.
 *
 * - A claim (one short transaction, FOR UPDATE SKIP LOCKED on PostgreSQL) moves a `pending` row to
 *   `issuing` with a fresh sequence number of its register and a lease, before anything is sent.
 *   Two instances never try one receipt at once, and a try is on record before it starts.
 * - The answer is applied conditionally on that try (issue-try.ts): issued; refused (nothing was
 *   issued: tried again later with back-off, or `failed` when it never can be); unavailable
 *   (nothing reached the system: tried again later); unknown (it may have been issued).
 * - A receipt whose try had an unknown outcome, or whose lease lapsed (the process died mid-try),
 *   is never sent again blindly: the register is searched for it first (register-search.ts).
 * - One instance at a time calls a register (a lease on `fiscal_registers`), and makes its tries
 *   one after another in the order of their sequence numbers, so they reach it in that order.
 * - The merchant is emailed at most once per domain every 6 hours when receipts are refused, failed
 *   or cannot be issued (receipts-alert.ts); the timing of all of it is issuing-schedule.ts.
 */
import type { Executor } from '../../storage/database.js';
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
import type { ReceiptRow } from '../../storage/receipt.table.js';
import { toStoredInstant } from '../domain/clock.js';
import { counterpartKey } from '../processors/counterparts.js';
import type { Deps } from '../runtime/deps.js';
import { issue } from './issue-try.js';
import {
  MAX_TRIES_PER_REGISTER,
  RETRY_AFTER_MS,
  RETURN_WAITS_FOR_SALE_MS,
  retryDelayMs,
  TRY_LEASE_MS,
} from './issuing-schedule.js';
import type { Fiscal, Task } from './issuing-task.js';
import { alertMerchant } from './receipts-alert.js';
import { search } from './register-search.js';
import { type DomainReceipts, domainReceipts } from './settings.js';

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
