import type { Selectable, Updateable } from 'kysely';

export type InvitedRole = 'admin' | 'viewer';

/** An invitation to an account's dashboard team (see migration 0017). */
export interface DashboardInvitationTable {
  id: string;
  merchant_id: string;
  /** Lower case. */
  email: string;
  role: InvitedRole;
  /** SHA-256 (hex) of the link's token; the token itself is only in the mail. */
  token_hash: string;
  /** Who invited, as their email then (kept if they leave). */
  invited_by_email: string | null;
  created_at: string;
  /** The last time the link was (re)sent. */
  sent_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export type DashboardInvitationRow = Selectable<DashboardInvitationTable>;
export type DashboardInvitationUpdate = Updateable<DashboardInvitationTable>;
