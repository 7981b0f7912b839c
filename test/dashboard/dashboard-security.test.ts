/**
 * The dashboard's defences over HTTP on both databases: form tokens on every state-changing route,
 * cookie flags, session rotation and expiry (on the gateway's manual clock), page headers, no
 * account enumeration, throttled sign-ins per account and per address (also for sign-ins posted
 * together, to one instance or to two on one PostgreSQL), at most a few mails an hour to one
 * address, and no secret in the logs.
 */

import { Secret, TOTP } from 'otpauth';
import type pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMIT_PER_ACCOUNT, SIGN_IN_LIMIT_PER_ADDRESS } from '../../gateway/dashboard/accounts.service.js';
import { issueDemoClaim } from '../../gateway/dashboard/demo/demo.service.js';
import { MAIL_LIMIT_PER_RECIPIENT, MAIL_WINDOW_MS } from '../../gateway/dashboard/kit.js';
import { HOUR_MS, MINUTE_MS } from '../../gateway/domain/clock.js';
import { addDomain } from '../../gateway/merchants/merchant.service.js';
import { createLogger } from '../../gateway/runtime/logger.js';
import { cspOf, formToken, visibleText } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  DashboardClient,
  type DashboardGateway,
  linkIn,
  locationPath,
  mailTo,
  PASSWORD,
  type Page,
  signIn,
  signUpAndConfirm,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

/** The answer with what legitimately differs between two requests (nonce, form token, the email) masked. */
function normalized(page: Page, email: string): string {
  return page.text
    .replace(/nonce="[^"]+"/g, 'nonce=""')
    .replace(/name="form_token" value="[^"]+"/g, 'name="form_token" value=""')
    .replaceAll(email, 'EMAIL');
}

function tokenOfLink(link: string): string {
  return new URL(link, 'http://x').searchParams.get('token') ?? '';
}

let addressCounter = 0;
/** A client coming from an address of its own (the gateway trusts X-Forwarded-For here). */
function clientFrom(g: DashboardGateway): DashboardClient {
  addressCounter += 1;
  return new DashboardClient(g.t.url, { 'X-Forwarded-For': `203.0.113.${addressCounter}` });
}

let burstCounter = 0;
/**
 * Posts `count` wrong passwords at once after each client fetched its form: the i-th to `urls[i %
 * urls.length]`, for `emailOf(i)`, from `addressOf(i)`. Answers the statuses, each 401 (the password
 * was checked and is wrong) or 429 (locked: nothing checked).
 */
