/**
 * `gateway business verify|reject|list|show|document`: the operator's side of business
 * verification (gateway/merchants/business-review.ts). `--json` shapes (README "CLI"):
 *
 * - `business verify`: `{merchant_id, business_verified: true, status: "verified", verification_id,
 *   reason: null, decided_at, emails: [{to, status}]}` (`verification_id` null when the merchant had
 *   sent no request);
 * - `business reject`: the same with `business_verified: false`, `status: "rejected"` and the reason;
 * - `business list --pending`: `{business_verifications: [{verification_id, merchant_id,
 *   merchant_name, legal_name, tin, address, phone, submitted_at, documents}]}`, oldest first;
 * - `business show`: `{merchant_id, status, business_verified, verification, documents}`;
 * - `business document`: `{id, file_name, content_type, size, sha256, out}`.
 *
 * A decision's emails are written to the outbox with the decision; with `SMTP_URL` set the command
 * sends them at once, otherwise (or if sending fails) the running gateway sends them (`status`
 * `pending` in the answer).
 */
import { writeFile } from 'node:fs/promises';
import {
  type BusinessDecision,
  listPendingBusiness,
  rejectBusinessVerification,
  verifyBusinessVerification,
} from '../../merchants/business-review.js';
import { readBusinessDocument, readBusinessState } from '../../merchants/business-verification.service.js';
import { OperatorError } from '../../merchants/operator.js';
import { createMailer } from '../../notifications/mailer.js';
import { sendMerchantEmailsNow } from '../../notifications/merchant-emails.js';
import type { Deps } from '../../runtime/deps.js';
import type { CommandTable, Run } from '../command.js';
import { required, UsageError } from '../options.js';
import { formatTable } from '../table.js';

interface EmailOutcome {
  to: string;
  /** `sent`, `pending` (the running gateway sends it), `logged` (no SMTP), `failed`. */
  status: string;
}

/** Sends the decision's emails now when this process has SMTP; answers each one's state. */
async function deliver(deps: Deps, decision: BusinessDecision): Promise<EmailOutcome[]> {
  const ids = decision.emails.map((e) => e.id);
  if (deps.config.smtpUrl !== undefined && ids.length > 0) {
    const mailer = createMailer(deps.config, deps.logger);
    try {
      await sendMerchantEmailsNow(deps, mailer, ids);
    } finally {
      mailer.close();
    }
  }
  if (ids.length === 0) return [];
  const rows = await deps.db.selectFrom('merchant_emails').select(['id', 'status']).where('id', 'in', ids).execute();
  const statusOf = new Map(rows.map((r) => [r.id, r.status]));
  return decision.emails.map((e) => ({ to: e.to, status: statusOf.get(e.id) ?? 'pending' }));
}

function emailLines(emails: readonly EmailOutcome[]): string[] {
  return emails.map((e) => {
    const to = e.to;
    switch (e.status) {
      case 'sent':
        return `Emailed ${to}.`;
      case 'pending':
        return `Email to ${to} queued: the running gateway sends it.`;
      case 'logged':
        return `Email to ${to} written to the log (no SMTP).`;
      default:
        return `Email to ${to}: ${e.status}.`;
    }
  });
}

function decisionJson(decision: BusinessDecision, emails: readonly EmailOutcome[]) {
  return {
    merchant_id: decision.merchant_id,
    business_verified: decision.business_verified,
    status: decision.status,
    verification_id: decision.verification_id,
    reason: decision.reason,
    decided_at: decision.decided_at,
    emails,
  };
}

export function businessVerify(merchantId: string): Run {
  return async (deps) => {
    const decision = await verifyBusinessVerification(deps, merchantId);
    const emails = await deliver(deps, decision);
    return {
      json: decisionJson(decision, emails),
      text: [`Business of merchant ${merchantId} verified: live keys now work.`, ...emailLines(emails)].join('\n'),
    };
  };
}

