/**
 * Dashboard sessions: a random 256-bit id in the browser's cookie, its SHA-256 in
 * `dashboard_sessions`. A session ends after 30 minutes without a request, 12 hours after it
 * started whatever the activity, at sign-out, and when the user's password changes. Every instance
 * reads sessions from the database, so any instance serves any request.
 */
import {
  deleteDashboardSession,
  deleteEndedUserSessions,
  deleteUserSessions,
  findDashboardSession,
  insertDashboardSession,
  touchDashboardSession,
} from '../../storage/dashboard-session.repository.js';
import { findDashboardUser } from '../../storage/dashboard-user.repository.js';
import type { DashboardUserRow } from '../../storage/dashboard-user.table.js';
import type { Executor } from '../../storage/database.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { sha256Hex } from '../runtime/hashing.js';

export const SESSION_IDLE_MS = 30 * MINUTE_MS;
export const SESSION_ABSOLUTE_MS = 12 * HOUR_MS;

export interface ActiveSession {
  readonly idHash: string;
  readonly user: DashboardUserRow;
}

function wellFormed(id: string | undefined): id is string {
  return id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id);
}

/**
 * Starts a session for the user; answers its id (for the cookie only). The user's sessions that
 * ended unseen (a browser closed without signing out) are deleted on the way.
 */
export async function startSession(deps: Deps, db: Executor, userId: string, address: string): Promise<string> {
  const nowMs = deps.clock.nowMs();
  await deleteEndedUserSessions(db, userId, toStoredInstant(nowMs - SESSION_IDLE_MS), toStoredInstant(nowMs));
  const id = deps.ids.token(32);
  await insertDashboardSession(db, {
    id_hash: sha256Hex(id),
    user_id: userId,
    address,
    created_at: toStoredInstant(nowMs),
    last_seen_at: toStoredInstant(nowMs),
    expires_at: toStoredInstant(nowMs + SESSION_ABSOLUTE_MS),
  });
  return id;
}

/** The live session of `id` and its user, its activity moved to now; expired sessions are deleted. */
export async function resumeSession(deps: Deps, id: string | undefined): Promise<ActiveSession | undefined> {
  if (!wellFormed(id)) return undefined;
  const idHash = sha256Hex(id);
  const session = await findDashboardSession(deps.db, idHash);
  if (session === undefined) return undefined;
  const nowMs = deps.clock.nowMs();
  const idleSince = Date.parse(session.last_seen_at);
  if (nowMs - idleSince >= SESSION_IDLE_MS || nowMs >= Date.parse(session.expires_at)) {
    await deleteDashboardSession(deps.db, idHash);
    return undefined;
  }
  const user = await findDashboardUser(deps.db, session.user_id);
  if (user === undefined) return undefined;
  await touchDashboardSession(deps.db, idHash, toStoredInstant(nowMs));
  return { idHash, user };
}

export async function endSession(deps: Deps, id: string | undefined): Promise<void> {
  if (wellFormed(id)) await deleteDashboardSession(deps.db, sha256Hex(id));
}

/** Ends every session of the user (after a password reset or change), but `keepIdHash`. */
export function endUserSessions(db: Executor, userId: string, keepIdHash?: string): Promise<number> {
  return deleteUserSessions(db, userId, keepIdHash);
}
