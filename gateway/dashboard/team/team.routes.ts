/**
 * The Team section:
 *
 * - `GET  /dashboard/team`                                 members and pending invitations (everyone)
 * - `POST /dashboard/team/invitations`                     invite an address as admin or viewer
 * - `POST /dashboard/team/invitations/:id/resend`, `.../cancel`
 * - `POST /dashboard/team/members/:id/role`, `.../remove`  never the owner (422)
 * - `GET|POST /dashboard/invitation?token=`                the mailed link: choose a password, join
 *
 * Every POST but the invitation's (the invitee's own, self-service) is for the owner and admins;
 * ids are looked up within the signed-in user's account (another account's: 404).
 */
import type { GatewayContext } from '../../api/context.js';
import { toStoredInstant } from '../../domain/clock.js';
import { nameInMail } from '../../notifications/mail-names.js';
import type { AuditActor } from '../audit/audit.service.js';
import { SESSION_COOKIE } from '../cookies.js';
import type { Language } from '../i18n/index.js';
import type { SectionRoutes, SignedInVisit, Visit } from '../kit.js';
import { messagePage } from '../pages.js';
import { TEAM_MESSAGES } from './messages.js';
import { invitationPage, type TeamView, teamPage } from './team.pages.js';
import {
  acceptInvitation,
  cancelInvitation,
  changeMemberRole,
  INVITATION_TTL_MS,
  type InvitationMail,
  type InviteProblems,
  inviteMember,
  type MemberChange,
  peekInvitation,
  readTeam,
  removeMember,
  resendInvitation,
} from './team.service.js';

const NOTICES = ['invited', 'resent', 'cancelled', 'role-changed', 'removed'] as const;
type NoticeKey = (typeof NOTICES)[number];