export function businessReject(merchantId: string, reason: string): Run {
  return async (deps) => {
    const decision = await rejectBusinessVerification(deps, merchantId, reason);
    const emails = await deliver(deps, decision);
    return {
      json: decisionJson(decision, emails),
      text: [
        `Business verification request ${decision.verification_id} of merchant ${merchantId} rejected: ${decision.reason}`,
        ...emailLines(emails),
      ].join('\n'),
    };
  };
}

export function businessListPending(): Run {
  return async (deps) => {
    const pending = await listPendingBusiness(deps);
    if (pending.length === 0) {
      return { json: { business_verifications: [] }, text: 'No business verification request is pending.' };
    }
    const header = ['SUBMITTED', 'MERCHANT', 'LEGAL NAME', 'TIN', 'PHONE', 'DOCS'];
    const rows = pending.map((p) => [p.submitted_at, p.merchant_id, p.legal_name, p.tin, p.phone, String(p.documents)]);
    return { json: { business_verifications: pending }, text: formatTable(header, rows) };
  };
}

export function businessShow(merchantId: string): Run {
  return async (deps) => {
    const state = await readBusinessState(deps, merchantId);
    const request = state.request;
    const documents = state.documents.map((d) => ({
      id: d.id,
      file_name: d.file_name,
      content_type: d.content_type,
      size: d.size,
      sha256: d.sha256,
    }));
    const verification =
      request === null
        ? null
        : {
            id: request.id,
            status: request.status,
            legal_name: request.legal_name,
            tin: request.tin,
            address: request.address,
            phone: request.phone,
            reason: request.reason,
            submitted_at: request.submitted_at,
            decided_at: request.decided_at,
          };
    const lines = [`Merchant ${merchantId}: ${state.status.replace('_', ' ')}.`];
    if (request !== null) {
      lines.push(
        `Request ${request.id} (${request.status}), sent ${request.submitted_at}${request.decided_at === null ? '' : `, decided ${request.decided_at}`}`,
        `  Legal name: ${request.legal_name}`,
        `  TIN:        ${request.tin}`,
        `  Address:    ${request.address}`,
        `  Phone:      ${request.phone}`,
        ...(request.reason === null ? [] : [`  Reason:     ${request.reason}`]),
        ...documents.map((d) => `  Document ${d.id}  ${d.content_type}  ${d.size} bytes  ${d.file_name}`),
      );
    }
    return {
      json: {
        merchant_id: merchantId,
        status: state.status,
        business_verified: state.businessVerified,
        verification,
        documents,
      },
      text: lines.join('\n'),
    };
  };
}

export function businessDocument(id: string, out: string): Run {
  return async (deps) => {
    const document = /^[0-9a-f-]{36}$/.test(id) ? await readBusinessDocument(deps, id) : undefined;
    if (document === undefined) throw new OperatorError(`no business document with id ${id}`);
    try {
      // Never over an existing file: the operator names a new one.
      await writeFile(out, document.content, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EEXIST') throw new OperatorError(`${out} exists already: name a new file`);
      throw new OperatorError(`cannot write ${out}: ${typeof code === 'string' ? code : 'error'}`);
    }
    return {
      json: {
        id: document.id,
        file_name: document.file_name,
        content_type: document.content_type,
        size: document.size,
        sha256: document.sha256,
        out,
      },
      text: `Wrote ${document.file_name} (${document.content_type}, ${document.size} bytes) to ${out}.`,
    };
  };
}

export const businessCommands: CommandTable = {
  'business verify': (values) => businessVerify(required(values, 'merchant')),
  'business reject': (values) => businessReject(required(values, 'merchant'), required(values, 'reason')),
  'business list': (values) => {
    if (values.pending !== true) throw new UsageError('--pending is required: the list shows pending requests');
    return businessListPending();
  },
  'business show': (values) => businessShow(required(values, 'merchant')),
  'business document': (values) => businessDocument(required(values, 'id'), required(values, 'out')),
};
