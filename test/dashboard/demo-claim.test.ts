/**
 * The demo merchant's link (gateway/dashboard/demo/) over real HTTP on both databases: its
 * visitor chooses an email and password, becomes the owner signed in, sees the test key once on the
 * home page and the key's payments in the list, and signs in again later; the link works once,
 * for 24 hours, only while the merchant has no dashboard user; bad fields are refused without
 * using it up; two claims posted together make one owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../gateway/dashboard/cookies.js';
import { DEMO_CLAIM_TTL_MS, issueDemoClaim } from '../../gateway/dashboard/demo/demo.service.js';
import { DIALECTS } from '../support/databases.js';
import { PUBLIC_URL, paymentBody, type TestMerchant } from '../support/gateway.js';
import {
  DashboardClient,
  type DashboardGateway,
  locationPath,
  PASSWORD,
  signedInMember,
  signIn,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

describe.each(DIALECTS)('the demo merchant link (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });

  /** A merchant without dashboard users (as the demo merchant is) and its link's path and query. */
  async function demo(): Promise<{ m: TestMerchant; link: string }> {
    const m = await g.t.merchant({ name: 'Demo Shop' });
    const url = await issueDemoClaim(g.t.gateway.deps, m.merchantId, m.testKey);
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/dashboard/demo\\?token=[A-Za-z0-9_-]{43}$`));
    return { m, link: url.slice(PUBLIC_URL.length) };
  }

  const tokenOf = (link: string) => new URL(link, 'http://x').searchParams.get('token') ?? '';

  const users = (merchantId: string) =>
    g.t.gateway.deps.db.selectFrom('dashboard_users').selectAll().where('merchant_id', '=', merchantId).execute();

  it("makes the link's visitor the owner, signed in, with the key's payments in the list", async () => {
    const { m, link } = await demo();
    const orderId = `demo-${Date.now()}`;
    const created = await g.t.call('POST', '/api/v1/payments', {
      key: m.testKey,
      body: paymentBody({ order_id: orderId }),
    });
    expect(created.status, created.text).toBe(201);

    const client = new DashboardClient(g.t.url);
    const form = await client.get(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Become the owner of Demo Shop');
    const email = uniqueEmail('demo');
    const claimed = await client.submit(link, '/dashboard/demo', { token: tokenOf(link), email, password: PASSWORD });
    expect(claimed.status, claimed.text).toBe(303);
    expect(locationPath(claimed)).toBe('/dashboard');
    expect(client.cookies.has(SESSION_COOKIE)).toBe(true);

    // The home page shows the printed key once, in its curl too; the next visit no more.
    const home = await client.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(m.testKey);
    expect((await client.get('/dashboard')).text).not.toContain(m.testKey);
    const payments = await client.get('/dashboard/payments');
    expect(payments.status).toBe(200);
    expect(payments.text).toContain(orderId);

    const [owner, ...others] = await users(m.merchantId);
    expect(others).toEqual([]);
    expect(owner).toMatchObject({ email, role: 'owner' });
    expect(owner?.email_verified_at).not.toBeNull();
    const merchant = await g.t.gateway.deps.db
      .selectFrom('merchants')
      .select(['email', 'language'])
      .where('id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    expect(merchant).toEqual({ email, language: 'en' });

    // Signed out, the owner signs in again with what they chose.
    const again = new DashboardClient(g.t.url);
    const signedIn = await signIn(again, email);
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(locationPath(signedIn)).toBe('/dashboard');

    // The link worked once: neither its page nor its form does anything now.
    const stranger = new DashboardClient(g.t.url);
    const dead = await stranger.get(link);
    expect(dead.status).toBe(400);
    expect(dead.text).toContain('This link no longer works');
    expect(dead.text).not.toContain('name="password"');
    const reused = await stranger.submit('/dashboard/sign-in', '/dashboard/demo', {
      token: tokenOf(link),
      email: uniqueEmail('late'),
      password: PASSWORD,
    });
    expect(reused.status).toBe(400);
    expect(stranger.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await users(m.merchantId)).toHaveLength(1);
  });

  it('refuses missing and bad fields, and an address with an account, without using the link up', async () => {
    const { m, link } = await demo();
    const client = new DashboardClient(g.t.url);
    const token = tokenOf(link);
    const empty = await client.submit(link, '/dashboard/demo', { token, email: '', password: 'short' });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('Fill this in.');
    expect(empty.text).toContain('aria-invalid="true"');

    const other = await g.t.merchant();
    const taken = uniqueEmail('taken');
    await signedInMember(g, other.merchantId, 'admin', taken);
    const refused = await client.submit(link, '/dashboard/demo', { token, email: taken, password: PASSWORD });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('This address belongs to another account.');
    expect(refused.text).toContain(`value="${taken}"`);
    expect(await users(m.merchantId)).toEqual([]);

    const email = uniqueEmail('demo');
    const claimed = await client.submit(link, '/dashboard/demo', { token, email, password: PASSWORD });
    expect(claimed.status, claimed.text).toBe(303);
    expect((await users(m.merchantId)).map((u) => u.email)).toEqual([email]);
  });

  it('stops working after 24 hours', async () => {
    const { m, link } = await demo();
    g.t.clock.advance(DEMO_CLAIM_TTL_MS - 1);
    const client = new DashboardClient(g.t.url);
    expect((await client.get(link)).status).toBe(200);
    g.t.clock.advance(1);
    expect((await client.get(link)).status).toBe(400);
    const late = await client.submit('/dashboard/sign-in', '/dashboard/demo', {
      token: tokenOf(link),
      email: uniqueEmail('late'),
      password: PASSWORD,
    });
    expect(late.status).toBe(400);
    expect(await users(m.merchantId)).toEqual([]);
  });

  it('does not work once the merchant has a dashboard user, nor with a token it did not print', async () => {
    const { m, link } = await demo();
    await signedInMember(g, m.merchantId, 'admin');
    const client = new DashboardClient(g.t.url);
    expect((await client.get(link)).status).toBe(400);
    expect((await client.get('/dashboard/demo?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(400);
    expect((await client.get('/dashboard/demo')).status).toBe(400);
  });

  it('makes one owner when two claims are posted at once', async () => {
    const { m, link } = await demo();
    const token = tokenOf(link);
    const clients = [new DashboardClient(g.t.url), new DashboardClient(g.t.url)];
    const forms = await Promise.all(clients.map((c) => c.get(link)));
    const answers = await Promise.all(
      clients.map((c, i) =>
        c.post('/dashboard/demo', {
          form_token: /name="form_token" value="([^"]+)"/.exec(forms[i]?.text ?? '')?.[1] ?? '',
          token,
          email: uniqueEmail(`race${i}`),
          password: PASSWORD,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400]);
    expect(await users(m.merchantId)).toHaveLength(1);
  });
});