export const teamRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  const actorOf = (ctx: GatewayContext, visit: SignedInVisit): AuditActor => ({
    userId: visit.session.user.id,
    email: visit.session.user.email,
    address: ctx.ip,
  });

  const noticeText = (lang: Language, key: string | undefined): string | null => {
    if (key === undefined || !(NOTICES as readonly string[]).includes(key)) return null;
    const n = TEAM_MESSAGES[lang].notices;
    const texts: Record<NoticeKey, string> = {
      invited: n.invited,
      resent: n.resent,
      cancelled: n.cancelled,
      'role-changed': n.roleChanged,
      removed: n.removed,
    };
    return texts[key as NoticeKey];
  };

  const render = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    extra: { notice?: string | null; error?: string | null; invite?: TeamView['invite'] } = {},
  ) => {
    const view: TeamView = {
      team: await readTeam(deps, visit.merchantId),
      selfId: visit.session.user.id,
      nowIso: toStoredInstant(deps.clock.nowMs()),
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      invite: extra.invite ?? { email: '', role: '', problems: {} as InviteProblems },
    };
    kit.send(ctx, visit.shell, status, teamPage(visit.shell, view));
  };

  /** The invitation mail, in the inviter's page language. */
  const sendInvitation = (visit: SignedInVisit, mail: InvitationMail) => {
    const m = TEAM_MESSAGES[visit.shell.lang];
    const link = `${kit.publicUrl}/dashboard/invitation?token=${mail.token}`;
    // The account's name as mails print it: quoted, and nothing in it a mail client would make a link of.
    const account = nameInMail(mail.accountName, visit.shell.lang);
    const text = m.mailText({
      account,
      role: m.roles[mail.role],
      inviter: visit.session.user.email,
      link,
      days: INVITATION_TTL_MS / 86_400_000,
    });
    kit.sendMail({ to: mail.to, subject: m.mailSubject(account), text }, 'invitation');
  };

  router.get('/dashboard/team', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'team');
    if (!visit) return;
    await render(ctx, visit, 200, { notice: noticeText(visit.shell.lang, kit.query(ctx, 'notice')) });
  });

  router.post('/dashboard/team/invitations', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'team');
    if (!visit) return;
    const input = { email: kit.field(ctx, 'email'), role: kit.field(ctx, 'role') };
    const result = await inviteMember(deps, visit.merchantId, actorOf(ctx, visit), input);
    if (!result.ok) {
      return render(ctx, visit, 422, { error: visit.t.errorSummary, invite: { ...input, problems: result.problems } });
    }
    sendInvitation(visit, result.mail);
    kit.redirect(ctx, '/dashboard/team?notice=invited');
  });

  router.post('/dashboard/team/invitations/:id/resend', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'team');
    if (!visit) return;
    const mail = await resendInvitation(deps, visit.merchantId, actorOf(ctx, visit), ctx.params.id ?? '');
    if (mail === undefined) return kit.notFound(ctx, visit);
    sendInvitation(visit, mail);
    kit.redirect(ctx, '/dashboard/team?notice=resent');
  });

  router.post('/dashboard/team/invitations/:id/cancel', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'team');
    if (!visit) return;
    const email = await cancelInvitation(deps, visit.merchantId, actorOf(ctx, visit), ctx.params.id ?? '');
    if (email === undefined) return kit.notFound(ctx, visit);
    kit.redirect(ctx, '/dashboard/team?notice=cancelled');
  });

  /** A change of a member refused: no such member, the owner (never changed), or no such role. */
  const refused = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    kind: Exclude<MemberChange['kind'], 'done'>,
  ): Promise<void> => {
    const m = TEAM_MESSAGES[visit.shell.lang];
    switch (kind) {
      case 'not_found':
        return kit.notFound(ctx, visit);
      case 'owner':
        return render(ctx, visit, 422, { error: m.ownerFixed });
      case 'invalid_role':
        return render(ctx, visit, 422, { error: m.problems.invalid_role });
    }
  };

  router.post('/dashboard/team/members/:id/role', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'team');
    if (!visit) return;
    const result = await changeMemberRole(
      deps,
      visit.merchantId,
      actorOf(ctx, visit),
      ctx.params.id ?? '',
      kit.field(ctx, 'role'),
    );
    if (result.kind !== 'done') return refused(ctx, visit, result.kind);
    kit.redirect(ctx, '/dashboard/team?notice=role-changed');
  });

  router.post('/dashboard/team/members/:id/remove', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'team');
    if (!visit) return;
    const result = await removeMember(deps, visit.merchantId, actorOf(ctx, visit), ctx.params.id ?? '');
    if (result.kind !== 'done') return refused(ctx, visit, result.kind);
    if (result.member.id === visit.session.user.id) {
      // An admin who removed themself: their session ended with the rest.
      kit.setCookie(ctx, SESSION_COOKIE, '', 0);
      return kit.redirect(ctx, '/dashboard/sign-in?notice=session-ended');
    }
    kit.redirect(ctx, '/dashboard/team?notice=removed');
  });

  /** A link that no longer works (used, cancelled, replaced, expired, unknown). */
  const deadInvitation = (ctx: GatewayContext, visit: Visit) =>
    kit.send(
      ctx,
      visit.shell,
      400,
      messagePage(visit.shell, visit.t.linkInvalidTitle, TEAM_MESSAGES[visit.shell.lang].invitationInvalidText, {
        href: '/dashboard/sign-in',
        text: visit.t.signInTitle,
      }),
    );

  const emailTaken = (ctx: GatewayContext, visit: Visit) => {
    const m = TEAM_MESSAGES[visit.shell.lang];
    kit.send(
      ctx,
      visit.shell,
      409,
      messagePage(visit.shell, m.emailTakenTitle, m.emailTakenText, {
        href: '/dashboard/sign-in',
        text: visit.t.signInTitle,
      }),
    );
  };

  router.get('/dashboard/invitation', async (ctx) => {
    const visit = await kit.begin(ctx);
    const token = kit.query(ctx, 'token') ?? '';
    const open = await peekInvitation(deps, token);
    if (open === undefined) return deadInvitation(ctx, visit);
    if (open.emailTaken) return emailTaken(ctx, visit);
    const { invitation } = open;
    const view = { token, accountName: open.accountName, role: invitation.role, email: invitation.email };
    kit.send(ctx, visit.shell, 200, invitationPage(visit.shell, view));
  });

  router.post('/dashboard/invitation', kit.formGuard, async (ctx) => {
    const visit = await kit.begin(ctx);
    const token = kit.field(ctx, 'token');
    const result = await acceptInvitation(deps, { token, password: kit.field(ctx, 'password'), address: ctx.ip });
    switch (result.kind) {
      case 'invalid':
        return deadInvitation(ctx, visit);
      case 'email_taken':
        return emailTaken(ctx, visit);
      case 'problem': {
        const { invitation } = result.open;
        const view = {
          token,
          accountName: result.open.accountName,
          role: invitation.role,
          email: invitation.email,
          problem: result.problem,
        };
        return kit.send(ctx, visit.shell, 422, invitationPage(visit.shell, view));
      }
      case 'signed_in':
        await kit.enterSession(ctx, result);
        return kit.redirect(ctx, '/dashboard/team');
    }
  });
};