async function wrongPasswordsTogether(
  urls: readonly string[],
  count: number,
  emailOf: (i: number) => string,
  addressOf: (i: number) => string,
): Promise<number[]> {
  const ready = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = new DashboardClient(urls[i % urls.length] as string, { 'X-Forwarded-For': addressOf(i) });
      return { client, token: formToken((await client.get('/dashboard/sign-in')).text) };
    }),
  );
  const answers = await Promise.all(
    ready.map(({ client, token }, i) =>
      client.post('/dashboard/sign-in', { form_token: token, email: emailOf(i), password: `wrong guess ${i}` }),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  for (const status of statuses) expect([401, 429]).toContain(status);
  return statuses;
}

/** The failed sign-ins kept for `email`, or from `address`. */
async function failuresOf(g: DashboardGateway, column: 'email' | 'address', value: string): Promise<number> {
  const rows = await g.t.gateway.deps.db
    .selectFrom('dashboard_sign_in_failures')
    .select('id')
    .where(column, '=', value)
    .execute();
  return rows.length;
}

/**
 * 40 wrong passwords for one account, from 40 addresses, posted together over `urls`: at most 5 are
 * checked, each kept as a failure; with the failures topped up to 5 one by one, the owner's right
 * password is refused as locked.
 */
async function accountPasswordsTogether(g: DashboardGateway, urls: readonly string[]): Promise<void> {
  const email = uniqueEmail('together');
  await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
  burstCounter += 1;
  const statuses = await wrongPasswordsTogether(
    urls,
    40,
    () => email,
    (i) => `198.18.${burstCounter}.${i + 1}`,
  );
  const checked = statuses.filter((status) => status === 401).length;
  expect(checked, `${checked} of 40 passwords checked`).toBeLessThanOrEqual(SIGN_IN_LIMIT_PER_ACCOUNT);
  expect(await failuresOf(g, 'email', email)).toBe(checked);
  for (let i = checked; i < SIGN_IN_LIMIT_PER_ACCOUNT; i += 1) {
    expect((await signIn(clientFrom(g), email, `one more guess ${i}`)).status).toBe(401);
  }
  expect(await failuresOf(g, 'email', email)).toBe(SIGN_IN_LIMIT_PER_ACCOUNT);
  expect((await signIn(clientFrom(g), email)).status).toBe(429);
}

/**
 * 40 wrong sign-ins from one address, each with its own email, posted together over `urls`: at most
 * 20 are checked; with the failures topped up to 20, the address is locked, for a right password too.
 */
async function addressPasswordsTogether(g: DashboardGateway, urls: readonly string[]): Promise<void> {
  const email = uniqueEmail('owner');
  await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
  burstCounter += 1;
  const address = `198.19.${burstCounter}.1`;
  const statuses = await wrongPasswordsTogether(
    urls,
    40,
    (i) => uniqueEmail(`guess${i}`),
    () => address,
  );
  const checked = statuses.filter((status) => status === 401).length;
  expect(checked, `${checked} of 40 passwords checked`).toBeLessThanOrEqual(SIGN_IN_LIMIT_PER_ADDRESS);
  expect(await failuresOf(g, 'address', address)).toBe(checked);
  for (let i = checked; i < SIGN_IN_LIMIT_PER_ADDRESS; i += 1) {
    const client = new DashboardClient(g.t.url, { 'X-Forwarded-For': address });
    expect((await signIn(client, uniqueEmail('late'), 'guessing')).status).toBe(401);
  }
  expect(await failuresOf(g, 'address', address)).toBe(SIGN_IN_LIMIT_PER_ADDRESS);
  expect((await signIn(new DashboardClient(g.t.url, { 'X-Forwarded-For': address }), email)).status).toBe(429);
  expect((await signIn(clientFrom(g), email)).status).toBe(303);
}

describe.each(DIALECTS)('dashboard security (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => g?.close());

  /** What a refused post must leave as it was. */
  async function snapshot() {
    const db = g.t.gateway.deps.db;
    return {
      users: await db
        .selectFrom('dashboard_users')
        .select(['id', 'email', 'password_hash', 'email_verified_at'])
        .orderBy('id')
        .execute(),
      sessions: await db.selectFrom('dashboard_sessions').select('id_hash').orderBy('id_hash').execute(),
      tokens: await db.selectFrom('dashboard_tokens').select(['token_hash', 'used_at']).orderBy('token_hash').execute(),
      failures: await db.selectFrom('dashboard_sign_in_failures').select('id').orderBy('id').execute(),
      merchants: await db.selectFrom('merchants').select('id').orderBy('id').execute(),
      keys: await db.selectFrom('dashboard_onboarding_keys').select('merchant_id').orderBy('merchant_id').execute(),
    };
  }

  it('refuses every state-changing form without the right form token (403, nothing changed)', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    expect((await signIn(client, email)).status).toBe(303);
    // Live tokens the posts would use if they were accepted.
    const pending = uniqueEmail('pending');
    await clientFrom(g).submit('/dashboard/sign-up', '/dashboard/sign-up', {
      name: 'P',
      email: pending,
      password: PASSWORD,
    });
    const verifyToken = tokenOfLink(linkIn((await mailTo(g.smtp, pending, /Confirm/)).text, '/dashboard/verify-email'));
    await clientFrom(g).submit('/dashboard/reset', '/dashboard/reset', { email });
    const resetToken = tokenOfLink(linkIn((await mailTo(g.smtp, email, /Reset/)).text, '/dashboard/reset/new'));

    const routes: Array<[string, Record<string, string>]> = [
      ['/dashboard/sign-up', { name: 'Shop', email: uniqueEmail('csrf'), password: PASSWORD }],
      ['/dashboard/sign-in', { email, password: PASSWORD }],
      ['/dashboard/sign-out', {}],
      ['/dashboard/verify-email', { token: verifyToken }],
      ['/dashboard/reset', { email }],
      ['/dashboard/reset/new', { token: resetToken, password: 'a brand new passphrase' }],
      ['/dashboard/account/email', { email: uniqueEmail('csrf'), current_password: PASSWORD }],
      ['/dashboard/account/password', { current_password: PASSWORD, password: 'a brand new passphrase' }],
    ];
    // A token that is right, but for another browser.
    const stranger = clientFrom(g);
    const foreign = formToken((await stranger.get('/dashboard/sign-in')).text);
    const before = await snapshot();
    const sentBefore = g.smtp.received.length;
    for (const [path, fields] of routes) {
      for (const token of [undefined, '', 'x'.repeat(43), foreign]) {
        const page = await client.post(path, token === undefined ? fields : { ...fields, form_token: token });
        expect(page.status, `${path} with ${String(token)}`).toBe(403);
        expect(visibleText(page.text)).toContain('This form has expired');
      }
    }
    expect(await snapshot()).toEqual(before);
    expect((await client.get('/dashboard')).status).toBe(200);
    expect(g.smtp.received.length).toBe(sentBefore);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/dashboard, and not Secure over http', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    const page = await signIn(client, email);
    const cookie = page.setCookies.find((c) => c.startsWith('dashboard_session=')) ?? '';
    expect(cookie).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain('; Path=/dashboard');
    expect(cookie).not.toContain('Secure');
    const form = (await new DashboardClient(g.t.url).get('/dashboard/sign-in')).setCookies.join('\n');
    expect(form).toMatch(/dashboard_form=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
  });

  it('rotates the session at sign-in: the earlier id no longer works', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    // An id planted in the browser before sign-in is never adopted.
    client.cookies.set('dashboard_session', 'A'.repeat(43));
    await signIn(client, email);
    const first = client.cookies.get('dashboard_session') ?? '';
    expect(first).not.toBe('A'.repeat(43));
    expect((await client.get('/dashboard')).status).toBe(200);
    const again = await client.post('/dashboard/sign-in', {
      form_token: formToken((await client.get('/dashboard/account')).text),
      email,
      password: PASSWORD,
    });
    expect(again.status).toBe(303);
    const second = client.cookies.get('dashboard_session') ?? '';
    expect(second).not.toBe(first);
    const old = new DashboardClient(g.t.url);
    old.cookies.set('dashboard_session', first);
    expect(locationPath(await old.get('/dashboard'))).toBe('/dashboard/sign-in?notice=session-ended');
    expect((await client.get('/dashboard')).status).toBe(200);
  });

  it('ends a session after 30 idle minutes and 12 hours after sign-in, and at sign-out', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    await signIn(client, email);
    g.t.clock.advance(29 * MINUTE_MS);
    expect((await client.get('/dashboard')).status).toBe(200);
    g.t.clock.advance(29 * MINUTE_MS);
    expect((await client.get('/dashboard')).status).toBe(200);
    g.t.clock.advance(30 * MINUTE_MS);
    const idle = await client.get('/dashboard');
    expect(idle.status).toBe(303);
    expect(locationPath(idle)).toBe('/dashboard/sign-in?notice=session-ended');
    expect(idle.setCookies.join()).toMatch(/dashboard_session=; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=0/);

    await signIn(client, email);
    for (let elapsed = 0; elapsed < 12 * HOUR_MS - 25 * MINUTE_MS; elapsed += 25 * MINUTE_MS) {
      g.t.clock.advance(25 * MINUTE_MS);
      expect((await client.get('/dashboard')).status).toBe(200);
    }
    g.t.clock.advance(25 * MINUTE_MS);
    expect(locationPath(await client.get('/dashboard'))).toBe('/dashboard/sign-in?notice=session-ended');

    await signIn(client, email);
    const id = client.cookies.get('dashboard_session') ?? '';
    const out = await client.post('/dashboard/sign-out', {
      form_token: formToken((await client.get('/dashboard')).text),
    });
    expect(locationPath(out)).toBe('/dashboard/sign-in?notice=signed-out');
    const replay = new DashboardClient(g.t.url);
    replay.cookies.set('dashboard_session', id);
    expect(locationPath(await replay.get('/dashboard'))).toBe('/dashboard/sign-in?notice=session-ended');
  });

  it('deletes the sessions a user left to expire when the user signs in again', async () => {
    const email = uniqueEmail();
    const first = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    await signIn(first, email);
    const second = clientFrom(g);
    await signIn(second, email);
    const sessionsOf = async () =>
      g.t.gateway.deps.db
        .selectFrom('dashboard_sessions')
        .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.user_id')
        .select('dashboard_sessions.id_hash')
        .where('dashboard_users.email', '=', email)
        .execute();
    expect(await sessionsOf()).toHaveLength(2);
    g.t.clock.advance(31 * MINUTE_MS);
    await signIn(clientFrom(g), email);
    expect(await sessionsOf()).toHaveLength(1);
  });

  it('answers every page with a nonce CSP, no framing, no caching, only the nonced script and no inline handler', async () => {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    const anonymous = new DashboardClient(g.t.url);
    const pages = [
      await anonymous.get('/dashboard/sign-up'),
      await anonymous.get('/dashboard/sign-in'),
      await anonymous.get('/dashboard/reset'),
      await anonymous.get('/dashboard/reset/new?token=unknown'),
      await anonymous.get('/dashboard/no/such/page'),
    ];
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 400, 404]);
    expect(visibleText(pages[4]?.text ?? '')).toContain('There is no such page in the dashboard.');
    await signIn(client, email);
    pages.push(await client.get('/dashboard'), await client.get('/dashboard/account'));
    for (const page of pages) {
      const csp = cspOf(page);
      expect(csp['frame-ancestors']).toBe("'none'");
      expect(csp['default-src']).toBe("'none'");
      expect(csp['style-src']).toMatch(/^'nonce-[A-Za-z0-9+/=]+'$/);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('cache-control')).toBe('no-store');
      // The one script (the copy buttons) runs under the page's nonce; no inline handler anywhere.
      const nonce = /^'nonce-(.+)'$/.exec(csp['script-src'] ?? '')?.[1];
      expect(nonce).toBeDefined();
      const scripts = page.text.match(/<script[^>]*>/gi) ?? [];
      expect(scripts).toEqual([`<script nonce="${nonce}">`]);
      expect(page.text).not.toMatch(/\son[a-z]+=/i);
      for (const form of page.text.match(/<form[\s\S]*?<\/form>/g) ?? []) {
        expect(form).toMatch(/name="form_token" value="[A-Za-z0-9_-]{43}"/);
      }
    }
  });

  it('answers sign-in, sign-up and reset alike for a known and an unknown email', async () => {
    const known = uniqueEmail('known');
    await signUpAndConfirm(g, known, PASSWORD, clientFrom(g));
    const unknown = uniqueEmail('unknown');

    const wrongKnown = await signIn(clientFrom(g), known, 'not the password');
    const wrongUnknown = await signIn(clientFrom(g), unknown, 'not the password');
    expect(wrongKnown.status).toBe(401);
    expect(wrongUnknown.status).toBe(401);
    expect(normalized(wrongKnown, known)).toBe(normalized(wrongUnknown, unknown));
    expect(visibleText(wrongKnown.text)).toContain('The email or the password is wrong.');

    const fresh = uniqueEmail('fresh');
    const upKnown = await clientFrom(g).submit('/dashboard/sign-up', '/dashboard/sign-up', {
      name: 'Ararat Books',
      email: known,
      password: 'someone elses password',
    });
    const upFresh = await clientFrom(g).submit('/dashboard/sign-up', '/dashboard/sign-up', {
      name: 'Ararat Books',
      email: fresh,
      password: 'someone elses password',
    });
    expect(upKnown.status).toBe(200);
    expect(upFresh.status).toBe(200);
    expect(normalized(upKnown, known)).toBe(normalized(upFresh, fresh));
    const notice = await mailTo(g.smtp, known, /Someone tried to sign up/);
    expect(notice.text).toContain('/dashboard/reset');
    const owners = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('id')
      .where('email', '=', known)
      .execute();
    expect(owners).toHaveLength(1);
    expect((await signIn(clientFrom(g), known, 'someone elses password')).status).toBe(401);

    const resetKnown = await clientFrom(g).submit('/dashboard/reset', '/dashboard/reset', { email: known });
    const resetUnknown = await clientFrom(g).submit('/dashboard/reset', '/dashboard/reset', { email: unknown });
    expect(resetKnown.status).toBe(200);
    expect(resetUnknown.status).toBe(200);
    expect(normalized(resetKnown, known)).toBe(normalized(resetUnknown, unknown));
    expect(visibleText(resetKnown.text)).toContain('If an account exists for this address, we sent it a link.');
    await mailTo(g.smtp, known, /Reset your password/);
    expect(g.smtp.received.some((mail) => mail.to.includes(unknown))).toBe(false);
  });

  it('locks an account after 5 failed sign-ins in 15 minutes, from any address, with a clear message', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    const attacker = clientFrom(g);
    for (let i = 0; i < 5; i += 1) expect((await signIn(attacker, email, `guess number ${i}`)).status).toBe(401);
    const locked = await signIn(attacker, email);
    expect(locked.status).toBe(429);
    expect(visibleText(locked.text)).toContain('Too many failed sign-ins.');
    const owner = await signIn(clientFrom(g), email);
    expect(owner.status).toBe(429);
    // The address itself is not locked: another account signs in from it.
    const neighbour = uniqueEmail('neighbour');
    await signUpAndConfirm(g, neighbour, PASSWORD, clientFrom(g));
    expect((await signIn(attacker, neighbour)).status).toBe(303);
    g.t.clock.advance(15 * MINUTE_MS);
    expect((await signIn(clientFrom(g), email)).status).toBe(303);
  });

  it('locks an address after 20 failed sign-ins in 15 minutes, whatever the emails', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    const attacker = clientFrom(g);
    const form = formToken((await attacker.get('/dashboard/sign-in')).text);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        attacker.post('/dashboard/sign-in', {
          form_token: form,
          email: uniqueEmail(`guess${i}`),
          password: 'guessing',
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(401));
    const locked = await signIn(attacker, email);
    expect(locked.status).toBe(429);
    expect(visibleText(locked.text)).toContain('Too many failed sign-ins.');
    expect((await signIn(clientFrom(g), email)).status).toBe(303);
  });

  it('checks at most 5 passwords of one account posted together', { timeout: 120_000 }, async () => {
    await accountPasswordsTogether(g, [g.t.url]);
  });

  it('checks at most 20 passwords from one address posted together', { timeout: 120_000 }, async () => {
    await addressPasswordsTogether(g, [g.t.url]);
  });
});

