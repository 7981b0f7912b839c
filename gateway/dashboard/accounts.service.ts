/**
 * Dashboard accounts: sign-up (a merchant through `createMerchant`, and its owner), address
 * confirmation, sign-in with throttling, password reset, and changes of email and password.
 *
 * Nothing here tells whether an email has an account: sign-up answers alike (the owner of an
 * existing address gets a mail instead), sign-in says "email or password is wrong" after spending
 * the same scrypt time, and a reset request answers alike whether a mail left or not. What to mail
 * is answered as an `Outgoing` (the caller words and sends it, after the answer is decided).
 *
 * A sign-in attempt (a password here, a code of two-step sign-in) is reserved under the limits
 * before anything is checked (`reserveSignInAttempt`): its row is written first and counts as a
 * failure, so attempts posted together, to any instance, can refuse each other but never get more
 * checks than the limits allow. A refused attempt's row is taken back, so that a locked-out
 * attacker's further tries do not push the end of the lock on; a right password or code takes its
 * row back too; a wrong one leaves it as the failure.
 */

import { insertOnboardingKey } from '../../storage/dashboard-onboarding-key.repository.js';
import {
  clearSignInFailures,
  keepSignInFailure,
  releaseSignInAttempt,
  reserveSignInAttempt,
} from '../../storage/dashboard-sign-in-failure.repository.js';
import type { DashboardSignInFailureTable } from '../../storage/dashboard-sign-in-failure.table.js';
import { deleteUserPendingSignIns } from '../../storage/dashboard-two-factor.repository.js';
import {
  findDashboardUser,
  findDashboardUserByEmail,
  insertDashboardUser,
  recordSignInAddress,
  updateDashboardUser,
} from '../../storage/dashboard-user.repository.js';
import type { DashboardUserRow } from '../../storage/dashboard-user.table.js';
import type { Executor } from '../../storage/database.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { updateMerchant } from '../../storage/merchant.repository.js';
import type { Language } from '../checkout/i18n/index.js';
import { type AccountNameProblem, accountNameProblem } from '../domain/account-name.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import { createMerchant } from '../merchants/merchant.service.js';
import type { Deps } from '../runtime/deps.js';
import { onboardingKeyContext } from './onboarding.service.js';
import { consumeToken, issueToken, peekToken } from './one-time-tokens.js';
import { hashPassword, type PasswordProblem, passwordProblem, verifyPassword } from './passwords.js';
import { endUserSessions, startSession } from './sessions.js';
import { startPendingSignIn } from './two-factor/pending-sign-ins.js';

/** Failed sign-ins count over this window. */
export const SIGN_IN_WINDOW_MS = 15 * MINUTE_MS;
/** Failed sign-ins for one email in the window after which it is locked. */
export const SIGN_IN_LIMIT_PER_ACCOUNT = 5;
/** Failed sign-ins from one address in the window after which it is locked. */
export const SIGN_IN_LIMIT_PER_ADDRESS = 20;

/** A sign-in attempt reserved under the limits: its row counts as a failure until it is taken back. */
export type SignInAttempt = DashboardSignInFailureTable;

/**
 * Reserves an attempt of `email` from `address` before its password or code is checked; null when
 * sign-in is locked for either (nothing may be checked then). Answered with `settleSignInAttempt`.
 */
export async function reserveSignIn(deps: Deps, email: string, address: string): Promise<SignInAttempt | null> {
  const nowMs = deps.clock.nowMs();
  const attempt = { id: deps.ids.uuid(nowMs), email, address, failed_at: toStoredInstant(nowMs) };
  const since = toStoredInstant(nowMs - SIGN_IN_WINDOW_MS);
  const limits = { email: SIGN_IN_LIMIT_PER_ACCOUNT, address: SIGN_IN_LIMIT_PER_ADDRESS };
  return (await reserveSignInAttempt(deps.db, attempt, since, limits)) ? attempt : null;
}

/**
 * Settles a reserved attempt once checked: a failed one stays counted, one that was not a failure
 * (a right password or code, or nothing checked after all) is taken back.
 */
