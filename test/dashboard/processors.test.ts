/**
 * The Processors section over HTTP on both databases: the sandbox installed on a verified domain
 * takes a live key's sandbox payment; a live processor configured from the form generated from its
 * schema is stored sealed and never shown back; schema problems are 422 with the field named and
 * no secret echoed; the checkout's order follows the up/down buttons; disabling; the
 * `no_payment_method_configured` explanation; viewers read without forms (POSTs 403), another
 * account's host is 404; the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { listEnabledProcessors } from '../../storage/checkout.repository.js';
import { findDomainProcessor, findMerchantDomain } from '../../storage/domain.repository.js';
import { formToken, visibleText } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { paymentBody, uniqueHost } from '../support/gateway.js';
import {
  type DashboardClient,
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

const IDRAM_SECRET = 'IdramSecret-9f3b2c7d5e';
const AMERIA_PASSWORD = 'AmeriaPassw0rd-4471';

describe.each(DIALECTS)('dashboard processors (%s)', (dialect) => {
  let g: DashboardGateway;
  let owner: DashboardClient;
  let merchantId: string;
  let host: string;
  let hostedHost: string;
  let liveKey: string;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    merchantId = signedIn.merchantId;
    const deps = g.t.gateway.deps;
    host = uniqueHost('books');
    await addDomain(deps, { merchantId, host, verified: true });
    await verifyBusiness(deps, merchantId);
    liveKey = await g.t.key(merchantId, 'live');
    const hosted = await deps.db
      .selectFrom('domains')
      .select('host')
      .where('merchant_id', '=', merchantId)
      .where('hosted', '=', 1)
      .executeTakeFirstOrThrow();
    hostedHost = hosted.host;
  });
  afterAll(async () => g?.close());

  const page = (h = host) => `/dashboard/domains/${h}/processors`;
  const livePayment = (processor?: string) =>
    g.t.call('POST', '/api/v1/payments', {
      key: liveKey,
      body: paymentBody({
        domain: host,
        return_url: `https://${host}/done`,
        ...(processor === undefined ? {} : { processor }),
      }),
    });
  const domainId = async () => (await findMerchantDomain(g.t.gateway.deps.db, merchantId, host))?.id ?? '';
  const audit = async () =>
    g.t.gateway.deps.db
      .selectFrom('dashboard_audit_events')
      .select(['action', 'subject'])
      .where('merchant_id', '=', merchantId)
      .where('action', 'like', 'processor.%')
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('lists every domain with what its checkout offers, linking to each domain', async () => {
    const overview = await owner.get('/dashboard/processors');
    expect(overview.status, overview.text).toBe(200);
    const text = visibleText(overview.text);
    expect(text).toContain(host);
    expect(text).toContain(hostedHost);
    expect(text).toContain('Sandbox (test cards)');
    expect(overview.text).toContain(`href="${page()}"`);
    expect(overview.text).toContain('aria-current="page"');
  });

  it('installs the sandbox on a verified domain: a live key then makes sandbox payments there', async () => {
    const before = await owner.get(page());
    expect(before.status).toBe(200);
    expect(visibleText(before.text)).toContain(
      'No processor is enabled here, so every live payment for this domain is refused with the error no_payment_method_configured.',
    );
    expect(visibleText(before.text)).toMatch(/Sandbox \(test cards\) Not installed None needed Install/);
    const refused = await livePayment('sandbox');
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error).toBe('no_payment_method_configured');

    const installed = await owner.submit(page(), `${page()}/sandbox/enable`, {});
    expect(installed.status, installed.text).toBe(303);
    expect(locationPath(installed)).toBe(`${page()}?notice=enabled&processor=sandbox`);
    const after = await owner.get(locationPath(installed));
    const text = visibleText(after.text);
    expect(text).toContain('Sandbox (test cards) is enabled.');
    expect(text).toContain('Only the sandbox is enabled here');

    const created = await livePayment('sandbox');
    expect(created.status, created.text).toBe(201);
    expect(created.body.livemode).toBe(false);
    // The sandbox never pays a live payment: one that names no processor is refused, as the box says.
    const live = await livePayment();
    expect(live.status, live.text).toBe(422);
    expect(live.body).toMatchObject({ error: 'no_payment_method_configured', enabled_processors: ['sandbox'] });
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox']);
  });

  it('generates the settings form from the schema, refuses bad settings by field (422) without echoing secrets', async () => {
    const form = await owner.get(`${page()}/ameria`);
    expect(form.status).toBe(200);
    for (const name of ['base_url', 'client_id', 'username', 'password', 'order_id_min', 'order_id_max']) {
      expect(form.text).toContain(`name="setting_${name}"`);
    }
    expect(form.text).toMatch(/name="setting_password" type="password"/);
    expect(form.text).toMatch(
      /name="setting_base_url" type="url"[^>]*value="https:\/\/services\.ameriabank\.am\/VPOS\/"/,
    );
    expect(form.text).toMatch(/name="setting_order_id_min" type="number"/);
    expect(visibleText(form.text)).toContain('Client ID');

    const bad = await owner.submit(`${page()}/ameria`, `${page()}/ameria`, {
      setting_client_id: 'not-a-guid',
      setting_username: 'books_api',
      setting_password: AMERIA_PASSWORD,
      setting_order_id_min: '2000',
      setting_order_id_max: '1000',
    });
    expect(bad.status).toBe(422);
    expect(bad.text).not.toContain(AMERIA_PASSWORD);
    expect(bad.text).toMatch(/id="f-setting_client_id-error">[^<]*must be the ClientID GUID the bank issued/);
    expect(bad.text).toMatch(/id="f-setting_order_id_max-error">[^<]*must not be below order_id_min/);
    expect(bad.text).toContain('value="books_api"');

    const missing = await owner.submit(`${page()}/idram`, `${page()}/idram`, { setting_rec_account: '12345' });
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(/id="f-setting_secret_key-error">Fill in this field\./);
    expect(await findDomainProcessor(g.t.gateway.deps.db, await domainId(), 'ameria')).toBeUndefined();
    expect(await findDomainProcessor(g.t.gateway.deps.db, await domainId(), 'idram')).toBeUndefined();
  });

  it('configures a live processor: sealed at rest, never shown back, offered after the sandbox', async () => {
    const saved = await owner.submit(`${page()}/idram`, `${page()}/idram`, {
      setting_rec_account: '110000601',
      setting_secret_key: IDRAM_SECRET,
      setting_form_url: '',
    });
    expect(saved.status, saved.text).toBe(303);
    expect(locationPath(saved)).toBe(`${page()}?notice=configured&processor=idram`);

    const row = await findDomainProcessor(g.t.gateway.deps.db, await domainId(), 'idram');
    expect(row?.enabled).toBe(1);
    expect(row?.config).toBeTruthy();
    expect(row?.config).not.toContain(IDRAM_SECRET);
    expect(row?.config).not.toContain('secret_key');
    expect(row?.config).not.toContain('110000601');

    const after = await owner.get(locationPath(saved));
    const text = visibleText(after.text);
    expect(text).toContain('Idram settings were saved, and it is enabled.');
    expect(text).not.toContain('no_payment_method_configured');
    expect(after.text).not.toContain(IDRAM_SECRET);
    expect(text).toContain('Settings saved — replace');
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox', 'idram']);

    const replace = await owner.get(`${page()}/idram`);
    expect(replace.text).not.toContain(IDRAM_SECRET);
    expect(replace.text).not.toContain('110000601');
    expect(visibleText(replace.text)).toContain('to change anything, enter all of them again');
  });

  it('reorders the checkout with the up and down buttons', async () => {
    const moved = await owner.submit(page(), `${page()}/idram/move`, { direction: 'up' });
    expect(moved.status).toBe(303);
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['idram', 'sandbox']);
    const view = await owner.get(locationPath(moved));
    expect(visibleText(view.text)).toContain('The checkout order was changed.');
    const order = /<ol class="proc-order" id="checkout-order">(.*?)<\/ol>/s.exec(view.text)?.[1] ?? '';
    expect(order.indexOf('Idram')).toBeLessThan(order.indexOf('Sandbox'));
    // The hosted checkout of a live payment on the domain offers the live ones in that order, never
    // the sandbox (it pays only payments created with `processor: sandbox`).
    const payment = await livePayment();
    expect(payment.status, payment.text).toBe(201);
    const checkout = await fetch(String(payment.body.checkout_url).replace(/^https?:\/\/[^/]+/, g.t.url));
    const methods = [...(await checkout.text()).matchAll(/name="processor" value="([a-z]+)"/g)].map((m) => m[1]);
    expect(methods).toEqual(['idram']);
    // At the top already: nothing moves.
    await owner.submit(page(), `${page()}/idram/move`, { direction: 'up' });
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['idram', 'sandbox']);
    await owner.submit(page(), `${page()}/idram/move`, { direction: 'down' });
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox', 'idram']);
  });

  it('disables a processor (settings kept) and enables it again without asking them', async () => {
    const disabled = await owner.submit(page(), `${page()}/idram/disable`, {});
    expect(disabled.status).toBe(303);
    const view = await owner.get(locationPath(disabled));
    expect(visibleText(view.text)).toContain('Idram is disabled. Its settings are kept.');
    expect(visibleText(view.text)).toContain('no_payment_method_configured');
    const row = await findDomainProcessor(g.t.gateway.deps.db, await domainId(), 'idram');
    expect(row?.enabled).toBe(0);
    expect(row?.config).toBeTruthy();
    const paid = await livePayment('idram');
    expect(paid.status).toBe(422);
    expect(paid.body.error).toBe('no_payment_method_configured');

    const enabled = await owner.submit(page(), `${page()}/idram/enable`, {});
    expect(enabled.status).toBe(303);
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox', 'idram']);
    expect((await findDomainProcessor(g.t.gateway.deps.db, await domainId(), 'idram'))?.config).toBe(row?.config);

    // A processor without settings cannot be enabled: the form is asked for.
    const unset = await owner.submit(page(), `${page()}/telcell/enable`, {});
    expect(unset.status).toBe(303);
    expect(locationPath(unset)).toBe(`${page()}/telcell?notice=needs-settings&processor=telcell`);
  });

  it("keeps the hosted domain's sandbox on, saying why", async () => {
    const hostedPage = await owner.get(page(hostedHost));
    expect(hostedPage.status).toBe(200);
    expect(visibleText(hostedPage.text)).toContain('The hosted domain always offers the sandbox');
    expect(hostedPage.text).not.toContain(`${page(hostedHost)}/sandbox/disable`);
    const refused = await owner.submit(page(hostedHost), `${page(hostedHost)}/sandbox/disable`, {});
    expect(refused.status).toBe(303);
    expect(locationPath(refused)).toBe(`${page(hostedHost)}?notice=always-on&processor=sandbox`);
    const hosted = await findMerchantDomain(g.t.gateway.deps.db, merchantId, hostedHost);
    expect(await listEnabledProcessors(g.t.gateway.deps.db, hosted?.id ?? '')).toEqual(['sandbox']);
  });

  it('explains that an unverified domain takes no live payments', async () => {
    const other = uniqueHost('unverified');
    await addDomain(g.t.gateway.deps, { merchantId, host: other, verified: false });
    const view = await owner.get(page(other));
    expect(visibleText(view.text)).toContain('they are refused with domain_not_registered');
  });

  it('shows a viewer the processors and their order, no form and no setting; every POST is 403', async () => {
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const view = await viewer.get(page());
    expect(view.status).toBe(200);
    const text = visibleText(view.text);
    expect(text).toContain('Idram');
    expect(text).toContain('only the owner and admins can change them');
    expect(view.text).not.toMatch(/action="\/dashboard\/domains\//);
    expect(view.text).not.toContain(IDRAM_SECRET);
    const settings = await viewer.get(`${page()}/idram`);
    expect(settings.status).toBe(200);
    expect(settings.text).not.toContain('name="setting_');
    expect(settings.text).not.toContain(IDRAM_SECRET);
    const token = formToken(view.text);
    for (const path of [
      `${page()}/idram`,
      `${page()}/idram/disable`,
      `${page()}/ameria/enable`,
      `${page()}/idram/move`,
    ]) {
      const refused = await viewer.post(path, { form_token: token, direction: 'up', setting_rec_account: '1' });
      expect(refused.status, path).toBe(403);
    }
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox', 'idram']);
  });

  it("answers 404 for another account's host and for an unknown processor", async () => {
    const stranger = (await signedInOwner(g)).client;
    for (const path of [page(), `${page()}/idram`]) {
      expect((await stranger.get(path)).status, path).toBe(404);
    }
    const token = formToken((await stranger.get('/dashboard/processors')).text);
    for (const path of [`${page()}/idram/disable`, `${page()}/sandbox/move`, `${page()}/idram`]) {
      const answer = await stranger.post(path, { form_token: token, direction: 'up' });
      expect(answer.status, path).toBe(404);
    }
    expect(await listEnabledProcessors(g.t.gateway.deps.db, await domainId())).toEqual(['sandbox', 'idram']);
    expect((await stranger.get('/dashboard/processors')).text).not.toContain(host);
    expect((await owner.get(`${page()}/paypal`)).status).toBe(404);
    expect((await owner.get(page('nowhere.example.am'))).status).toBe(404);
  });

  it('speaks Armenian and Russian, labels of the settings fields included', async () => {
    const hy = visibleText((await owner.get(`${page()}/ameria?lang=hy`)).text);
    expect(hy).toContain('Պատվերի առաջին համարը');
    expect(hy).toContain('Պահել և միացնել');
    const ru = visibleText((await owner.get(`${page()}?lang=ru`)).text);
    expect(ru).toContain(`Платёжные системы ${host}`);
    expect(ru).toContain('Порядок на странице оплаты');
    await owner.get(`${page()}?lang=en`);
  });

  it('writes the audit log', async () => {
    const rows = await audit();
    expect(rows).toHaveLength(5);
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'processor.enabled', subject: `sandbox on ${host}` },
        { action: 'processor.configured', subject: `idram on ${host}` },
        { action: 'processor.enabled', subject: `idram on ${host}` },
        { action: 'processor.disabled', subject: `idram on ${host}` },
        { action: 'processor.enabled', subject: `idram on ${host}` },
      ]),
    );
    expect(rows.filter((r) => r.action === 'processor.enabled' && r.subject === `idram on ${host}`)).toHaveLength(2);
  });
});
