import type { Insertable, Selectable } from 'kysely';

export type BusinessVerificationStatus = 'pending' | 'verified' | 'rejected';

/** A merchant's request to have its business verified (migration 0014). */
export interface BusinessVerificationTable {
  /** A time-ordered uuid (v7). */
  id: string;
  merchant_id: string;
  legal_name: string;
  /** The Armenian tax id (TIN, ՀՎՀՀ): 8 digits. */
  tin: string;
  address: string;
  /** `+374` and 8 digits, as given (spaces kept). */
  phone: string;
  status: BusinessVerificationStatus;
  /** Why the operator rejected it; null otherwise. */
  reason: string | null;
  /** The dashboard user who submitted it. */
  submitted_by: string | null;
  submitted_at: string;
  decided_at: string | null;
  /** Who decided: `operator` (bin/gateway); null while pending. */
  decided_by: string | null;
}

/** A document of a request: its bytes are kept in the row (bytea / blob). */
export interface BusinessVerificationDocumentTable {
  id: string;
  verification_id: string;
  merchant_id: string;
  /** The name it was uploaded with, made safe (no path, no control characters). */
  file_name: string;
  /** The type its first bytes show (`application/pdf`, `image/png`, `image/jpeg`), not the declared one. */
  content_type: string;
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
  content: Uint8Array;
  created_at: string;
}

export type BusinessVerificationRow = Selectable<BusinessVerificationTable>;
export type NewBusinessVerificationRow = Insertable<BusinessVerificationTable>;
export type BusinessVerificationDocumentRow = Selectable<BusinessVerificationDocumentTable>;
export type NewBusinessVerificationDocumentRow = Insertable<BusinessVerificationDocumentTable>;
/** A document without its bytes: what lists show. */
export type BusinessDocumentSummary = Omit<BusinessVerificationDocumentRow, 'content'>;
