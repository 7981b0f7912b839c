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
 *   transaction. The operator's decision is business-review.ts.
 * - TIN: 8 digits. Armenian TINs are said to end with a check digit, but the State Revenue Committee
 *   publishes no algorithm, so only the form is checked (docs/decisions.md); the operator checks the
 *   number against the state register.
 */
import { createHash } from 'node:crypto';
import {
  findBusinessDocument,
  insertBusinessDocument,
  insertBusinessVerification,
  latestBusinessVerification,
  listBusinessDocuments,
} from '../../storage/business-verification.repository.js';
import type {
  BusinessDocumentSummary,
  BusinessVerificationDocumentRow,
  BusinessVerificationRow,
} from '../../storage/business-verification.table.js';
import type { Executor } from '../../storage/database.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { findMerchant } from '../../storage/merchant.repository.js';
import { type AuditActor, recordAudit } from '../dashboard/audit/audit.service.js';
import { toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { OperatorError } from './operator.js';

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
export function oneLine(value: string): string {
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

export function auditSubject(request: Pick<BusinessVerificationRow, 'legal_name' | 'tin'>): string {
  return `${request.legal_name} (TIN ${request.tin})`;
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