describe('dashboard sign-in limits with two instances on one PostgreSQL', () => {
  let g: DashboardGateway;
  let second: TestGateway;

  beforeAll(async () => {
    g = await startDashboardGateway('postgres', { env: { TRUST_PROXY: '1' } });
    second = await startTestGateway('postgres', {
      databaseUrl: g.t.gateway.deps.config.databaseUrl,
      env: { TRUST_PROXY: '1' },
    });
  });
  afterAll(async () => {
    await second?.close();
    await g?.close();
  });

  it('checks at most 5 passwords of one account posted together to both', { timeout: 120_000 }, async () => {
    await accountPasswordsTogether(g, [g.t.url, second.url]);
  });

  it('checks at most 20 passwords from one address posted together to both', { timeout: 120_000 }, async () => {
    await addressPasswordsTogether(g, [g.t.url, second.url]);
  });
});

describe('dashboard logs', () => {
  let g: DashboardGateway;
  const lines: string[] = [];

  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(line) } as unknown as pino.DestinationStream;
    g = await startDashboardGateway('sqlite', { logger: createLogger('debug', destination) });
  });
  afterAll(async () => g?.close());

  it('never holds a password, a mailed token, a key, a token, a webhook secret, a second factor or a session id', async () => {
    const email = uniqueEmail();
    const secrets: string[] = [PASSWORD, 'a brand new passphrase', 'a third passphrase here'];
    const client = await signUpAndConfirm(g, email);
    secrets.push(tokenOfLink(linkIn((await mailTo(g.smtp, email, /Confirm/)).text, '/dashboard/verify-email')));
    await signIn(client, email);
    secrets.push(client.cookies.get('dashboard_session') ?? '');
    const home = await client.get('/dashboard');
    secrets.push(/id="test-key">([^<]+)</.exec(home.text)?.[1] ?? '');
    await client.submit('/dashboard/reset', '/dashboard/reset', { email });
    const link = linkIn((await mailTo(g.smtp, email, /Reset/)).text, '/dashboard/reset/new');
    secrets.push(tokenOfLink(link));
    await client.submit(link, '/dashboard/reset/new', { token: tokenOfLink(link), password: secrets[1] as string });
    await signIn(client, email, secrets[1]);
    secrets.push(client.cookies.get('dashboard_session') ?? '');
    await client.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: secrets[1] as string,
      password: secrets[2] as string,
    });
    await signIn(clientFrom(g), email, 'a wrong password');

    // The sections' secrets: a new API key, a connect token, a revealed webhook secret, the second
    // factor's key and recovery codes, an invitation's link.
    const shown = (html: string, id: string) => new RegExp(`id="${id}">([^<]+)<`).exec(html)?.[1] ?? '';
    const key = await client.submit('/dashboard/api-keys', '/dashboard/api-keys', {
      environment: 'test',
      access: 'full',
    });
    secrets.push(shown(key.text, 'new-key'));
    const deps = g.t.gateway.deps;
    const user = await deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const host = `logs-${Date.now().toString(36)}.example.am`;
    await addDomain(deps, { merchantId: user.merchant_id, host, verified: true });
    const token = await client.submit('/dashboard/connect-tokens', '/dashboard/connect-tokens', {
      domain: host,
      platform: 'woocommerce',
      environment: 'test',
    });
    secrets.push(shown(token.text, 'new-token'));
    const revealed = await client.submit(
      `/dashboard/domains/${host}`,
      `/dashboard/domains/${host}/webhook-secret/reveal`,
      {},
    );
    secrets.push(shown(revealed.text, 'webhook-secret'));
    const setup = await client.get('/dashboard/account/two-factor');
    const totpSecret = shown(setup.text, 'totp-secret').replace(/ /g, '');
    secrets.push(totpSecret);
    const enabled = await client.submit('/dashboard/account/two-factor', '/dashboard/account/two-factor/enable', {
      code: TOTP.generate({ secret: Secret.fromBase32(totpSecret), timestamp: deps.clock.nowMs() }),
      current_password: secrets[2] as string,
    });
    expect(enabled.status, enabled.text).toBe(200);
    const codes = [...enabled.text.matchAll(/<li>([0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})<\/li>/g)].map((m) => m[1] ?? '');
    expect(codes.length).toBe(10);
    secrets.push(...codes);
    const invited = uniqueEmail('invited');
    await client.submit('/dashboard/team', '/dashboard/team/invitations', { email: invited, role: 'viewer' });
    secrets.push(tokenOfLink(linkIn((await mailTo(g.smtp, invited, /invit/i)).text, '/dashboard/invitation')));
    // The demo merchant's link (printed by `gateway serve`), opened and used.
    const demo = await g.t.merchant({ name: 'Demo Shop' });
    const demoLink = linkIn(await issueDemoClaim(deps, demo.merchantId, demo.testKey), '/dashboard/demo');
    secrets.push(tokenOfLink(demoLink));
    const claimed = await clientFrom(g).submit(demoLink, '/dashboard/demo', {
      token: tokenOfLink(demoLink),
      email: uniqueEmail('demo'),
      password: PASSWORD,
    });
    expect(claimed.status, claimed.text).toBe(303);

    const log = lines.join('');
    expect(log).toContain('"path":"/dashboard/sign-in"');
    expect(log).toContain('dashboard sign-in from a new address');
    expect(log).toContain('"path":"/dashboard/account/two-factor/enable"');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(9);
      expect(log).not.toContain(secret);
    }
  });
});

