/**
 * The API keys page over HTTP, on both databases: the list, a key created and shown once that works
 * on the API and is refused by the very next request after its revocation, payments-only access,
 * live keys only after business verification, "last used" written at most once a minute (manual
 * clock) without moving the account version, viewers (read-only, 403), another account's key (404),
 * and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordLastUse } from '../../gateway/auth/last-use.js';
import { formatDateTime } from '../../gateway/i18n/format.js';
import { verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import type { Deps } from '../../gateway/runtime/deps.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody } from '../support/gateway.js';
import {
  auditRows,
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

const KEY_PATTERN = /sk_(?:test|live)_[A-Za-z0-9_-]{43}/;

function shownKey(html: string): string {
  const match = /<p class="key" id="new-key">(sk_(?:test|live)_[A-Za-z0-9_-]{43})<\/p>/.exec(html);
  if (match === null) throw new Error(`no key shown in ${html}`);
  return match[1] as string;
}

describe.each(DIALECTS)('dashboard API keys (%s)', (dialect) => {
  let g: DashboardGateway;
  let deps: Deps;
  let owner: DashboardClient;
  let merchantId: string;

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

  const keyRow = (key: string) =>
    deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_prefix', '=', key.slice(0, 12))
      .where('key_last4', '=', key.slice(-4))
      .executeTakeFirstOrThrow();

  const createKey = async (client: DashboardClient, fields: Record<string, string>) =>
    client.submit('/dashboard/api-keys', '/dashboard/api-keys', fields);

  const auditOf = (action: string) => auditRows(g, merchantId, action);

  it('lists the account key by its prefix and last four, with environment, access, created and last used', async () => {
    const row = await deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    const page = await owner.get('/dashboard/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${row.key_prefix}…${row.key_last4}`);
    expect(page.text).toContain('<td>Test</td>');
    expect(page.text).toContain('<td>Full access</td>');
    expect(page.text).toContain('<td>Never</td>');
    expect(page.text).not.toMatch(KEY_PATTERN);
    expect(page.text).toContain('aria-current="page">API keys</a>');
  });

  it('shows a new key once; it takes payments and is refused with 401 by the next request after revocation', async () => {
    const created = await createKey(owner, { environment: 'test', access: 'full' });
    expect(created.status, created.text).toBe(201);
    expect(created.location).toBeNull();
    expect(created.headers.get('cache-control')).toContain('no-store');
    const key = shownKey(created.text);
    expect(key).toMatch(/^sk_test_/);
    expect(created.text).toContain('data-copy="new-key"');
    expect(created.text).toContain('it is shown only this once');

    const list = await owner.get('/dashboard/api-keys');
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`${key.slice(0, 12)}…${key.slice(-4)}`);

    const paid = await g.t.call('POST', '/api/v1/payments', { key, body: paymentBody() });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    // Cached by the gateway now: the revocation must reach it through the account version.
    expect((await g.t.call('GET', '/api/v1/payments', { key })).status).toBe(200);

    const row = await keyRow(key);
    const label = `${key.slice(0, 12)}…${key.slice(-4)}`;
    expect(list.text).toContain(`Revoke ${label}`);
    const confirm = await owner.submit('/dashboard/api-keys', `/dashboard/api-keys/${row.id}/revoke`, {});
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`Revoke ${label}?`);
    expect((await keyRow(key)).revoked_at).toBeNull();
    const revoked = await owner.post(`/dashboard/api-keys/${row.id}/revoke`, {
      form_token: formToken(confirm.text),
      confirm: 'yes',
    });
    expect(revoked.status).toBe(303);
    expect(locationPath(revoked)).toBe('/dashboard/api-keys?notice=revoked');

    const refused = await g.t.call('POST', '/api/v1/payments', { key, body: paymentBody() });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_api_key');

    const after = await owner.get('/dashboard/api-keys?notice=revoked');
    expect(after.text).toContain('The key is revoked.');
    expect(after.text).toContain('Revoked ');
    expect(after.text).not.toContain(`Revoke ${label}`);
    // Revoking again only says so.
    const again = await owner.post(`/dashboard/api-keys/${row.id}/revoke`, {
      form_token: formToken(after.text),
      confirm: 'yes',
    });
    expect(locationPath(again)).toBe('/dashboard/api-keys?notice=already-revoked');

    const createdAudit = await auditOf('api_key.created');
    expect(createdAudit.map((event) => event.subject)).toContain(label);
    const revokedAudit = await auditOf('api_key.revoked');
    expect(revokedAudit.map((event) => event.subject)).toEqual([label]);
    expect(revokedAudit[0]?.user_id).not.toBeNull();
    expect(JSON.stringify([...createdAudit, ...revokedAudit])).not.toContain(key);
  });

  it('makes payments-only keys that cannot read billing', async () => {
    const created = await createKey(owner, { environment: 'test', access: 'payments' });
    expect(created.status).toBe(201);
    expect(created.text).toContain('Test key, payments only.');
    const key = shownKey(created.text);
    expect((await keyRow(key)).access).toBe('payments');
    expect((await g.t.call('POST', '/api/v1/payments', { key, body: paymentBody() })).status).toBe(201);
    const billing = await g.t.call('GET', '/api/v1/billing/balances', { key });
    expect(billing.status).toBe(403);
    const list = await owner.get('/dashboard/api-keys');
    expect(list.text).toContain('<td>Payments only</td>');
  });

  it('refuses bad choices with 422 and names the field', async () => {
    const page = await createKey(owner, { environment: 'staging', access: 'everything' });
    expect(page.status).toBe(422);
    expect(page.text).toContain('Choose test or live.');
    expect(page.text).toContain('Choose the access.');
  });

  it('offers live keys only once the business is verified', async () => {
    const before = await owner.get('/dashboard/api-keys');
    expect(before.text).toMatch(/id="environment-live" name="environment" value="live" disabled/);
    expect(before.text).toContain('Live keys can be created once your business is verified.');
    expect(before.text).toContain('href="/dashboard/business"');

    const refused = await createKey(owner, { environment: 'live', access: 'full' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert">Live keys can be created once your business is verified.');
    expect(refused.text).not.toMatch(KEY_PATTERN);
    const live = await deps.db
      .selectFrom('api_keys')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', 'live')
      .execute();
    expect(live).toEqual([]);

    await verifyBusiness(deps, merchantId);
    const after = await owner.get('/dashboard/api-keys');
    expect(after.text).not.toMatch(/value="live" disabled/);
    expect(after.text).not.toContain('Live keys can be created once');
    const created = await createKey(owner, { environment: 'live', access: 'full' });
    expect(created.status).toBe(201);
    expect(shownKey(created.text)).toMatch(/^sk_live_/);
    expect(created.text).toContain('Live key, full access.');
  });

  it('shows when a key was last used, written at most once a minute and without moving the account version', async () => {
    const key = shownKey((await createKey(owner, { environment: 'test', access: 'full' })).text);
    const row = await keyRow(key);
    const version = async () =>
      (await deps.db.selectFrom('account_version').select('version').executeTakeFirstOrThrow()).version;
    const lastUsed = async () => (await keyRow(key)).last_used_at;
    expect(await lastUsed()).toBeNull();
    const versionBefore = String(await version());

    const firstUse = deps.clock.nowMs();
    expect((await g.t.call('GET', '/api/v1/payments', { key })).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).toBe(new Date(firstUse).toISOString()));
    expect(String(await version())).toBe(versionBefore);
    const page = await owner.get('/dashboard/api-keys');
    const shown = new Date(firstUse).toISOString();
    expect(page.text).toContain(
      `<td><time datetime="${shown}">${formatDateTime('en', shown)}</time></td>\n<td><span class="keys-badge on">`,
    );

    g.t.clock.advance(30_000);
    expect((await g.t.call('GET', '/api/v1/payments', { key })).status).toBe(200);
    // Not written again within the minute, even by another instance (no memo there: the
    // conditional write refuses it).
    await recordLastUse({ ...deps, accountCache: Object.create(deps.accountCache) }, 'api_key', row.id);
    expect(await lastUsed()).toBe(new Date(firstUse).toISOString());

    g.t.clock.advance(31_000);
    const laterUse = deps.clock.nowMs();
    expect((await g.t.call('GET', '/api/v1/payments', { key })).status).toBe(200);
    await vi.waitFor(async () => expect(await lastUsed()).toBe(new Date(laterUse).toISOString()));
    expect(String(await version())).toBe(versionBefore);
  });

  it('never fails a request because its last use could not be written', async () => {
    const warnings: unknown[] = [];
    const failing = {
      ...deps,
      accountCache: Object.create(deps.accountCache),
      db: {
        updateTable: () => {
          throw new Error('database is gone');
        },
      },
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
    } as unknown as Deps;
    await expect(recordLastUse(failing, 'api_key', 'some-key')).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('shows viewers the list without secrets nor forms, and refuses their POSTs with 403', async () => {
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const page = await viewer.get('/dashboard/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('As a viewer you can see the keys');
    expect(page.text).not.toContain('action="/dashboard/api-keys"');
    expect(page.text).not.toContain('/revoke"');
    expect(page.text).not.toMatch(KEY_PATTERN);
    const count = async () =>
      (await deps.db.selectFrom('api_keys').select('id').where('merchant_id', '=', merchantId).execute()).length;
    const keys = await count();
    const token = formToken(page.text);
    const create = await viewer.post('/dashboard/api-keys', { form_token: token, environment: 'test', access: 'full' });
    expect(create.status).toBe(403);
    const active = await deps.db
      .selectFrom('api_keys')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    const revoke = await viewer.post(`/dashboard/api-keys/${active.id}/revoke`, { form_token: token, confirm: 'yes' });
    expect(revoke.status).toBe(403);
    expect(await count()).toBe(keys);
    const still = await deps.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', active.id)
      .executeTakeFirstOrThrow();
    expect(still.revoked_at).toBeNull();
  });

  it("answers 404 for another account's key, and leaves it alone", async () => {
    const other = await signedInOwner(g);
    const foreign = await deps.db
      .selectFrom('api_keys')
      .select('id')
      .where('merchant_id', '=', other.merchantId)
      .executeTakeFirstOrThrow();
    const page = await owner.submit('/dashboard/api-keys', `/dashboard/api-keys/${foreign.id}/revoke`, {
      confirm: 'yes',
    });
    expect(page.status).toBe(404);
    const unknown = await owner.submit('/dashboard/api-keys', '/dashboard/api-keys/no-such-key/revoke', {
      confirm: 'yes',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Page not found');
    const row = await deps.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
    // The other owner does not see this account's keys.
    const theirs = await other.client.get('/dashboard/api-keys');
    const mine = await deps.db
      .selectFrom('api_keys')
      .select(['key_prefix', 'key_last4'])
      .where('merchant_id', '=', merchantId)
      .execute();
    for (const key of mine) expect(theirs.text).not.toContain(`${key.key_prefix}…${key.key_last4}`);
  });

  it('speaks Armenian and Russian', async () => {
    expect((await owner.get('/dashboard/api-keys?lang=hy')).text).toContain('Ստեղծել բանալի');
    expect((await owner.get('/dashboard/api-keys?lang=ru')).text).toContain('Создать ключ');
    await owner.get('/dashboard/api-keys?lang=en');
  });
});
