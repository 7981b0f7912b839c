import type { Selectable } from 'kysely';

/** A signed-in browser, by the SHA-256 (hex) of its session id; the id itself is never stored. */
export interface DashboardSessionTable {
  id_hash: string;
  user_id: string;
  /** The address the session was started from. */
  address: string;
  created_at: string;
  /** Last request of the session: it ends after the idle timeout. */
  last_seen_at: string;
  /** Absolute end, whatever the activity. */
  expires_at: string;
}

export type DashboardSessionRow = Selectable<DashboardSessionTable>;
