/**
 * The links mailed to a dashboard user: a random 256-bit token in the link, its SHA-256 in
 * `dashboard_tokens`. Single use and expiring: an address confirmation lasts 24 hours, a password
 * reset 1 hour. A newer link of the same purpose replaces the older ones.
 */
import {
  findUsableDashboardToken,
  insertDashboardToken,
  useDashboardToken,
  useUserDashboardTokens,
} from '../../storage/dashboard-token.repository.js';
import type { DashboardTokenPurpose, DashboardTokenRow } from '../../storage/dashboard-token.table.js';
import type { Executor } from '../../storage/database.js';
import { DAY_MS, HOUR_MS, toStoredInstant } from '../domain/clock.js';
import type { Deps } from '../runtime/deps.js';
import { sha256Hex } from '../runtime/hashing.js';

export const TOKEN_TTL_MS: Readonly<Record<DashboardTokenPurpose, number>> = {
  verify_email: DAY_MS,
  change_email: DAY_MS,
  reset_password: HOUR_MS,
};

/** Issues a link token for `purpose`, sent to `email`; answers the token (to put in the link only). */
export async function issueToken(
  deps: Deps,
  db: Executor,
  userId: string,
  purpose: DashboardTokenPurpose,
  email: string,
): Promise<string> {
  const nowMs = deps.clock.nowMs();
  const now = toStoredInstant(nowMs);
  await useUserDashboardTokens(db, userId, purpose, now);
  const token = deps.ids.token(32);
  await insertDashboardToken(db, {
    token_hash: sha256Hex(token),
    user_id: userId,
    purpose,
    email,
    created_at: now,
    expires_at: toStoredInstant(nowMs + TOKEN_TTL_MS[purpose]),
    used_at: null,
  });
  return token;
}

/** The token's row if it can still be used for one of `purposes` (does not use it). */
export async function peekToken(
  deps: Deps,
  db: Executor,
  token: string,
  purposes: readonly DashboardTokenPurpose[],
): Promise<DashboardTokenRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  return findUsableDashboardToken(db, sha256Hex(token), purposes, toStoredInstant(deps.clock.nowMs()));
}

/** Uses the token up; answers its row only to the one caller that used it. */
export async function consumeToken(
  deps: Deps,
  db: Executor,
  token: string,
  purposes: readonly DashboardTokenPurpose[],
): Promise<DashboardTokenRow | undefined> {
  const row = await peekToken(deps, db, token, purposes);
  if (row === undefined) return undefined;
  return (await useDashboardToken(db, row.token_hash, toStoredInstant(deps.clock.nowMs()))) ? row : undefined;
}