export async function settleSignInAttempt(deps: Deps, attempt: SignInAttempt, failed: boolean): Promise<void> {
  if (failed) await keepSignInFailure(deps.db, attempt);
  else await releaseSignInAttempt(deps.db, attempt.id);
}

export type OutgoingKind = 'verify_email' | 'change_email' | 'reset_password' | 'already_registered';

/** A mail to send: the token goes into its link only. */
export interface Outgoing {
  readonly to: string;
  readonly kind: OutgoingKind;
  readonly token: string | null;
}

export type FieldProblem =
  | 'required'
  | 'invalid_email'
  | 'too_long'
  /** A business name with `<`, `>`, control or invisible characters (gateway/domain/account-name.ts). */
  | 'name_characters'
  /** A business name that reads as a web address (`://`, `www.`). */
  | 'name_link'
  | PasswordProblem
  | 'wrong_password'
  | 'email_taken';
export type FieldProblems = Partial<Record<'name' | 'email' | 'password' | 'current_password', FieldProblem>>;

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The address lower-cased and trimmed when it looks like one (at most 254 characters), else null. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && EMAIL_PATTERN.test(email) ? email : null;
}

/** The sign-up form's word for each reason a business name is refused. */
const NAME_PROBLEMS: Readonly<Record<AccountNameProblem, FieldProblem>> = {
  required: 'required',
  too_long: 'too_long',
  forbidden_characters: 'name_characters',
  looks_like_link: 'name_link',
};

export interface SignUpInput {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  /** The page's language: the account's emails from the service are written in it. */
  readonly language?: Language;
}

export type SignUpResult =
  | { readonly ok: false; readonly problems: FieldProblems }
  | { readonly ok: true; readonly email: string; readonly mail: Outgoing };

export async function signUp(deps: Deps, input: SignUpInput): Promise<SignUpResult> {
  const problems: FieldProblems = {};
  const name = input.name.trim();
  const nameProblem = accountNameProblem(name);
  if (nameProblem !== null) problems.name = NAME_PROBLEMS[nameProblem];
  const email = normalizeEmail(input.email);
  if (email === null) problems.email = input.email.trim() === '' ? 'required' : 'invalid_email';
  const weak = passwordProblem(input.password, input.email);
  if (weak !== null) problems.password = weak;
  if (email === null || Object.keys(problems).length > 0) return { ok: false, problems };

  // Hashed first, whether the address is taken or not, so both answers take as long.
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashCost);
  const taken: SignUpResult = { ok: true, email, mail: { to: email, kind: 'already_registered', token: null } };
  if ((await findDashboardUserByEmail(deps.db, email)) !== undefined) return taken;

  const merchant = await createMerchant(deps, { name, email, language: input.language });
  const testKey = merchant.keys[0]?.key;
  try {
    const token = await deps.transact(async (trx) => {
      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const userId = deps.ids.uuid(nowMs);
      await insertDashboardUser(trx, {
        id: userId,
        merchant_id: merchant.merchant_id,
        email,
        password_hash: passwordHash,
        role: 'owner',
        email_verified_at: null,
        totp_secret: null,
        totp_enabled_at: null,
        password_changed_at: now,
        created_at: now,
        updated_at: now,
      });
      if (testKey !== undefined) {
        await insertOnboardingKey(trx, {
          merchant_id: merchant.merchant_id,
          sealed_key: deps.sealer.seal(testKey, onboardingKeyContext(merchant.merchant_id)),
          created_at: now,
        });
      }
      return issueToken(deps, trx, userId, 'verify_email', email);
    });
    return { ok: true, email, mail: { to: email, kind: 'verify_email', token } };
  } catch (error) {
    // Two sign-ups with one address at once: the later one is told what an existing address is.
    if (isUniqueViolation(error)) return taken;
    throw error;
  }
}

export type ConfirmResult = 'invalid' | 'email_taken' | 'verified' | 'changed';

