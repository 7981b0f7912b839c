/** One recovery code of a user (migration 0016): a keyed hash only; `used_at` once it was used. */
export interface DashboardRecoveryCodeTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A sign-in waiting for its second factor after a correct password (five minutes, used once). */
export interface DashboardPendingSignInTable {
  /** SHA-256 of the random id in the browser's cookie. */
  id_hash: string;
  user_id: string;
  address: string;
  created_at: string;
  expires_at: string;
}
