/**
 * The Team section over HTTP, on both databases: an invited viewer joins through the mailed link
 * and is refused every change on the server; admins invite too; the owner cannot be removed or
 * demoted; a removed member is signed out at once; links are single-use and expire after 7 days;
 * another account's ids answer 404; each change is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../gateway/domain/clock.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import {
  auditRows,
  DashboardClient,
  type DashboardGateway,
  linkIn,
  locationPath,
  mailTo,
  PASSWORD,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

describe.each(DIALECTS)('dashboard team (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });

  const db = () => g.t.gateway.deps.db;

  async function invite(client: DashboardClient, email: string, role: string) {
    return client.submit('/dashboard/team', '/dashboard/team/invitations', { email, role });
  }

  /** The token of the `nth` invitation mail to `email`. */
  async function invitationLink(email: string, nth = 1): Promise<string> {
    const mail = await mailTo(g.smtp, email, /invited to the/, nth);
    return linkIn(mail.text, '/dashboard/invitation');
  }

  async function accept(link: string, password = PASSWORD, client = new DashboardClient(g.t.url)) {
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const page = await client.get(link);
    const answer =
      page.status === 200
        ? await client.post('/dashboard/invitation', { form_token: formToken(page.text), token, password })
        : page;
    return { client, page, answer, token };
  }

  async function userId(email: string): Promise<string> {
    const row = await db()
      .selectFrom('dashboard_users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const auditOf = (merchantId: string, action: string) => auditRows(g, merchantId, action);

  it('invites a viewer who joins through the mail, signed in, and is refused every change on the server', async () => {
    const owner = await signedInOwner(g);
    const email = uniqueEmail('viewer');
    const invited = await invite(owner.client, email, 'viewer');
    expect(invited.status, invited.text).toBe(303);
    expect(locationPath(invited)).toBe('/dashboard/team?notice=invited');
    const team = await owner.client.get(locationPath(invited));
    expect(team.text).toContain('Invitation sent.');
    expect(team.text).toContain(email);
    expect(team.text).toContain('Pending invitations');

    const mail = await mailTo(g.smtp, email, /You are invited to the "Ararat Books" dashboard/);
    expect(mail.text).toContain(owner.email);
    expect(mail.text).toContain('as Viewer');
    const link = linkIn(mail.text, '/dashboard/invitation');
    // Only the token's hash is stored.
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const stored = await db()
      .selectFrom('dashboard_invitations')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    const { client: viewer, page, answer } = await accept(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Join Ararat Books');
    expect(page.text).toContain('as Viewer');
    expect(answer.status, answer.text).toBe(303);
    expect(locationPath(answer)).toBe('/dashboard/team');

    const user = await db()
      .selectFrom('dashboard_users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('viewer');
    expect(user.merchant_id).toBe(owner.merchantId);
    expect(user.email_verified_at).not.toBeNull();

    // Signed in as the viewer: the team page is read-only, the audit log is not in the navigation.
    const viewerTeam = await viewer.get('/dashboard/team');
    expect(viewerTeam.status).toBe(200);
    expect(viewerTeam.text).toContain(`Signed in as ${email}`);
    expect(viewerTeam.text).toContain('only the owner and admins can change it');
    expect(viewerTeam.text).not.toContain('action="/dashboard/team/');
    expect(viewerTeam.text).not.toContain('/dashboard/audit-log');
    for (const path of ['/dashboard', '/dashboard/team', '/dashboard/account']) {
      const seen = await viewer.get(path);
      expect(seen.status, path).toBe(200);
      expect(seen.text, path).not.toMatch(/sk_(test|live)_[A-Za-z0-9]/);
    }
    expect((await viewer.get('/dashboard/audit-log')).status).toBe(403);

    // Every change is refused on the server.
    const ownerId = await userId(owner.email);
    const formTokenOfViewer = formToken(viewerTeam.text);
    const refused: Array<[string, Record<string, string>]> = [
      ['/dashboard/team/invitations', { email: uniqueEmail('sneaky'), role: 'admin' }],
      [`/dashboard/team/members/${ownerId}/remove`, {}],
      [`/dashboard/team/members/${ownerId}/role`, { role: 'viewer' }],
      [`/dashboard/team/members/${user.id}/role`, { role: 'admin' }],
      [`/dashboard/team/invitations/${stored.id}/resend`, {}],
    ];
    for (const [path, fields] of refused) {
      const answered = await viewer.post(path, { form_token: formTokenOfViewer, ...fields });
      expect(answered.status, path).toBe(403);
      expect(answered.text).toContain('You cannot do this');
    }
    expect(
      (await db().selectFrom('dashboard_users').select('role').where('id', '=', user.id).executeTakeFirstOrThrow())
        .role,
    ).toBe('viewer');
    expect(
      await db()
        .selectFrom('dashboard_invitations')
        .selectAll()
        .where('merchant_id', '=', owner.merchantId)
        .where('accepted_at', 'is', null)
        .execute(),
    ).toEqual([]);

    // The link works once.
    const again = await accept(link);
    expect(again.page.status).toBe(400);
    expect(again.page.text).toContain('This link no longer works');
    const replay = await viewer.post('/dashboard/invitation', {
      form_token: formTokenOfViewer,
      token,
      password: PASSWORD,
    });
    expect(replay.status).toBe(400);

    // The invitation and the viewer's first sign-in are in the log.
    const invitedRows = await auditOf(owner.merchantId, 'member.invited');
    expect(invitedRows).toEqual([
      expect.objectContaining({ subject: email, actor_email: owner.email, user_id: ownerId }),
    ]);
    const signIns = await auditOf(owner.merchantId, 'sign_in.new_address');
    expect(signIns.map((row) => row.actor_email)).toContain(email);
  });

  it('checks the invitation form and never tells whether an address has an account elsewhere', async () => {
    const owner = await signedInOwner(g);
    const badEmail = await invite(owner.client, 'not an address', 'viewer');
    expect(badEmail.status).toBe(422);
    expect(badEmail.text).toContain('This is not an email address.');
    expect(badEmail.text).toContain('id="f-email-error"');
    const badRole = await invite(owner.client, uniqueEmail('x'), 'owner');
    expect(badRole.status).toBe(422);
    expect(badRole.text).toContain('Choose Admin or Viewer.');
    const member = await invite(owner.client, owner.email, 'admin');
    expect(member.status).toBe(422);
    expect(member.text).toContain('This address is already a member of the team.');

    // An address with an account of another merchant: the inviter is answered as for any address.
    const elsewhere = await signedInOwner(g);
    const answered = await invite(owner.client, elsewhere.email, 'admin');
    expect(answered.status).toBe(303);
    expect(locationPath(answered)).toBe('/dashboard/team?notice=invited');
    // The link's page tells its reader (who owns the address) that it cannot join.
    const { page } = await accept(await invitationLink(elsewhere.email));
    expect(page.status).toBe(409);
    expect(page.text).toContain('This address already has an account');
    expect(
      (
        await db()
          .selectFrom('dashboard_users')
          .select('merchant_id')
          .where('email', '=', elsewhere.email)
          .executeTakeFirstOrThrow()
      ).merchant_id,
    ).toBe(elsewhere.merchantId);
  });

  it('names an account whose stored name holds a link quoted and defanged in the invitation mail', async () => {
    const owner = await signedInOwner(g);
    // An account named before names were checked: written straight to its row.
    const hostile = '<a href="http://evil.test/x">CLICK</a>';
    await db().updateTable('merchants').set({ name: hostile }).where('id', '=', owner.merchantId).execute();
    for (const [lang, shown, subject] of [
      [
        'en',
        `"‹a href='http[:]//evil[.]test/x'›CLICK‹/a›"`,
        `You are invited to the "‹a href='http[:]//evil[.]test/x'›CLICK‹/a›" dashboard`,
      ],
      [
        'ru',
        '«‹a href="http[:]//evil[.]test/x"›CLICK‹/a›»',
        'Вас пригласили в панель «‹a href="http[:]//evil[.]test/x"›CLICK‹/a›»',
      ],
    ] as const) {
      const email = uniqueEmail(`invited-${lang}`);
      const invited = await owner.client.submit(`/dashboard/team?lang=${lang}`, '/dashboard/team/invitations', {
        email,
        role: 'viewer',
      });
      expect(invited.status, invited.text).toBe(303);
      const mail = await mailTo(g.smtp, email, /./);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(shown);
      for (const part of [mail.subject, mail.text]) {
        expect(part).not.toContain('<');
        expect(part).not.toContain('>');
        expect(part).not.toContain('evil.test');
        expect(part).not.toContain('http://evil');
      }
      // The one address in the mail is the invitation's own link.
      const addresses = [...mail.text.matchAll(/[a-z][a-z0-9+.-]*:\/\/\S+/gi)].map((match) => match[0]);
      expect(addresses).toHaveLength(1);
      expect(addresses[0]).toContain('/dashboard/invitation?token=');
    }
  });

  it('lets an admin invite an admin, and refuses a weak password on the link page', async () => {
    const owner = await signedInOwner(g);
    const admin = await signedInMember(g, owner.merchantId, 'admin');
    const email = uniqueEmail('admin');
    expect((await invite(admin, email, 'admin')).status).toBe(303);
    const link = await invitationLink(email);
    const weak = await accept(link, 'short');
    expect(weak.answer.status).toBe(422);
    expect(weak.answer.text).toContain('id="f-password-error"');
    const joined = await accept(link);
    expect(joined.answer.status).toBe(303);
    const team = await joined.client.get('/dashboard/team');
    expect(team.text).toContain('Send invitation');
    expect(
      (await db().selectFrom('dashboard_users').select('role').where('email', '=', email).executeTakeFirstOrThrow())
        .role,
    ).toBe('admin');
  });

  it('never removes or demotes the owner', async () => {
    const owner = await signedInOwner(g);
    const admin = await signedInMember(g, owner.merchantId, 'admin');
    const ownerId = await userId(owner.email);
    for (const client of [admin, owner.client]) {
      const removed = await client.submit('/dashboard/team', `/dashboard/team/members/${ownerId}/remove`, {});
      expect(removed.status).toBe(422);
      expect(removed.text).toContain('The owner cannot be removed');
      const demoted = await client.submit('/dashboard/team', `/dashboard/team/members/${ownerId}/role`, {
        role: 'viewer',
      });
      expect(demoted.status).toBe(422);
    }
    const row = await db()
      .selectFrom('dashboard_users')
      .select('role')
      .where('id', '=', ownerId)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('owner');
    expect((await owner.client.get('/dashboard')).status).toBe(200);
  });

  it('changes a role and removes a member, whose session ends at once; both are audited', async () => {
    const owner = await signedInOwner(g);
    const email = uniqueEmail('member');
    const member = await signedInMember(g, owner.merchantId, 'admin', email);
    const id = await userId(email);

    const changed = await owner.client.submit('/dashboard/team', `/dashboard/team/members/${id}/role`, {
      role: 'viewer',
    });
    expect(changed.status).toBe(303);
    expect(locationPath(changed)).toBe('/dashboard/team?notice=role-changed');
    // The new role applies to the member's very next request.
    const refused = await member.submit('/dashboard/team', '/dashboard/team/invitations', {
      email: uniqueEmail(),
      role: 'viewer',
    });
    expect(refused.status).toBe(403);
    const bad = await owner.client.submit('/dashboard/team', `/dashboard/team/members/${id}/role`, { role: 'owner' });
    expect(bad.status).toBe(422);

    const removed = await owner.client.submit('/dashboard/team', `/dashboard/team/members/${id}/remove`, {});
    expect(removed.status).toBe(303);
    expect(locationPath(removed)).toBe('/dashboard/team?notice=removed');
    const next = await member.get('/dashboard');
    expect(next.status).toBe(303);
    expect(locationPath(next)).toBe('/dashboard/sign-in?notice=session-ended');
    expect(await db().selectFrom('dashboard_sessions').selectAll().where('user_id', '=', id).execute()).toEqual([]);
    expect(await db().selectFrom('dashboard_users').selectAll().where('id', '=', id).execute()).toEqual([]);

    expect(await auditOf(owner.merchantId, 'member.role_changed')).toEqual([
      expect.objectContaining({ subject: email, actor_email: owner.email }),
    ]);
    expect(await auditOf(owner.merchantId, 'member.removed')).toEqual([
      expect.objectContaining({ subject: email, actor_email: owner.email }),
    ]);
    // The address may be invited again.
    expect((await invite(owner.client, email, 'viewer')).status).toBe(303);
  });

  it('answers 404 for another account’s members and invitations', async () => {
    const owner = await signedInOwner(g);
    const other = await signedInOwner(g);
    const otherMemberEmail = uniqueEmail('theirs');
    await signedInMember(g, other.merchantId, 'viewer', otherMemberEmail);
    const otherMember = await userId(otherMemberEmail);
    const otherInvitee = uniqueEmail('theirs');
    expect((await invite(other.client, otherInvitee, 'viewer')).status).toBe(303);
    const otherInvitation = await db()
      .selectFrom('dashboard_invitations')
      .select('id')
      .where('email', '=', otherInvitee)
      .executeTakeFirstOrThrow();
    for (const [path, fields] of [
      [`/dashboard/team/members/${otherMember}/remove`, {}],
      [`/dashboard/team/members/${otherMember}/role`, { role: 'admin' }],
      [`/dashboard/team/invitations/${otherInvitation.id}/resend`, {}],
      [`/dashboard/team/invitations/${otherInvitation.id}/cancel`, {}],
      ['/dashboard/team/members/0193c1a0-0000-7000-8000-000000000000/remove', {}],
    ] as Array<[string, Record<string, string>]>) {
      const page = await owner.client.submit('/dashboard/team', path, fields);
      expect(page.status, path).toBe(404);
      expect(page.text).toContain('Page not found');
    }
    expect(
      (await db().selectFrom('dashboard_users').select('role').where('id', '=', otherMember).executeTakeFirstOrThrow())
        .role,
    ).toBe('viewer');
    expect(
      await db().selectFrom('dashboard_invitations').selectAll().where('id', '=', otherInvitation.id).execute(),
    ).toHaveLength(1);
  });

  it('cancels and resends invitations; a link expires after 7 days', async () => {
    const owner = await signedInOwner(g);
    const cancelled = uniqueEmail('cancelled');
    expect((await invite(owner.client, cancelled, 'viewer')).status).toBe(303);
    const cancelledLink = await invitationLink(cancelled);
    const cancelledId = (
      await db()
        .selectFrom('dashboard_invitations')
        .select('id')
        .where('email', '=', cancelled)
        .executeTakeFirstOrThrow()
    ).id;
    const answer = await owner.client.submit(
      '/dashboard/team',
      `/dashboard/team/invitations/${cancelledId}/cancel`,
      {},
    );
    expect(answer.status).toBe(303);
    expect((await accept(cancelledLink)).page.status).toBe(400);
    const audited = await auditOf(owner.merchantId, 'member.invitation_cancelled');
    expect(audited.map((row) => [row.subject, row.actor_email])).toEqual([[cancelled, owner.email]]);
    // Cancelling again finds no invitation: 404, and nothing more in the log.
    const again = await owner.client.submit('/dashboard/team', `/dashboard/team/invitations/${cancelledId}/cancel`, {});
    expect(again.status).toBe(404);
    expect(await auditOf(owner.merchantId, 'member.invitation_cancelled')).toHaveLength(1);

    const resent = uniqueEmail('resent');
    expect((await invite(owner.client, resent, 'viewer')).status).toBe(303);
    const first = await invitationLink(resent);
    const resentId = (
      await db().selectFrom('dashboard_invitations').select('id').where('email', '=', resent).executeTakeFirstOrThrow()
    ).id;
    expect(
      (await owner.client.submit('/dashboard/team', `/dashboard/team/invitations/${resentId}/resend`, {})).status,
    ).toBe(303);
    const second = await invitationLink(resent, 2);
    expect(second).not.toBe(first);
    expect((await accept(first)).page.status).toBe(400);

    const late = uniqueEmail('late');
    expect((await invite(owner.client, late, 'admin')).status).toBe(303);
    const lateLink = await invitationLink(late);
    const lateToken = new URL(lateLink, 'http://x').searchParams.get('token') ?? '';
    const visitor = new DashboardClient(g.t.url);
    const open = await visitor.get(lateLink);
    expect(open.status).toBe(200);
    g.t.clock.advance(7 * DAY_MS + 1);
    expect((await visitor.get(lateLink)).status).toBe(400);
    const tooLate = await visitor.post('/dashboard/invitation', {
      form_token: formToken(open.text),
      token: lateToken,
      password: PASSWORD,
    });
    expect(tooLate.status).toBe(400);
    expect(await db().selectFrom('dashboard_users').selectAll().where('email', '=', late).execute()).toEqual([]);
    // The resent one was sent at the same time: it expired too.
    expect((await accept(second)).page.status).toBe(400);
  });
});