/** Confirms the address of a `verify_email` or `change_email` link (single use). */
export async function confirmEmail(deps: Deps, token: string): Promise<ConfirmResult> {
  try {
    return await deps.transact(async (trx) => {
      const row = await consumeToken(deps, trx, token, ['verify_email', 'change_email']);
      if (row === undefined) return 'invalid';
      const now = toStoredInstant(deps.clock.nowMs());
      if (row.purpose === 'verify_email') {
        await updateDashboardUser(trx, row.user_id, { email_verified_at: now, updated_at: now });
        return 'verified';
      }
      await updateDashboardUser(trx, row.user_id, { email: row.email, email_verified_at: now, updated_at: now });
      // The owner's address is also the merchant's, where the service's own mails go.
      const user = await findDashboardUser(trx, row.user_id);
      if (user?.role === 'owner') await updateMerchant(trx, user.merchant_id, { email: row.email, updated_at: now });
      return 'changed';
    });
  } catch (error) {
    if (isUniqueViolation(error)) return 'email_taken';
    throw error;
  }
}

/** A sign-in complete (password, and code when the user has two-step sign-in on): its new session. */
export interface SignedIn {
  readonly sessionId: string;
  readonly user: DashboardUserRow;
  /** Whether the user never signed in from this address before (logged and audited). */
  readonly newAddress: boolean;
}

export type SignInResult =
  | { readonly kind: 'locked' }
  | { readonly kind: 'wrong' }
  | { readonly kind: 'unverified'; readonly mail: Outgoing }
  /** The password was right and the user has two-step sign-in on: no session yet, a code is asked. */
  | { readonly kind: 'second_factor'; readonly pendingId: string }
  | ({ readonly kind: 'signed_in' } & SignedIn);

/**
 * Opens the session of a complete sign-in: the account's failed sign-ins are forgotten, the
 * address is recorded. Used after a right password, or after the right code of two-step sign-in.
 */
export async function openSignedInSession(
  deps: Deps,
  db: Executor,
  user: DashboardUserRow,
  address: string,
): Promise<SignedIn> {
  await clearSignInFailures(db, user.email);
  const sessionId = await startSession(deps, db, user.id, address);
  const newAddress = await recordSignInAddress(db, user.id, address, toStoredInstant(deps.clock.nowMs()));
  return { sessionId, user, newAddress };
}

export async function signIn(
  deps: Deps,
  input: { readonly email: string; readonly password: string; readonly address: string },
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase().slice(0, 254);
  const attempt = await reserveSignIn(deps, email, input.address);
  if (attempt === null) return { kind: 'locked' };
  const user = email === '' ? undefined : await findDashboardUserByEmail(deps.db, email);
  const right = await verifyPassword(input.password.slice(0, 1000), user?.password_hash, deps.config.passwordHashCost);
  // A right password is no failure: its reservation goes (for two-step sign-in too, where the
  // failures already counted stay until the code is right).
  await settleSignInAttempt(deps, attempt, user === undefined || !right);
  if (user === undefined || !right) return { kind: 'wrong' };
  if (user.email_verified_at === null) {
    await clearSignInFailures(deps.db, email);
    const token = await deps.transact((trx) => issueToken(deps, trx, user.id, 'verify_email', user.email));
    return { kind: 'unverified', mail: { to: user.email, kind: 'verify_email', token } };
  }
  if (user.totp_enabled_at !== null) {
    // The failures are kept until the code is right too: a right password must not wipe the count
    // of wrong codes, or the code could be guessed four tries at a time.
    const pendingId = await startPendingSignIn(deps, deps.db, user.id, input.address);
    return { kind: 'second_factor', pendingId };
  }
  const opened = await deps.transact((trx) => openSignedInSession(deps, trx, user, input.address));
  return { kind: 'signed_in', ...opened };
}

/** A reset link for the address when it has an account, else nothing (the caller answers alike). */
export async function requestPasswordReset(deps: Deps, rawEmail: string): Promise<Outgoing | null> {
  const email = normalizeEmail(rawEmail);
  if (email === null) return null;
  const user = await findDashboardUserByEmail(deps.db, email);
  if (user === undefined) return null;
  const token = await deps.transact((trx) => issueToken(deps, trx, user.id, 'reset_password', user.email));
  return { to: user.email, kind: 'reset_password', token };
}

