import type { Selectable } from 'kysely';

/** `verify_email`: confirm the address signed up with; `change_email`: confirm a new address; `reset_password`. */
export type DashboardTokenPurpose = 'verify_email' | 'change_email' | 'reset_password';

/** A one-time link mailed to a user, by the SHA-256 (hex) of its token; the token is never stored. */
export interface DashboardTokenTable {
  token_hash: string;
  user_id: string;
  purpose: DashboardTokenPurpose;
  /** The address the link was sent to (for `change_email`, the new address). */
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type DashboardTokenRow = Selectable<DashboardTokenTable>;