describe.each(DIALECTS)('dashboard mails per recipient (%s)', (dialect) => {
  let g: DashboardGateway;
  const lines: string[] = [];
  const withheld = () => lines.filter((line) => line.includes('dashboard email withheld')).length;

  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(line) } as unknown as pino.DestinationStream;
    g = await startDashboardGateway(dialect, {
      env: { TRUST_PROXY: '1' },
      logger: createLogger('info', destination),
    });
  });
  afterAll(async () => g?.close());

  const mailsTo = (email: string) => g.smtp.received.filter((mail) => mail.to.includes(email)).length;
  const reset = (email: string) => clientFrom(g).submit('/dashboard/reset', '/dashboard/reset', { email });

  it(`sends one address at most ${MAIL_LIMIT_PER_RECIPIENT} mails an hour, however often its forms are posted`, async () => {
    const email = uniqueEmail('flooded');
    await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    expect(mailsTo(email)).toBe(1);
    const before = withheld();

    // Six reset requests from six addresses: four more mails fill the hour, two are withheld, and
    // every answer is the same page as ever (it tells nothing of the limit or of the account).
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await reset(email));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => normalized(answer, email))).size).toBe(1);
    await eventually(() => withheld() === before + 2, 'two mails withheld');
    await mailTo(g.smtp, email, /Reset your password/, 4);
    expect(mailsTo(email)).toBe(MAIL_LIMIT_PER_RECIPIENT);
    const log = lines.slice(-20).join('');
    expect(log).not.toContain(email);

    // Another address is not held back by this one's limit.
    const neighbour = uniqueEmail('neighbour');
    await signUpAndConfirm(g, neighbour, PASSWORD, clientFrom(g));
    await reset(neighbour);
    await mailTo(g.smtp, neighbour, /Reset your password/);

    // An hour after the first mail, the address may get mail again.
    g.t.clock.advance(MAIL_WINDOW_MS);
    await reset(email);
    await mailTo(g.smtp, email, /Reset your password/, 5);
    const kept = await g.t.gateway.deps.db
      .selectFrom('dashboard_mail_sends')
      .select('kind')
      .where('recipient', '=', email)
      .execute();
    expect(kept).toEqual([{ kind: 'reset_password' }]);
  });

  it('never lets requests posted together pass the limit', async () => {
    const email = uniqueEmail('together');
    await signUpAndConfirm(g, email, PASSWORD, clientFrom(g));
    const before = withheld();
    const answers = await Promise.all(Array.from({ length: 10 }, () => reset(email)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    // Settled when each of the 11 mails (the confirmation and 10 resets) was delivered or withheld.
    await eventually(() => mailsTo(email) + withheld() - before === 11, 'every mail delivered or withheld');
    const claimed = await g.t.gateway.deps.db
      .selectFrom('dashboard_mail_sends')
      .select('id')
      .where('recipient', '=', email)
      .execute();
    expect(claimed).toHaveLength(mailsTo(email));
    expect(mailsTo(email)).toBeLessThanOrEqual(MAIL_LIMIT_PER_RECIPIENT);
  });
});

