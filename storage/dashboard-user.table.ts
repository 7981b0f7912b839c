import type { Insertable, Selectable, Updateable } from 'kysely';
import type { MemberRole } from '../gateway/domain/access.js';

export type DashboardRole = MemberRole;

/** A person who signs in to the dashboard, of one merchant (see migration 0012). */
export interface DashboardUserTable {
  id: string;
  merchant_id: string;
  /** Lower case; unique across the service. */
  email: string;
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (gateway/dashboard/passwords.ts). */
  password_hash: string;
  role: DashboardRole;
  email_verified_at: string | null;
  /** The second factor: sealed secret (also while being set up), and when it was turned on. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** The last TOTP time step accepted (migration 0016): a code works once. */
  totp_last_step: number | null;
  password_changed_at: string;
  created_at: string;
  updated_at: string;
}

export type DashboardUserRow = Selectable<DashboardUserTable>;
export type NewDashboardUserRow = Insertable<DashboardUserTable>;
export type DashboardUserUpdate = Updateable<DashboardUserTable>;

/** The addresses a user signed in from, first and last time each. */
export interface DashboardUserAddressTable {
  user_id: string;
  address: string;
  first_seen_at: string;
  last_seen_at: string;
}
