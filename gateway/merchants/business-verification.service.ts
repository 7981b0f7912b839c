/**
 * Business verification (docs/dashboard.md "Business"): the merchant submits its legal name,
 * Armenian tax id (TIN), address, phone and documents from the dashboard; the operator verifies or
 * rejects the request with `bin/gateway business verify|reject`, and the merchant's owner (and the
 * merchant's own address) is emailed either way.
 *
 * - A merchant's state is `verified` when `merchants.business_verified` is set (also by the
 *   operator without any request: `merchant create --verify-business`, or `business verify` before
 *   the dashboard existed), else its newest request's status, else `not_submitted`.
 * - A request may be submitted when the state is `not_submitted` or `rejected`; never while one is
 *   pending (a partial unique index holds that across instances) or once verified.
 * - The request, its documents (bytes in the database) and the audit entry are written in one
 *   transaction; a decision, the merchant flag, the audit entry and the emails (to the outbox
 *   `merchant_emails`) likewise, so nothing is half done and no email is lost or sent for a
 *   decision that was rolled back.
 * - TIN: 8 digits. Armenian TINs are said to end with a check digit, but the State Revenue Committee
 *   publishes no algorithm, so only the form is checked (docs/decisions.md); the operator checks the
 *   number against the state register.
 */
import { createHash } from 'node:crypto';
import {
  decideBusinessVerification,
  findBusinessDocument,
  insertBusinessDocument,
  insertBusinessVerification,
  latestBusinessVerification,
  listBusinessDocuments,
  listPendingBusinessVerifications,
  pendingBusinessVerification,
} from '../../storage/business-verification.repository.js';
import type {
  BusinessDocumentSummary,
  BusinessVerificationDocumentRow,
  BusinessVerificationRow,
} from '../../storage/business-verification.table.js';
import type { Executor } from '../../storage/database.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { insertMerchantEmail } from '../../storage/merchant-email.repository.js';
import type { Language } from '../checkout/i18n/index.js';
import { type AuditActor, recordAudit } from '../dashboard/audit/audit.service.js';
import { toStoredInstant } from '../domain/clock.js';
import { nameInMail } from '../notifications/mail-names.js';
import type { Deps } from '../runtime/deps.js';
import { OperatorError, verifyBusiness } from './merchant.service.js';

export type BusinessStatus = 'not_submitted' | 'pending' | 'verified' | 'rejected';

export const BUSINESS_LIMITS = {
  legalNameMax: 200,
  addressMax: 300,
  reasonMax: 1000,
  maxDocuments: 5,
  maxDocumentBytes: 5 * 1024 * 1024,
  /** All documents of one request together. */
  maxTotalBytes: 15 * 1024 * 1024,
} as const;

/** The document types accepted, recognised by their first bytes (never by the declared type). */
export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

/** The type `bytes` really are, from their magic numbers, or null when not an accepted type. */
export function sniffDocumentType(bytes: Uint8Array): DocumentType | null {
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'; // %PDF-
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return null;
}

/**
 * A file name safe to store, print and send back in `Content-Disposition`: no directory, no control
 * or quoting characters, at most 100 characters, ending with the extension of its real type.
 */
export function safeFileName(raw: string, type: DocumentType): string {
  const base = (raw.split(/[/\\]/).at(-1) ?? '').normalize('NFC');
  const cleaned = base
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/_+/g, '_')
    .replace(/^[ .]+|[ .]+$/g, '');
  const extension = DOCUMENT_TYPES[type];
  const stem = cleaned.replace(/\.[^.]*$/, '').slice(0, 90) || 'document';
  return `${stem}.${extension}`;
}

export interface BusinessInput {
  readonly legalName: string;
  readonly tin: string;
  readonly address: string;
  readonly phone: string;
}

