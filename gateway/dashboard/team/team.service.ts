/**
 * An account's team: its members (dashboard users of the merchant) and pending invitations.
 *
 * - The owner and admins invite an address as `admin` or `viewer`, resend or cancel an invitation,
 *   change a member's role between `admin` and `viewer`, and remove a member. Admins may invite and
 *   manage admins too (an admin may do everything but touch the owner's seat).
 * - Nobody removes the owner or changes the owner's role, the owner included.
 * - Removing a member ends all their sessions at once (the user row, its sessions and links go).
 * - The mailed link carries a random 256-bit token; only its SHA-256 is kept; it lasts 7 days and
 *   works once. Accepting creates the member with a confirmed address (the link reached it) and
 *   signs them in.
 * - One dashboard account per email across the service: an address that already has an account
 *   cannot accept (the invitee is told so on the link's page; the inviter is never told, so an
 *   invitation does not reveal whether an address has an account elsewhere).
 */

import {
  acceptInvitationRow,
  deletePendingInvitation,
  findPendingInvitation,
  findPendingInvitationByEmail,
  findUsableInvitation,
  insertInvitation,
  listPendingInvitations,
  updateInvitation,
} from '../../../storage/dashboard-invitation.repository.js';
import type { DashboardInvitationRow, InvitedRole } from '../../../storage/dashboard-invitation.table.js';
import {
  deleteDashboardUser,
  findDashboardUserByEmail,
  findMerchantDashboardUser,
  insertDashboardUser,
  listMerchantDashboardUsers,
  updateDashboardUser,
} from '../../../storage/dashboard-user.repository.js';
import type { DashboardUserRow } from '../../../storage/dashboard-user.table.js';
import { isUniqueViolation } from '../../../storage/errors.js';
import { findMerchant } from '../../../storage/merchant.repository.js';
import { DAY_MS, toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import { sha256Hex } from '../../runtime/hashing.js';
import { normalizeEmail, openSignedInSession } from '../accounts.service.js';
import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import { hashPassword, type PasswordProblem, passwordProblem } from '../passwords.js';

export const INVITATION_TTL_MS = 7 * DAY_MS;
export const INVITED_ROLES: readonly InvitedRole[] = ['admin', 'viewer'];

export function isInvitedRole(value: string): value is InvitedRole {
  return (INVITED_ROLES as readonly string[]).includes(value);
}

export interface Team {
  readonly members: DashboardUserRow[];
  readonly invitations: DashboardInvitationRow[];
}

export async function readTeam(deps: Deps, merchantId: string): Promise<Team> {
  const [members, invitations] = await Promise.all([
    listMerchantDashboardUsers(deps.db, merchantId),
    listPendingInvitations(deps.db, merchantId),
  ]);
  return { members, invitations };
}

export type InviteProblem = 'required' | 'invalid_email' | 'already_member' | 'invalid_role';
export type InviteProblems = Partial<Record<'email' | 'role', InviteProblem>>;

/** An invitation mail to send: the token goes into its link only. */
export interface InvitationMail {
  readonly to: string;
  readonly token: string;
  readonly role: InvitedRole;
  readonly accountName: string;
}

export type InviteResult =
  | { readonly ok: false; readonly problems: InviteProblems }
  | { readonly ok: true; readonly mail: InvitationMail };

async function accountName(deps: Deps, merchantId: string): Promise<string> {
  return (await findMerchant(deps.db, merchantId))?.name ?? '';
}

/**
 * Invites `email` with `role` to the account. An address already invited gets a new link (and the
 * new role); an address that is a member of this account is refused (the inviter sees members).
 */
export async function inviteMember(
  deps: Deps,
  merchantId: string,
  actor: AuditActor,
  input: { readonly email: string; readonly role: string },
): Promise<InviteResult> {
  const problems: InviteProblems = {};
  const email = normalizeEmail(input.email);
  if (email === null) problems.email = input.email.trim() === '' ? 'required' : 'invalid_email';
  if (!isInvitedRole(input.role)) problems.role = input.role === '' ? 'required' : 'invalid_role';
  if (email !== null) {
    const existing = await findDashboardUserByEmail(deps.db, email);
    if (existing !== undefined && existing.merchant_id === merchantId) problems.email = 'already_member';
  }
  if (email === null || !isInvitedRole(input.role) || Object.keys(problems).length > 0) return { ok: false, problems };
  const role = input.role;
  const token = deps.ids.token(32);
  await deps.transact(async (trx) => {
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const expires = toStoredInstant(nowMs + INVITATION_TTL_MS);
    const pending = await findPendingInvitationByEmail(trx, merchantId, email);
    if (pending === undefined) {
      await insertInvitation(trx, {
        id: deps.ids.uuid(nowMs),
        merchant_id: merchantId,
        email,
        role,
        token_hash: sha256Hex(token),
        invited_by_email: actor.email,
        created_at: now,
        sent_at: now,
        expires_at: expires,
        accepted_at: null,
      });
    } else {
      await updateInvitation(trx, pending.id, {
        role,
        token_hash: sha256Hex(token),
        invited_by_email: actor.email,
        sent_at: now,
        expires_at: expires,
      });
    }
    await recordAudit(deps, trx, { merchantId, actor, action: 'member.invited', subject: email });
  });
  return { ok: true, mail: { to: email, token, role, accountName: await accountName(deps, merchantId) } };
}

/** Sends a pending invitation again with a new link (the old one stops working) for 7 more days. */
export async function resendInvitation(
  deps: Deps,
  merchantId: string,
  actor: AuditActor,
  id: string,
): Promise<InvitationMail | undefined> {
  const invitation = await findPendingInvitation(deps.db, merchantId, id);
  if (invitation === undefined) return undefined;
  const token = deps.ids.token(32);
  const sent = await deps.transact(async (trx) => {
    const nowMs = deps.clock.nowMs();
    const changed = await updateInvitation(trx, invitation.id, {
      token_hash: sha256Hex(token),
      invited_by_email: actor.email,
      sent_at: toStoredInstant(nowMs),
      expires_at: toStoredInstant(nowMs + INVITATION_TTL_MS),
    });
    if (changed) {
      await recordAudit(deps, trx, { merchantId, actor, action: 'member.invited', subject: invitation.email });
    }
    return changed;
  });
  if (!sent) return undefined;
  const name = await accountName(deps, merchantId);
  return { to: invitation.email, token, role: invitation.role, accountName: name };
}

/** Cancels a pending invitation (its link stops working, audited); answers its address, or undefined. */
export async function cancelInvitation(
  deps: Deps,
  merchantId: string,
  actor: AuditActor,
  id: string,
): Promise<string | undefined> {
  const invitation = await findPendingInvitation(deps.db, merchantId, id);
  if (invitation === undefined) return undefined;
  const cancelled = await deps.transact(async (trx) => {
    if (!(await deletePendingInvitation(trx, invitation.id))) return false;
    await recordAudit(deps, trx, {
      merchantId,
      actor,
      action: 'member.invitation_cancelled',
      subject: invitation.email,
    });
    return true;
  });
  return cancelled ? invitation.email : undefined;
}

export type MemberChange =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'owner' }
  | { readonly kind: 'invalid_role' }
  | { readonly kind: 'done'; readonly member: DashboardUserRow };

