/**
 * The operator's side of business verification (`bin/gateway business ...`): the queue of pending
 * requests, and the decision. Verifying or rejecting writes the request's status, the merchant
 * flag, the audit entry and the emails to the outbox (`merchant_emails`) in one transaction, so
 * nothing is half done and no email is lost or sent for a decision that was rolled back.
 */
import {
  decideBusinessVerification,
  listPendingBusinessVerifications,
  pendingBusinessVerification,
} from '../../storage/business-verification.repository.js';
import type { Executor } from '../../storage/database.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { insertMerchantEmail } from '../../storage/merchant-email.repository.js';
import { recordAudit } from '../dashboard/audit/audit.service.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { decisionEmail } from './business-decision-email.js';
import { auditSubject, BUSINESS_LIMITS, oneLine } from './business-verification.service.js';
import { verifyBusiness } from './merchant.service.js';
import { OperatorError } from './operator.js';

/** One email a decision queued in the outbox (`merchant_emails`). */
export interface QueuedEmail {
  readonly id: string;
  readonly to: string;
}

export interface BusinessDecision {
  readonly merchant_id: string;
  readonly business_verified: boolean;
  readonly status: 'verified' | 'rejected';
  /** The request decided; null when the operator verified a business that had sent none. */
  readonly verification_id: string | null;
  readonly reason: string | null;
  readonly decided_at: string;
  readonly emails: readonly QueuedEmail[];
}

export const BUSINESS_EMAIL_KINDS = { verified: 'business_verified', rejected: 'business_rejected' } as const;

/**
 * The operator verifies the merchant's business: `merchants.business_verified` is set (through
 * `verifyBusiness`, also when no request was ever sent), the pending request (if any) becomes
 * `verified`, the `business.verified` audit entry and the emails are written, in one transaction.
 */
export async function verifyBusinessVerification(deps: Deps, merchantId: string): Promise<BusinessDecision> {
  const decision = await deps.transact(async (trx) => {
    await verifyBusiness(deps, merchantId, trx);
    const now = toStoredInstant(deps.clock.nowMs());
    const pending = await pendingBusinessVerification(trx, merchantId);
    if (pending !== undefined) {
      await decideBusinessVerification(trx, pending.id, {
        status: 'verified',
        reason: null,
        decided_at: now,
        decided_by: 'operator',
      });
    }
    await recordAudit(deps, trx, {
      merchantId,
      actor: null,
      action: 'business.verified',
      subject: pending === undefined ? null : auditSubject(pending),
    });
    const emails = await queueDecisionEmails(deps, trx, merchantId, {
      kind: 'verified',
      legalName: pending?.legal_name ?? null,
      reason: null,
    });
    return {
      merchant_id: merchantId,
      business_verified: true,
      status: 'verified' as const,
      verification_id: pending?.id ?? null,
      reason: null,
      decided_at: now,
      emails,
    };
  });
  deps.dueSignal.notify();
  return decision;
}

/** The reason of a rejection: required, on one line, at most 1000 characters. */
export function checkReason(raw: string): string {
  const reason = oneLine(raw);
  if (reason === '') throw new OperatorError('a reason is required: it is emailed to the merchant');
  if (reason.length > BUSINESS_LIMITS.reasonMax) {
    throw new OperatorError(`the reason may be at most ${BUSINESS_LIMITS.reasonMax} characters`);
  }
  return reason;
}

/**
 * The operator rejects the merchant's pending request with a reason the merchant reads (page and
 * email); the merchant may then send a corrected one.
 */
export async function rejectBusinessVerification(
  deps: Deps,
  merchantId: string,
  rawReason: string,
): Promise<BusinessDecision> {
  const reason = checkReason(rawReason);
  const decision = await deps.transact(async (trx) => {
    if ((await findMerchant(trx, merchantId)) === undefined) {
      throw new OperatorError(`no merchant with id ${merchantId}`);
    }
    const pending = await pendingBusinessVerification(trx, merchantId);
    if (pending === undefined) {
      throw new OperatorError(`merchant ${merchantId} has no pending business verification request`);
    }
    const now = toStoredInstant(deps.clock.nowMs());
    await decideBusinessVerification(trx, pending.id, {
      status: 'rejected',
      reason,
      decided_at: now,
      decided_by: 'operator',
    });
    await recordAudit(deps, trx, {
      merchantId,
      actor: null,
      action: 'business.rejected',
      subject: auditSubject(pending),
    });
    const emails = await queueDecisionEmails(deps, trx, merchantId, {
      kind: 'rejected',
      legalName: pending.legal_name,
      reason,
    });
    return {
      merchant_id: merchantId,
      business_verified: false,
      status: 'rejected' as const,
      verification_id: pending.id,
      reason,
      decided_at: now,
      emails,
    };
  });
  deps.dueSignal.notify();
  return decision;
}

/** Who hears of a decision: the account's owners and the merchant's own address, each once. */
async function decisionRecipients(trx: Executor, merchantId: string): Promise<string[]> {
  const owners = await trx
    .selectFrom('dashboard_users')
    .select('email')
    .where('merchant_id', '=', merchantId)
    .where('role', '=', 'owner')
    .orderBy('created_at')
    .execute();
  const merchant = await findMerchant(trx, merchantId);
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const email of [...owners.map((o) => o.email), merchant?.email ?? null]) {
    if (email === null || email === '') continue;
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(email);
  }
  return recipients;
}

async function queueDecisionEmails(
  deps: Deps,
  trx: Executor,
  merchantId: string,
  decision: { kind: 'verified' | 'rejected'; legalName: string | null; reason: string | null },
): Promise<QueuedEmail[]> {
  const recipients = await decisionRecipients(trx, merchantId);
  const language = (await findMerchant(trx, merchantId))?.language ?? 'en';
  const content = decisionEmail(decision, deps.config.publicUrl, language);
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  const queued: QueuedEmail[] = [];
  // An account without any address (made by the CLI without --email, no dashboard owner) hears nothing.
  for (const to of recipients) {
    const id = deps.ids.uuid(nowMs);
    await insertMerchantEmail(trx, {
      id,
      merchant_id: merchantId,
      domain_id: null,
      kind: BUSINESS_EMAIL_KINDS[decision.kind],
      recipient: to,
      subject: content.subject,
      body: content.text,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created_at: now,
      sent_at: null,
    });
    queued.push({ id, to });
  }
  return queued;
}

export interface PendingBusinessVerification {
  readonly verification_id: string;
  readonly merchant_id: string;
  readonly merchant_name: string;
  readonly legal_name: string;
  readonly tin: string;
  readonly address: string;
  readonly phone: string;
  readonly submitted_at: string;
  readonly documents: number;
}

/** Every pending request, oldest first (the operator's queue). */
export async function listPendingBusiness(deps: Deps): Promise<PendingBusinessVerification[]> {
  const rows = await listPendingBusinessVerifications(deps.db);
  return rows.map((row) => ({
    verification_id: row.id,
    merchant_id: row.merchant_id,
    merchant_name: row.merchant_name,
    legal_name: row.legal_name,
    tin: row.tin,
    address: row.address,
    phone: row.phone,
    submitted_at: row.submitted_at,
    documents: row.documents,
  }));
}
