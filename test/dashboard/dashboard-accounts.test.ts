/**
 * Dashboard accounts over HTTP on both databases: sign-up creates a merchant (hosted domain, test
 * key) and its owner, the mailed link confirms the address, sign-in opens the first page with the
 * test key once, reset and change of password and email; what is stored is hashed or sealed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, setProcessorEnabled, verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import { visibleText } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { enableLiveProcessor } from '../support/gateway.js';
import {
  DashboardClient,
  type DashboardGateway,
  linkIn,
  locationPath,
  mailTo,
  PASSWORD,
  signIn,
  signUpAndConfirm,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

describe.each(DIALECTS)('dashboard accounts (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => g?.close());

  it('signs up a merchant with a hosted domain and a test key, shown once after the address is confirmed', async () => {
    const email = uniqueEmail();
    const client = new DashboardClient(g.t.url);
    const early = await signIn(client, email);
    expect(early.status).toBe(401);
    await signUpAndConfirm(g, email, PASSWORD, client);

    const user = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('owner');
    expect(user.email_verified_at).not.toBeNull();
    // scrypt at the configured cost (16 in production, see test/gateway/config.test.ts), r 8, p 1.
    const cost = g.t.gateway.deps.config.passwordHashCost;
    expect(user.password_hash).toMatch(
      new RegExp(`^scrypt\\$${cost}\\$8\\$1\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`),
    );
    expect(user.password_hash).not.toContain(PASSWORD);
    const merchant = await g.t.gateway.deps.db
      .selectFrom('merchants')
      .selectAll()
      .where('id', '=', user.merchant_id)
      .executeTakeFirstOrThrow();
    expect(merchant.email).toBe(email);
    const domains = await g.t.gateway.deps.db
      .selectFrom('domains')
      .selectAll()
      .where('merchant_id', '=', user.merchant_id)
      .execute();
    expect(domains.map((d) => d.hosted)).toEqual([1]);
    const sealed = await g.t.gateway.deps.db
      .selectFrom('dashboard_onboarding_keys')
      .selectAll()
      .where('merchant_id', '=', user.merchant_id)
      .executeTakeFirstOrThrow();
    expect(sealed.sealed_key).toMatch(/^v1\./);
    expect(sealed.sealed_key).not.toContain('sk_test_');

    const signedIn = await signIn(client, email);
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(locationPath(signedIn)).toBe('/dashboard');
    const first = await client.get('/dashboard');
    expect(first.status, first.text).toBe(200);
    const key = /id="test-key">(sk_test_[A-Za-z0-9_-]+)</.exec(first.text)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(visibleText(first.text)).toContain(`X-Service-Key: ${key}`);
    const payment = await g.t.call('POST', '/api/v1/payments', {
      key,
      body: { amount: 5000, order_id: 'first-1', return_url: 'http://localhost:3000/done' },
    });
    expect(payment.status, payment.text).toBe(201);

    const again = await client.get('/dashboard');
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(key);
    expect(again.text).not.toContain('id="test-key"');
    expect(again.text).toMatch(/<li class="done" data-item="test_payment">/);
    expect(again.text).toMatch(/<li class="todo" data-item="live_key">/);
    const sessions = await g.t.gateway.deps.db.selectFrom('dashboard_sessions').select('id_hash').execute();
    const cookie = client.cookies.get('dashboard_session') ?? '';
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.map((s) => s.id_hash)).not.toContain(cookie);
  });

  it('ticks the checklist from the database at each view', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email);
    await signIn(client, email);
    const user = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const before = await client.get('/dashboard');
    expect(before.text.match(/<li class="done"/g)).toBeNull();
    // Each step still to do links to the page where it is done.
    for (const href of ['/dashboard/domains', '/dashboard/processors', '/dashboard/business', '/dashboard/api-keys']) {
      expect(before.text).toContain(`<a href="${href}">`);
    }
    const deps = g.t.gateway.deps;
    await addDomain(deps, { merchantId: user.merchant_id, host: 'ararat-books.am', verified: true });
    await setProcessorEnabled(deps, {
      merchantId: user.merchant_id,
      host: 'ararat-books.am',
      processor: 'sandbox',
      enabled: true,
    });
    await verifyBusiness(deps, user.merchant_id);
    await g.t.key(user.merchant_id, 'live');
    // The sandbox never pays a live payment: installing it is no way to take live payments.
    const sandboxOnly = await client.get('/dashboard');
    expect(sandboxOnly.text).toContain('<li class="todo" data-item="processor_enabled">');
    await enableLiveProcessor(deps, user.merchant_id, 'ararat-books.am');
    const after = await client.get('/dashboard');
    for (const item of ['domain_added', 'domain_verified', 'processor_enabled', 'business_verified', 'live_key']) {
      expect(after.text).toContain(`<li class="done" data-item="${item}">`);
    }
    expect(after.text).toContain('<li class="todo" data-item="test_payment">');
  });

  it('refuses weak passwords and tells which field is wrong, in the chosen language', async () => {
    const client = new DashboardClient(g.t.url);
    const email = uniqueEmail();
    const short = await client.submit('/dashboard/sign-up?lang=ru', '/dashboard/sign-up', {
      name: 'Shop',
      email,
      password: 'short',
    });
    expect(short.status).toBe(422);
    expect(short.text).toContain('Используйте не менее 10 символов.');
    expect(short.text).toContain('aria-invalid="true"');
    const same = await client.submit('/dashboard/sign-up?lang=en', '/dashboard/sign-up', {
      name: 'Shop',
      email,
      password: email.toUpperCase(),
    });
    expect(same.status).toBe(422);
    expect(same.text).toContain('Do not use your email address as the password.');
    const users = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toEqual([]);
  });

  it('refuses a business name with markup or a web address, in the form language, creating nothing', async () => {
    const client = new DashboardClient(g.t.url);
    const merchantsBefore = await g.t.gateway.deps.db.selectFrom('merchants').select('id').execute();
    for (const [lang, name, message] of [
      [
        'en',
        '<a href="http://evil.test/x">CLICK</a>',
        'A business name may not hold &lt; or &gt;, line breaks or invisible characters.',
      ],
      ['en', 'Visit www.evil.test', 'A business name may not look like a web address (no “://” or “www.”).'],
      [
        'ru',
        '<a href="http://evil.test/x">CLICK</a>',
        'Название бизнеса не может содержать &lt; или &gt;, переводы строк или невидимые символы.',
      ],
      ['ru', 'Shop http://evil.test', 'Название бизнеса не может выглядеть как веб-адрес (без «://» и «www.»).'],
      [
        'hy',
        'Shop <b>',
        'Բիզնեսի անվանումը չի կարող պարունակել &lt; կամ &gt; նշաններ, տողադարձեր կամ անտեսանելի նիշեր։',
      ],
      ['hy', 'www.evil.test', 'Բիզնեսի անվանումը չի կարող նմանվել վեբ հասցեի (առանց «://» կամ «www.»)։'],
    ] as const) {
      const email = uniqueEmail();
      const refused = await client.submit(`/dashboard/sign-up?lang=${lang}`, '/dashboard/sign-up', {
        name,
        email,
        password: PASSWORD,
      });
      expect(refused.status, `${lang} ${name}`).toBe(422);
      expect(refused.text).toContain(message);
      expect(refused.text).toMatch(/<input id="f-name" name="name"[^>]*aria-invalid="true"/);
      // The name typed is given back escaped, never as markup.
      expect(refused.text).not.toContain('<a href="http://evil.test/x">');
      const users = await g.t.gateway.deps.db
        .selectFrom('dashboard_users')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(users).toEqual([]);
    }
    expect(await g.t.gateway.deps.db.selectFrom('merchants').select('id').execute()).toHaveLength(
      merchantsBefore.length,
    );
  });

  it('resets a password through the mailed link, once, ending every session', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email);
    expect((await signIn(client, email)).status).toBe(303);
    const other = new DashboardClient(g.t.url);
    const asked = await other.submit('/dashboard/reset', '/dashboard/reset', { email });
    expect(asked.status).toBe(200);
    const mail = await mailTo(g.smtp, email, /Reset your password/);
    const link = linkIn(mail.text, '/dashboard/reset/new');
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const weak = await other.submit(link, '/dashboard/reset/new', { token, password: 'short' });
    expect(weak.status).toBe(422);
    const done = await other.submit(link, '/dashboard/reset/new', { token, password: 'a brand new passphrase' });
    expect(done.status, done.text).toBe(303);
    expect(locationPath(done)).toBe('/dashboard/sign-in?notice=reset');
    expect(locationPath(await client.get('/dashboard'))).toBe('/dashboard/sign-in?notice=session-ended');
    expect((await other.get(link)).status).toBe(400);
    expect((await signIn(other, email)).status).toBe(401);
    expect((await signIn(other, email, 'a brand new passphrase')).status).toBe(303);
  });

  it('changes the password (asking the current one) and the email (confirmed at the new address)', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email);
    await signIn(client, email);
    const elsewhere = new DashboardClient(g.t.url);
    await signIn(elsewhere, email);

    const wrong = await client.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: 'not the password',
      password: 'another long passphrase',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('This is not your current password.');
    const changed = await client.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: PASSWORD,
      password: 'another long passphrase',
    });
    expect(changed.status).toBe(303);
    expect((await client.get('/dashboard/account')).status).toBe(200);
    expect(locationPath(await elsewhere.get('/dashboard'))).toBe('/dashboard/sign-in?notice=session-ended');

    const newEmail = uniqueEmail('renamed');
    const asked = await client.submit('/dashboard/account', '/dashboard/account/email', {
      email: newEmail,
      current_password: 'another long passphrase',
    });
    expect(asked.status, asked.text).toBe(200);
    const mail = await mailTo(g.smtp, newEmail, /Confirm your new email/);
    const link = linkIn(mail.text, '/dashboard/verify-email');
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    expect((await signIn(new DashboardClient(g.t.url), newEmail, 'another long passphrase')).status).toBe(401);
    const confirmed = await client.submit(link, '/dashboard/verify-email', { token });
    expect(locationPath(confirmed)).toBe('/dashboard/account?notice=email-changed');
    expect((await signIn(new DashboardClient(g.t.url), newEmail, 'another long passphrase')).status).toBe(303);
    expect((await signIn(new DashboardClient(g.t.url), email, 'another long passphrase')).status).toBe(401);
  });
});