describe('dashboard mails without SMTP_URL', () => {
  let t: TestGateway;
  const lines: string[] = [];

  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(line) } as unknown as pino.DestinationStream;
    t = await startTestGateway('sqlite', { logger: createLogger('debug', destination) });
  });
  afterAll(async () => t?.close());

  it('logs that a mail was not sent, never its link', async () => {
    const email = uniqueEmail();
    const signedUp = await new DashboardClient(t.url).submit('/dashboard/sign-up', '/dashboard/sign-up', {
      name: 'Ararat Books',
      email,
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(200);
    const tokens = await t.gateway.deps.db.selectFrom('dashboard_tokens').select('purpose').execute();
    expect(tokens).toEqual([{ purpose: 'verify_email' }]);
    const notSent = 'dashboard email not sent (SMTP_URL is not set); its link is not logged';
    await eventually(() => lines.join('').includes(notSent), 'the log line of the mail not sent');
    const log = lines.join('');
    expect(log).not.toContain('token=');
    expect(log).not.toContain(PASSWORD);
  });
});

// Cookie attributes do not depend on the database: one dialect is enough here.
describe('dashboard cookies behind https', () => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway('sqlite', { env: { PUBLIC_URL: 'https://gateway.test' } });
  });
  afterAll(async () => g?.close());

  it('marks every dashboard cookie Secure when PUBLIC_URL is https', async () => {
    const email = uniqueEmail();
    const client = new DashboardClient(g.t.url);
    const signInPage = await client.get('/dashboard/sign-in?lang=hy');
    expect(signInPage.setCookies).toHaveLength(2);
    for (const cookie of signInPage.setCookies)
      expect(cookie).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Lax; Secure/);
    expect((await client.get('/dashboard/sign-in?lang=en')).setCookies.join()).toMatch(/dashboard_lang=en; .*Secure/);
    await signUpAndConfirm(g, email, PASSWORD, client);
    const signedIn = await signIn(client, email);
    expect(signedIn.location).toBe('https://gateway.test/dashboard');
    const session = signedIn.setCookies.find((c) => c.startsWith('dashboard_session=')) ?? '';
    expect(session).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax; Secure$/);
  });
});