/** Changes a member's role to `admin` or `viewer`; the owner's role never changes. */
export async function changeMemberRole(
  deps: Deps,
  merchantId: string,
  actor: AuditActor,
  memberId: string,
  role: string,
): Promise<MemberChange> {
  const member = await findMerchantDashboardUser(deps.db, merchantId, memberId);
  if (member === undefined) return { kind: 'not_found' };
  if (member.role === 'owner') return { kind: 'owner' };
  if (!isInvitedRole(role)) return { kind: 'invalid_role' };
  if (member.role === role) return { kind: 'done', member };
  await deps.transact(async (trx) => {
    const now = toStoredInstant(deps.clock.nowMs());
    await updateDashboardUser(trx, member.id, { role, updated_at: now });
    await recordAudit(deps, trx, { merchantId, actor, action: 'member.role_changed', subject: member.email });
  });
  return { kind: 'done', member: { ...member, role } };
}

/** Removes a member (never the owner): all their sessions end at once. */
export async function removeMember(
  deps: Deps,
  merchantId: string,
  actor: AuditActor,
  memberId: string,
): Promise<MemberChange> {
  const member = await findMerchantDashboardUser(deps.db, merchantId, memberId);
  if (member === undefined) return { kind: 'not_found' };
  if (member.role === 'owner') return { kind: 'owner' };
  await deps.transact(async (trx) => {
    await deleteDashboardUser(trx, member.id);
    await recordAudit(deps, trx, { merchantId, actor, action: 'member.removed', subject: member.email });
  });
  return { kind: 'done', member };
}

export interface OpenInvitation {
  readonly invitation: DashboardInvitationRow;
  readonly accountName: string;
  /** The address already has a dashboard account (here or elsewhere): it cannot accept. */
  readonly emailTaken: boolean;
}

function wellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

/** The invitation of a link that can still be accepted (does not use it). */
export async function peekInvitation(deps: Deps, token: string): Promise<OpenInvitation | undefined> {
  if (!wellFormedToken(token)) return undefined;
  const invitation = await findUsableInvitation(deps.db, sha256Hex(token), toStoredInstant(deps.clock.nowMs()));
  if (invitation === undefined) return undefined;
  const emailTaken = (await findDashboardUserByEmail(deps.db, invitation.email)) !== undefined;
  return { invitation, accountName: await accountName(deps, invitation.merchant_id), emailTaken };
}

export type AcceptResult =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'email_taken' }
  | { readonly kind: 'problem'; readonly problem: PasswordProblem; readonly open: OpenInvitation }
  | {
      readonly kind: 'signed_in';
      readonly sessionId: string;
      readonly user: DashboardUserRow;
      readonly newAddress: boolean;
    };

/**
 * Accepts an invitation with the member's password (single use): the member is created with the
 * invited role and a confirmed address, and signed in.
 */
export async function acceptInvitation(
  deps: Deps,
  input: { readonly token: string; readonly password: string; readonly address: string },
): Promise<AcceptResult> {
  const open = await peekInvitation(deps, input.token);
  if (open === undefined) return { kind: 'invalid' };
  if (open.emailTaken) return { kind: 'email_taken' };
  const { invitation } = open;
  const problem = passwordProblem(input.password, invitation.email);
  if (problem !== null) return { kind: 'problem', problem, open };
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashCost);
  try {
    return await deps.transact(async (trx): Promise<AcceptResult> => {
      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      if (!(await acceptInvitationRow(trx, invitation.id, invitation.token_hash, now))) return { kind: 'invalid' };
      const user: DashboardUserRow = {
        id: deps.ids.uuid(nowMs),
        merchant_id: invitation.merchant_id,
        email: invitation.email,
        password_hash: passwordHash,
        role: invitation.role,
        email_verified_at: now,
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        password_changed_at: now,
        created_at: now,
        updated_at: now,
      };
      await insertDashboardUser(trx, user);
      const opened = await openSignedInSession(deps, trx, user, input.address);
      return { kind: 'signed_in', ...opened };
    });
  } catch (error) {
    // The address got an account meanwhile (a sign-up, another invitation accepted at once).
    if (isUniqueViolation(error)) return { kind: 'email_taken' };
    throw error;
  }
}
