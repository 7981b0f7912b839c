/**
 * The connect tokens page over HTTP, on both databases: no verified domain (explained, with the way
 * to the domains page), a token created for a verified domain and shown once with its plugin's
 * install steps, accepted by the API, its last use shown, refused by the very next request after
 * its revocation; live tokens only after business verification; viewers (read-only, 403); another
 * account's token (404); the audit log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDomain, verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import type { Deps } from '../../gateway/runtime/deps.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { uniqueHost } from '../support/gateway.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

function shownToken(html: string): string {
  const match = /<p class="key" id="new-token">([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)<\/p>/.exec(html);
  if (match === null) throw new Error(`no token shown in ${html}`);
  return match[1] as string;
}

describe.each(DIALECTS)('dashboard connect tokens (%s)', (dialect) => {
  let g: DashboardGateway;
  let deps: Deps;
  let owner: DashboardClient;
  let merchantId: string;
  let host: string;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    deps = g.t.gateway.deps;
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    merchantId = signedIn.merchantId;
  });
  afterAll(async () => {
    await g?.close();
  });

  const introspect = (token: string) =>
    g.t.call('GET', '/api/v1/connect_token', { headers: { 'X-Service-Connect': token } });

  const create = (client: DashboardClient, fields: Record<string, string>) =>
    client.submit('/dashboard/connect-tokens', '/dashboard/connect-tokens', fields);

  const auditOf = (action: string) => auditRows(g, merchantId, action);

  it('explains that a verified domain is needed first, with the way to the domains page', async () => {
    await addDomain(deps, { merchantId, host: uniqueHost('unverified'), verified: false });
    const page = await owner.get('/dashboard/connect-tokens');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No connect tokens yet.');
    expect(page.text).toContain('you have none yet');
    expect(page.text).toContain('href="/dashboard/domains"');
    expect(page.text).not.toContain('action="/dashboard/connect-tokens"');
    // The hosted domain is not offered, nor accepted.
    const hosted = await deps.db
      .selectFrom('domains')
      .select('host')
      .where('merchant_id', '=', merchantId)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
    const refused = await owner.post('/dashboard/connect-tokens', {
      form_token: formToken(page.text),
      domain: hosted.host,
      platform: 'woocommerce',
      environment: 'test',
    });
    expect(refused.status).toBe(422);
  });

  it('creates a token for a verified domain, shown once with the install steps; revoked, the next request is refused', async () => {
    host = uniqueHost('store');
    await addDomain(deps, { merchantId, host, verified: true });
    const form = await owner.get('/dashboard/connect-tokens');
    expect(form.text).toContain(`<option value="${host}" selected>${host}</option>`);

    const created = await create(owner, { domain: host, platform: 'woocommerce', environment: 'test' });
    expect(created.status, created.text).toBe(201);
    expect(created.location).toBeNull();
    expect(created.headers.get('cache-control')).toContain('no-store');
    const token = shownToken(created.text);
    expect(created.text).toContain(`Test token for WooCommerce on ${host}, valid until `);
    expect(created.text).toContain('Install it in WooCommerce');
    expect(created.text).toContain('WooCommerce › Settings › Payments › Armenian Payment Gateway');
    expect(created.text).toContain('data-copy="new-token"');

    const introspected = await introspect(token);
    expect(introspected.status).toBe(200);
    expect(introspected.body.domain).toBe(host);
    const row = await deps.db
      .selectFrom('connect_tokens')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    await vi.waitFor(async () =>
      expect(
        (
          await deps.db
            .selectFrom('connect_tokens')
            .select('last_used_at')
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow()
        ).last_used_at,
      ).not.toBeNull(),
    );

    const list = await owner.get('/dashboard/connect-tokens');
    expect(list.text).not.toContain(token);
    expect(list.text).toContain(`<td>${host}</td>`);
    expect(list.text).toContain('<td>WooCommerce</td>');
    expect(list.text).not.toContain('<td>Never</td>');
    const label = `Revoke the WooCommerce token for ${host} (${row.id.slice(0, 8)})`;
    expect(list.text).toContain(label);

    const confirm = await owner.post(`/dashboard/connect-tokens/${row.id}/revoke`, {
      form_token: formToken(list.text),
    });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Revoke this connect token?');
    const revoked = await owner.post(`/dashboard/connect-tokens/${row.id}/revoke`, {
      form_token: formToken(confirm.text),
      confirm: 'yes',
    });
    expect(revoked.status).toBe(303);
    expect(locationPath(revoked)).toBe('/dashboard/connect-tokens?notice=revoked');
    const refused = await introspect(token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_connect_token');

    const after = await owner.get('/dashboard/connect-tokens?notice=revoked');
    expect(after.text).toContain('The connect token is revoked.');
    expect(after.text).not.toContain(label);

    const subject = `${row.id} (woocommerce, ${host})`;
    expect((await auditOf('connect_token.created')).map((e) => e.subject)).toEqual([subject]);
    expect((await auditOf('connect_token.revoked')).map((e) => e.subject)).toEqual([subject]);
  });

  it('shows the Shopify steps for a Shopify token', async () => {
    const created = await create(owner, { domain: host, platform: 'shopify', environment: 'test' });
    expect(created.status).toBe(201);
    expect(created.text).toContain('Install it in Shopify');
    expect(created.text).toContain('Install the Armenian Payment Gateway app in your Shopify admin');
  });

  it('refuses bad choices with 422 and names the field', async () => {
    const page = await create(owner, { domain: 'elsewhere.am', platform: 'magento', environment: 'staging' });
    expect(page.status).toBe(422);
    expect(page.text).toContain('Choose one of your verified domains.');
    expect(page.text).toContain('Choose WooCommerce or Shopify.');
    expect(page.text).toContain('Choose test or live.');
  });

  it('offers live tokens only once the business is verified', async () => {
    const before = await owner.get('/dashboard/connect-tokens');
    expect(before.text).toMatch(/value="live" disabled/);
    expect(before.text).toContain('Live tokens can be created once your business is verified.');
    expect(before.text).toContain('href="/dashboard/business"');
    const refused = await create(owner, { domain: host, platform: 'woocommerce', environment: 'live' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert">Live tokens can be created once your business is verified.');
    const live = await deps.db
      .selectFrom('connect_tokens')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', 'live')
      .execute();
    expect(live).toEqual([]);

    await verifyBusiness(deps, merchantId);
    const created = await create(owner, { domain: host, platform: 'woocommerce', environment: 'live' });
    expect(created.status).toBe(201);
    expect(created.text).toContain(`Live token for WooCommerce on ${host}`);
    expect((await introspect(shownToken(created.text))).body.environment).toBe('live');
  });

  it('shows viewers the list without forms, and refuses their POSTs with 403', async () => {
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const page = await viewer.get('/dashboard/connect-tokens');
    expect(page.status).toBe(200);
    expect(page.text).toContain('As a viewer you can see the tokens');
    expect(page.text).toContain(`<td>${host}</td>`);
    expect(page.text).not.toContain('action="/dashboard/connect-tokens');
    const token = formToken(page.text);
    const active = await deps.db
      .selectFrom('connect_tokens')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    const count = async () =>
      (await deps.db.selectFrom('connect_tokens').select('id').where('merchant_id', '=', merchantId).execute()).length;
    const before = await count();
    const createdByViewer = await viewer.post('/dashboard/connect-tokens', {
      form_token: token,
      domain: host,
      platform: 'woocommerce',
      environment: 'test',
    });
    expect(createdByViewer.status).toBe(403);
    const revokedByViewer = await viewer.post(`/dashboard/connect-tokens/${active.id}/revoke`, {
      form_token: token,
      confirm: 'yes',
    });
    expect(revokedByViewer.status).toBe(403);
    expect(await count()).toBe(before);
    const still = await deps.db
      .selectFrom('connect_tokens')
      .select('revoked_at')
      .where('id', '=', active.id)
      .executeTakeFirstOrThrow();
    expect(still.revoked_at).toBeNull();
  });

  it("answers 404 for another account's token, and leaves it alone", async () => {
    const other = await signedInOwner(g);
    const theirHost = uniqueHost('theirs');
    await addDomain(deps, { merchantId: other.merchantId, host: theirHost, verified: true });
    const created = await create(other.client, { domain: theirHost, platform: 'shopify', environment: 'test' });
    expect(created.status).toBe(201);
    const theirs = await deps.db
      .selectFrom('connect_tokens')
      .select('id')
      .where('merchant_id', '=', other.merchantId)
      .executeTakeFirstOrThrow();
    const page = await owner.submit('/dashboard/connect-tokens', `/dashboard/connect-tokens/${theirs.id}/revoke`, {
      confirm: 'yes',
    });
    expect(page.status).toBe(404);
    const row = await deps.db
      .selectFrom('connect_tokens')
      .select('revoked_at')
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
    // Nor may one name another account's verified domain.
    const foreignDomain = await create(owner, { domain: theirHost, platform: 'shopify', environment: 'test' });
    expect(foreignDomain.status).toBe(422);
    const theirList = await other.client.get('/dashboard/connect-tokens');
    expect(theirList.text).not.toContain(host);
  });

  it('speaks Armenian and Russian', async () => {
    expect((await owner.get('/dashboard/connect-tokens?lang=hy')).text).toContain('Ստեղծել թոքեն');
    expect((await owner.get('/dashboard/connect-tokens?lang=ru')).text).toContain('Создать токен');
    await owner.get('/dashboard/connect-tokens?lang=en');
  });
});
