/**
 * The audit log page over HTTP, on both databases: entries appear for actions (a sign-in from a
 * new address, an invitation), worded in the reader's language, newest first, 50 a page with a
 * cursor link to the older ones; a malformed cursor is a 400; viewers get 403; another account's
 * entries never show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditAction, recordAudit } from '../../gateway/dashboard/audit/audit.service.js';
import { DIALECTS } from '../support/databases.js';
import { type DashboardGateway, signedInMember, signedInOwner, startDashboardGateway, uniqueEmail } from './support.js';

/** The rows of the page's table: their action ids and subjects, in order. */
function rows(html: string): Array<{ action: string; subject: string }> {
  return [...html.matchAll(/<tr data-action="([^"]+)">([\s\S]*?)<\/tr>/g)].map((match) => {
    const cells = [...(match[2] as string).matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] as string);
    return { action: match[1] as string, subject: cells[3] ?? '' };
  });
}

function nextLink(html: string): string | null {
  const match = /<a href="([^"]+)" rel="next">/.exec(html);
  return match === null ? null : (match[1] as string).replaceAll('&amp;', '&');
}

describe.each(DIALECTS)('dashboard audit log (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });

  it('shows the account’s actions, newest first, worded in the reader’s language', async () => {
    const owner = await signedInOwner(g);
    const other = await signedInOwner(g);
    const invitee = uniqueEmail('invitee');
    const invited = await owner.client.submit('/dashboard/team', '/dashboard/team/invitations', {
      email: invitee,
      role: 'viewer',
    });
    expect(invited.status).toBe(303);
    await recordAudit(g.t.gateway.deps, g.t.gateway.deps.db, {
      merchantId: owner.merchantId,
      actor: null,
      action: 'api_key.created',
      subject: 'sk_live_…ab12',
    });

    const page = await owner.client.get('/dashboard/audit-log');
    expect(page.status).toBe(200);
    expect(rows(page.text).map((row) => row.action)).toEqual([
      'api_key.created',
      'member.invited',
      'sign_in.new_address',
    ]);
    expect(rows(page.text)[1]?.subject).toBe(invitee);
    expect(page.text).toContain('Member invited');
    expect(page.text).toContain('Signed in from a new address');
    expect(page.text).toContain('API key created');
    expect(page.text).toContain('>Operator<');
    expect(page.text).toContain(owner.email);
    expect(page.text).toMatch(/<time datetime="\d{4}-\d{2}-\d{2}T[^"]+Z">/);
    // Another account's entries never show.
    expect(page.text).not.toContain(other.email);
    expect(nextLink(page.text)).toBeNull();

    const russian = await owner.client.get('/dashboard/audit-log?lang=ru');
    expect(russian.text).toContain('Журнал действий');
    expect(russian.text).toContain('Участник приглашён');
    expect(russian.text).toContain('Оператор');
    const armenian = await owner.client.get('/dashboard/audit-log?lang=hy');
    expect(armenian.text).toContain('Անդամը հրավիրվել է');
  });

  it('pages 50 entries at a time with a cursor, and refuses a malformed one', async () => {
    const owner = await signedInOwner(g);
    const deps = g.t.gateway.deps;
    const actions: AuditAction[] = ['domain.added', 'domain.verified', 'refund.created'];
    for (let i = 0; i < 60; i += 1) {
      await recordAudit(deps, deps.db, {
        merchantId: owner.merchantId,
        actor: null,
        action: actions[i % actions.length] as AuditAction,
        subject: `entry-${String(i).padStart(2, '0')}`,
      });
      if (i % 2 === 0) g.t.clock.advance(1);
    }
    const first = await owner.client.get('/dashboard/audit-log');
    const firstRows = rows(first.text);
    expect(firstRows).toHaveLength(50);
    expect(firstRows[0]?.subject).toBe('entry-59');
    expect(firstRows[49]?.subject).toBe('entry-10');
    const next = nextLink(first.text);
    expect(next).toMatch(/^\/dashboard\/audit-log\?after=/);

    const second = await owner.client.get(next ?? '');
    expect(second.status).toBe(200);
    const secondRows = rows(second.text);
    // The 10 older entries, then the owner's sign-in (the oldest of all).
    expect(secondRows.map((row) => row.subject)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `entry-${String(9 - i).padStart(2, '0')}`),
      expect.any(String),
    ]);
    expect(secondRows.at(-1)?.action).toBe('sign_in.new_address');
    expect(nextLink(second.text)).toBeNull();
    expect(second.text).toContain('href="/dashboard/audit-log"');

    for (const bad of [
      'nonsense',
      '2026-01-01T00:00:00.000Z|not-a-uuid',
      "x'|y",
      '2026-13-45T99:99:99Z|0193c1a0-0000-7000-8000-000000000000',
    ]) {
      const page = await owner.client.get(`/dashboard/audit-log?after=${encodeURIComponent(bad)}`);
      expect(page.status, bad).toBe(400);
      expect(page.text).toContain('This page of the log does not exist');
    }
  });

  it('refuses viewers (403) and hides the entry from their navigation; admins read it', async () => {
    const owner = await signedInOwner(g);
    const viewer = await signedInMember(g, owner.merchantId, 'viewer');
    const page = await viewer.get('/dashboard/audit-log');
    expect(page.status).toBe(403);
    expect(page.text).toContain('You cannot do this');
    expect(page.text).not.toContain('sign_in.new_address');
    expect((await viewer.get('/dashboard')).text).not.toContain('href="/dashboard/audit-log"');
    const admin = await signedInMember(g, owner.merchantId, 'admin');
    const read = await admin.get('/dashboard/audit-log');
    expect(read.status).toBe(200);
    expect(rows(read.text).filter((row) => row.action === 'sign_in.new_address')).toHaveLength(3);
  });
});
