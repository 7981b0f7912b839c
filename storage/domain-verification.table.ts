import type { Insertable, Selectable } from 'kysely';
import type { VerificationMethod } from '../gateway/domain/domain-verification.js';

/** A domain's verification token and the outcome of its last check. */
export interface DomainVerificationTable {
  domain_id: string;
  /** Random, shown to the merchant as the TXT value and the file's content. */
  token: string;
  /** How the domain was proven (null: not by a check; the operator's override or the hosted domain). */
  verified_method: VerificationMethod | null;
  verified_at: string | null;
  /** When the last check ran, by which method, and why it failed (null codes: it passed). */
  checked_at: string | null;
  check_method: VerificationMethod | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: string;
  updated_at: string;
}

export type DomainVerificationRow = Selectable<DomainVerificationTable>;
export type NewDomainVerificationRow = Insertable<DomainVerificationTable>;