export async function resetLinkUsable(deps: Deps, token: string): Promise<boolean> {
  return (await peekToken(deps, deps.db, token, ['reset_password'])) !== undefined;
}

export type ResetResult =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'problem'; readonly problem: PasswordProblem }
  | { readonly kind: 'done' };

/**
 * Sets a new password through a reset link (single use): every session (and sign-in waiting for
 * its code) of the user ends, failed sign-ins of the account are forgotten unless two-step sign-in
 * is on (it stays on), and the address counts as confirmed (the link reached it).
 */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<ResetResult> {
  const row = await peekToken(deps, deps.db, token, ['reset_password']);
  if (row === undefined) return { kind: 'invalid' };
  const problem = passwordProblem(password, row.email);
  if (problem !== null) return { kind: 'problem', problem };
  const passwordHash = await hashPassword(password, deps.config.passwordHashCost);
  return deps.transact(async (trx) => {
    const used = await consumeToken(deps, trx, token, ['reset_password']);
    if (used === undefined) return { kind: 'invalid' };
    const now = toStoredInstant(deps.clock.nowMs());
    await updateDashboardUser(trx, used.user_id, {
      password_hash: passwordHash,
      password_changed_at: now,
      email_verified_at: now,
      updated_at: now,
    });
    await endUserSessions(trx, used.user_id);
    await deleteUserPendingSignIns(trx, used.user_id);
    // A reset never turns two-step sign-in off. Its failed sign-ins (wrong codes among them) stay
    // counted when it is on, so that resets cannot be used to guess codes without a pause.
    const user = await findDashboardUser(trx, used.user_id);
    if (user?.totp_enabled_at === null) await clearSignInFailures(trx, used.email);
    return { kind: 'done' };
  });
}

/** A change of the account asks the current password: `current_password` is wrong, or nothing. */
async function currentPasswordProblems(user: DashboardUserRow, currentPassword: string): Promise<FieldProblems> {
  const right = await verifyPassword(currentPassword.slice(0, 1000), user.password_hash);
  return right ? {} : { current_password: 'wrong_password' };
}

export type ChangeEmailResult =
  | { readonly ok: false; readonly problems: FieldProblems }
  | { readonly ok: true; readonly mail: Outgoing };

/** Sends a confirmation link to the new address; the email changes when the link is opened. */
export async function changeEmail(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly newEmail: string },
): Promise<ChangeEmailResult> {
  const problems = await currentPasswordProblems(user, input.currentPassword);
  const email = normalizeEmail(input.newEmail);
  if (email === null) problems.email = input.newEmail.trim() === '' ? 'required' : 'invalid_email';
  if (email === null || Object.keys(problems).length > 0) return { ok: false, problems };
  const token = await deps.transact((trx) => issueToken(deps, trx, user.id, 'change_email', email));
  return { ok: true, mail: { to: email, kind: 'change_email', token } };
}

export type ChangePasswordResult =
  | { readonly ok: false; readonly problems: FieldProblems }
  | { readonly ok: true; readonly sessionId: string };

/** Changes the password (the current one is asked): every session ends, this browser gets a new one. */
export async function changePassword(
  deps: Deps,
  user: DashboardUserRow,
  input: { readonly currentPassword: string; readonly newPassword: string; readonly address: string },
): Promise<ChangePasswordResult> {
  const problems = await currentPasswordProblems(user, input.currentPassword);
  const weak = passwordProblem(input.newPassword, user.email);
  if (weak !== null) problems.password = weak;
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const passwordHash = await hashPassword(input.newPassword, deps.config.passwordHashCost);
  const sessionId = await deps.transact(async (trx) => {
    const now = toStoredInstant(deps.clock.nowMs());
    await updateDashboardUser(trx, user.id, { password_hash: passwordHash, password_changed_at: now, updated_at: now });
    await endUserSessions(trx, user.id);
    await deleteUserPendingSignIns(trx, user.id);
    return startSession(deps, trx, user.id, input.address);
  });
  return { ok: true, sessionId };
}
