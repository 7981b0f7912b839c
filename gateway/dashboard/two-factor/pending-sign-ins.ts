/**
 * The sign-in of a user with two-step sign-in on, between a correct password and a correct code:
 * a random 256-bit id in the browser's HttpOnly cookie, its SHA-256 in `dashboard_pending_sign_ins`,
 * for five minutes, used once. No session exists until the code is right.
 */
import {
  deleteUserPendingSignIns,
  findPendingSignIn,
  insertPendingSignIn,
} from '../../../storage/dashboard-two-factor.repository.js';
import type { DashboardPendingSignInTable } from '../../../storage/dashboard-two-factor.table.js';
import type { Executor } from '../../../storage/database.js';
import { MINUTE_MS, toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import { sha256Hex } from '../../runtime/hashing.js';

/** The cookie holding the pending sign-in's id (same flags as the session's). */
export const PENDING_SIGN_IN_COOKIE = 'dashboard_two_step';
/** How long the code may be entered after the password. */
export const PENDING_SIGN_IN_MS = 5 * MINUTE_MS;

function wellFormed(id: string | undefined): id is string {
  return id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id);
}

/** Starts a pending sign-in of the user; answers its id (for the cookie only). */
export async function startPendingSignIn(deps: Deps, db: Executor, userId: string, address: string): Promise<string> {
  const nowMs = deps.clock.nowMs();
  await deleteUserPendingSignIns(db, userId, toStoredInstant(nowMs));
  const id = deps.ids.token(32);
  await insertPendingSignIn(db, {
    id_hash: sha256Hex(id),
    user_id: userId,
    address,
    created_at: toStoredInstant(nowMs),
    expires_at: toStoredInstant(nowMs + PENDING_SIGN_IN_MS),
  });
  return id;
}

/** The live pending sign-in of `id` (not used, not expired), without using it. */
export async function peekPendingSignIn(
  deps: Deps,
  id: string | undefined,
): Promise<DashboardPendingSignInTable | undefined> {
  if (!wellFormed(id)) return undefined;
  const row = await findPendingSignIn(deps.db, sha256Hex(id));
  if (row === undefined || deps.clock.nowMs() >= Date.parse(row.expires_at)) return undefined;
  return row;
}