export interface DocumentUpload {
  /** The name the browser sent (it is made safe before it is stored). */
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

export type BusinessField = 'legal_name' | 'tin' | 'address' | 'phone' | 'documents';
export type BusinessProblem =
  | 'required'
  | 'too_long'
  | 'tin_format'
  | 'phone_format'
  | 'documents_required'
  | 'document_type'
  | 'document_empty'
  | 'document_too_large'
  | 'too_many_documents'
  | 'documents_too_large'
  | 'upload_broken';
export type BusinessProblems = Partial<Record<BusinessField, BusinessProblem>>;

/** Text on one line: control characters and runs of spaces become one space. */
function oneLine(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The TIN without spaces, when it is 8 digits. */
export function normalTin(raw: string): string | null {
  const compact = raw.replace(/\s+/g, '');
  return /^\d{8}$/.test(compact) ? compact : null;
}

/** An Armenian phone number as `+374` and 8 digits (spaces allowed in what was typed), else null. */
export function normalPhone(raw: string): string | null {
  const compact = raw.replace(/\s+/g, '');
  return /^\+374\d{8}$/.test(compact) ? compact : null;
}

export interface CheckedSubmission {
  readonly legalName: string;
  readonly tin: string;
  readonly address: string;
  readonly phone: string;
  readonly documents: ReadonlyArray<{ fileName: string; type: DocumentType; bytes: Uint8Array }>;
}

/** Checks a submission; answers its clean form, or the problem of each field. */
export function checkSubmission(
  input: BusinessInput,
  documents: readonly DocumentUpload[],
): { ok: true; value: CheckedSubmission } | { ok: false; problems: BusinessProblems } {
  const problems: BusinessProblems = {};
  const legalName = oneLine(input.legalName);
  if (legalName === '') problems.legal_name = 'required';
  else if (legalName.length > BUSINESS_LIMITS.legalNameMax) problems.legal_name = 'too_long';
  const tin = normalTin(input.tin);
  if (input.tin.trim() === '') problems.tin = 'required';
  else if (tin === null) problems.tin = 'tin_format';
  const address = oneLine(input.address);
  if (address === '') problems.address = 'required';
  else if (address.length > BUSINESS_LIMITS.addressMax) problems.address = 'too_long';
  const phone = normalPhone(input.phone);
  if (input.phone.trim() === '') problems.phone = 'required';
  else if (phone === null) problems.phone = 'phone_format';

  const checked: Array<{ fileName: string; type: DocumentType; bytes: Uint8Array }> = [];
  let total = 0;
  if (documents.length === 0) problems.documents = 'documents_required';
  else if (documents.length > BUSINESS_LIMITS.maxDocuments) problems.documents = 'too_many_documents';
  for (const document of documents) {
    if (problems.documents !== undefined) break;
    total += document.bytes.length;
    const type = sniffDocumentType(document.bytes);
    if (document.bytes.length === 0) problems.documents = 'document_empty';
    else if (document.bytes.length > BUSINESS_LIMITS.maxDocumentBytes) problems.documents = 'document_too_large';
    else if (total > BUSINESS_LIMITS.maxTotalBytes) problems.documents = 'documents_too_large';
    else if (type === null) problems.documents = 'document_type';
    else checked.push({ fileName: safeFileName(document.fileName, type), type, bytes: document.bytes });
  }
  if (Object.keys(problems).length > 0 || tin === null || phone === null) return { ok: false, problems };
  return { ok: true, value: { legalName, tin, address, phone, documents: checked } };
}

export interface BusinessState {
  readonly status: BusinessStatus;
  readonly businessVerified: boolean;
  /** The newest request, if any. */
  readonly request: BusinessVerificationRow | null;
  readonly documents: readonly BusinessDocumentSummary[];
}

/** The merchant's business verification as it stands (see the file comment). */
export async function readBusinessState(
  deps: Deps,
  merchantId: string,
  db: Executor = deps.db,
): Promise<BusinessState> {
  const merchant = await findMerchant(db, merchantId);
  if (merchant === undefined) throw new OperatorError(`no merchant with id ${merchantId}`);
  const request = (await latestBusinessVerification(db, merchantId)) ?? null;
  const documents = request === null ? [] : await listBusinessDocuments(db, request.id);
  const businessVerified = merchant.business_verified === 1;
  let status: BusinessStatus = 'not_submitted';
  if (businessVerified) status = 'verified';
  else if (request?.status === 'pending' || request?.status === 'rejected') status = request.status;
  return { status, businessVerified, request, documents };
}

/** Whether a (new) request may be submitted in this state. */
export function maySubmit(status: BusinessStatus): boolean {
  return status === 'not_submitted' || status === 'rejected';
}

export type SubmitResult =
  | { readonly kind: 'submitted'; readonly request: BusinessVerificationRow }
  | { readonly kind: 'invalid'; readonly problems: BusinessProblems }
  | { readonly kind: 'refused'; readonly status: BusinessStatus };

/**
 * Submits a request from the dashboard: checks it, then writes it `pending` with its documents and
 * the `business.submitted` audit entry in one transaction. Refused while a request is pending or
 * once the business is verified.
 */
export async function submitBusinessVerification(
  deps: Deps,
  input: {
    merchantId: string;
    actor: AuditActor;
    business: BusinessInput;
    documents: readonly DocumentUpload[];
  },
): Promise<SubmitResult> {
  const checked = checkSubmission(input.business, input.documents);
  if (!checked.ok) return { kind: 'invalid', problems: checked.problems };
  const value = checked.value;
  try {
    return await deps.transact(async (trx): Promise<SubmitResult> => {
      const state = await readBusinessState(deps, input.merchantId, trx);
      if (!maySubmit(state.status)) return { kind: 'refused', status: state.status };
      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const request: BusinessVerificationRow = {
        id: deps.ids.uuid(nowMs),
        merchant_id: input.merchantId,
        legal_name: value.legalName,
        tin: value.tin,
        address: value.address,
        phone: value.phone,
        status: 'pending',
        reason: null,
        submitted_by: input.actor.userId,
        submitted_at: now,
        decided_at: null,
        decided_by: null,
      };
      await insertBusinessVerification(trx, request);
      for (const document of value.documents) {
        await insertBusinessDocument(trx, {
          id: deps.ids.uuid(nowMs),
          verification_id: request.id,
          merchant_id: input.merchantId,
          file_name: document.fileName,
          content_type: document.type,
          size: document.bytes.length,
          sha256: createHash('sha256').update(document.bytes).digest('hex'),
          content: Buffer.from(document.bytes),
          created_at: now,
        });
      }
      await recordAudit(deps, trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: 'business.submitted',
        subject: auditSubject(request),
      });
      return { kind: 'submitted', request };
    });
  } catch (error) {
    // Another submission of the account won the race: one request is pending already.
    if (isUniqueViolation(error)) return { kind: 'refused', status: 'pending' };
    throw error;
  }
}

function auditSubject(request: Pick<BusinessVerificationRow, 'legal_name' | 'tin'>): string {
  return `${request.legal_name} (TIN ${request.tin})`;
}

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

/** The words of the decision email in each language of the service. */
const DECISION_TEXTS: Readonly<
  Record<
    Language,
    {
      readonly verifiedSubject: string;
      readonly verified: (legalName: string | null) => string;
      readonly liveNow: string;
      readonly rejectedSubject: string;
      readonly rejected: (legalName: string | null) => string;
      readonly reason: string;
      readonly again: string;
      readonly hello: string;
      readonly signature: string;
    }
  >
> = {
  en: {
    hello: 'Hello,',
    signature: 'Payment Gateway',
    verifiedSubject: 'Your business is verified',
    verified: (name) =>
      name === null ? 'We verified your business.' : `We checked the details you sent and verified ${name}.`,
    liveNow: 'You can now create live API keys and take live payments:',
    rejectedSubject: 'Business verification: changes needed',
    rejected: (name) => `We could not verify ${name ?? 'your business'} from the details you sent.`,
    reason: 'Reason:',
    again: 'Correct what is needed and send the form again:',
  },
  hy: {
    hello: 'Բարև Ձեզ,',
    signature: 'Վճարային դարպաս',
    verifiedSubject: 'Ձեր բիզնեսը հաստատված է',
    verified: (name) =>
      name === null
        ? 'Մենք հաստատեցինք ձեր բիզնեսը։'
        : `Մենք ստուգեցինք ձեր ուղարկած տվյալները և հաստատեցինք ${name} ընկերությունը։`,
    liveNow: 'Այժմ կարող եք ստեղծել իրական API բանալիներ և ընդունել իրական վճարումներ՝',
    rejectedSubject: 'Բիզնեսի հաստատում. անհրաժեշտ են փոփոխություններ',
    rejected: (name) =>
      name === null
        ? 'Ձեր ուղարկած տվյալներով չկարողացանք հաստատել ձեր բիզնեսը։'
        : `Ձեր ուղարկած տվյալներով չկարողացանք հաստատել ${name} ընկերությունը։`,
    reason: 'Պատճառը՝',
    again: 'Ուղղեք անհրաժեշտը և կրկին ուղարկեք ձևը՝',
  },
  ru: {
    hello: 'Здравствуйте!',
    signature: 'Платёжный шлюз',
    verifiedSubject: 'Ваш бизнес подтверждён',
    verified: (name) =>
      name === null ? 'Мы подтвердили ваш бизнес.' : `Мы проверили присланные данные и подтвердили ${name}.`,
    liveNow: 'Теперь вы можете создавать боевые API-ключи и принимать боевые платежи:',
    rejectedSubject: 'Подтверждение бизнеса: нужны исправления',
    rejected: (name) =>
      name === null
        ? 'Нам не удалось подтвердить ваш бизнес по присланным данным.'
        : `Нам не удалось подтвердить ${name} по присланным данным.`,
    reason: 'Причина:',
    again: 'Исправьте необходимое и отправьте форму ещё раз:',
  },
};

/** Subject and plain text of the decision email, in the account's language. */
export function decisionEmail(
  decision: { kind: 'verified' | 'rejected'; legalName: string | null; reason: string | null },
  publicUrl: string,
  language: Language = 'en',
): { subject: string; text: string } {
  const w = DECISION_TEXTS[language];
  // The legal name is the merchant's text: quoted and neutralised like every name a mail prints.
  const legalName = decision.legalName === null ? null : nameInMail(decision.legalName, language);
  if (decision.kind === 'verified') {
    return {
      subject: w.verifiedSubject,
      text: [w.hello, '', w.verified(legalName), w.liveNow, `  ${publicUrl}/dashboard`, '', '--', w.signature, ''].join(
        '\n',
      ),
    };
  }
  return {
    subject: w.rejectedSubject,
    text: [
      w.hello,
      '',
      w.rejected(legalName),
      '',
      w.reason,
      `  ${decision.reason ?? ''}`,
      '',
      w.again,
      `  ${publicUrl}/dashboard/business`,
      '',
      '--',
      w.signature,
      '',
    ].join('\n'),
  };
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

/** A document with its bytes: within the merchant (the dashboard), or any (the operator). */
export async function readBusinessDocument(
  deps: Deps,
  id: string,
  merchantId?: string,
): Promise<(Omit<BusinessVerificationDocumentRow, 'content'> & { content: Buffer }) | undefined> {
  const row = await findBusinessDocument(deps.db, id, merchantId);
  if (row === undefined) return undefined;
  return { ...row, content: Buffer.from(row.content) };
}
