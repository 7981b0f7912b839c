/**
 * Two-step sign-in over HTTP on both databases: setup (a wrong code refused, a right one turns it
 * on, recovery codes shown once), sign-in asking for the code (codes computed with otpauth at the
 * gateway's manual clock), a code used once, one step of drift either way, recovery codes used
 * once, wrong codes throttled with wrong passwords (also when posted together, to one instance or
 * to two on one PostgreSQL), the pending sign-in's five minutes, turning it off, the audit log, and
 * the secret sealed at rest.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMIT_PER_ACCOUNT } from '../../gateway/dashboard/accounts.service.js';
import { totpSecretContext } from '../../gateway/dashboard/two-factor/two-factor.service.js';
import { MINUTE_MS } from '../../gateway/domain/clock.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
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

const PAGE = '/dashboard/account/two-factor';
const STEP = '/dashboard/sign-in/two-factor';
const STEP_MS = 30_000;

/** The code of `secret` at `ms`, as an authenticator app computes it. */
function codeAt(secret: string, ms: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });
}

/** The key printed on the setup page (in groups of four), without its spaces. */
function secretOn(page: Page): string {
  const match = /<p class="key" id="totp-secret">([A-Z2-7 ]+)<\/p>/.exec(page.text);
  if (match === null) throw new Error(`no secret on the page: ${page.text}`);
  return (match[1] as string).replace(/ /g, '');
}

function recoveryCodesOn(page: Page): string[] {
  return [...page.text.matchAll(/<li>([0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})<\/li>/g)].map((m) => m[1] as string);
}

let addressCounter = 0;
/** A client from an address of its own (the gateway trusts X-Forwarded-For here). */
function clientFrom(g: DashboardGateway, address?: string): DashboardClient {
  addressCounter += 1;
  return new DashboardClient(g.t.url, { 'X-Forwarded-For': address ?? `198.51.100.${addressCounter}` });
}

/** The steps of the tests on the gateway `g()`: an owner signed in, setup, the password step, a code. */
function twoStepHelpers(g: () => DashboardGateway) {
  async function owner(address?: string): Promise<{ client: DashboardClient; email: string; address: string }> {
    const email = uniqueEmail();
    const client = await signUpAndConfirm(g(), email, PASSWORD, clientFrom(g(), address));
    expect((await signIn(client, email)).status).toBe(303);
    return { client, email, address: client.headers['X-Forwarded-For'] as string };
  }

  /** Sets up two-step sign-in for the signed-in client; answers the secret and the recovery codes. */
  async function enrol(client: DashboardClient): Promise<{ secret: string; codes: string[] }> {
    const page = await client.get(PAGE);
    expect(page.status, page.text).toBe(200);
    const secret = secretOn(page);
    const done = await client.post(`${PAGE}/enable`, {
      form_token: formToken(page.text),
      code: codeAt(secret, g().t.clock.nowMs()),
      current_password: PASSWORD,
    });
    expect(done.status, done.text).toBe(200);
    return { secret, codes: recoveryCodesOn(done) };
  }

  /** Signs in with the password in a new client from `address`: answers the client at the second step. */
  async function passwordStep(email: string, address?: string): Promise<DashboardClient> {
    const client = clientFrom(g(), address);
    const page = await signIn(client, email);
    expect(page.status, page.text).toBe(303);
    expect(locationPath(page)).toBe(STEP);
    return client;
  }

  function enterCode(client: DashboardClient, code: string): Promise<Page> {
    return client.submit(STEP, STEP, { code });
  }

  return { owner, enrol, passwordStep, enterCode };
}

/** A 6-digit code that is none of the codes of `secret` accepted at `ms` (one step either way). */
function wrongCodeAt(secret: string, ms: number): string {
  const accepted = [-1, 0, 1].map((step) => codeAt(secret, ms + step * STEP_MS));
  return ['123456', '654321', '111111', '222222'].find((code) => !accepted.includes(code)) as string;
}

/**
 * Posts `fields` to `path` `count` times at once, as the browser `from` (its cookies and address,
 * the form token of its page `page`), the i-th to `instances[i % instances.length]`. Answers the statuses.
 */
async function postedTogether(
  from: DashboardClient,
  instances: readonly TestGateway[],
  page: string,
  path: string,
  fields: Record<string, string>,
  count: number,
): Promise<number[]> {
  const token = formToken((await from.get(page)).text);
  const browsers = instances.map((t) => {
    const browser = new DashboardClient(t.url, from.headers);
    for (const [name, value] of from.cookies) browser.cookies.set(name, value);
    return browser;
  });
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      (browsers[i % browsers.length] as DashboardClient).post(path, { form_token: token, ...fields }),
    ),
  );
  return answers.map((answer) => answer.status);
}

/** The failed sign-ins kept for `email`. */
async function failuresOf(g: DashboardGateway, email: string): Promise<number> {
  const rows = await g.t.gateway.deps.db
    .selectFrom('dashboard_sign_in_failures')
    .select('id')
    .where('email', '=', email)
    .execute();
  return rows.length;
}

/**
 * 30 wrong codes for one pending sign-in posted together over `instances` (the first is `g`): at
 * most 5 are checked (401), the others are locked out (429); with the failures topped up to 5 one
 * by one, the right code is refused as locked.
 */
async function pendingCodesTogether(g: DashboardGateway, instances: readonly TestGateway[]): Promise<void> {
  const { owner, enrol, passwordStep, enterCode } = twoStepHelpers(() => g);
  const { client, email } = await owner();
  const { secret } = await enrol(client);
  for (const t of instances) t.clock.advance(STEP_MS);
  const wrong = wrongCodeAt(secret, g.t.clock.nowMs());
  const attacker = await passwordStep(email);
  const statuses = await postedTogether(attacker, instances, STEP, STEP, { code: wrong }, 30);
  for (const status of statuses) expect([401, 429]).toContain(status);
  const checked = statuses.filter((status) => status === 401).length;
  expect(checked, `${checked} of 30 codes checked`).toBeLessThanOrEqual(SIGN_IN_LIMIT_PER_ACCOUNT);
  expect(await failuresOf(g, email)).toBe(checked);
  for (let i = checked; i < SIGN_IN_LIMIT_PER_ACCOUNT; i += 1) {
    expect((await enterCode(attacker, wrong)).status).toBe(401);
  }
  const locked = await enterCode(attacker, codeAt(secret, g.t.clock.nowMs()));
  expect(locked.status).toBe(429);
  expect(locked.text).toContain('Too many failed sign-ins');
  expect(await failuresOf(g, email)).toBe(SIGN_IN_LIMIT_PER_ACCOUNT);
}

/**
 * 30 requests to turn two-step sign-in off, with the right password and a wrong code, posted
 * together over `instances`: at most 5 codes are checked (422), the others are locked out (429);
 * with the failures topped up to 5, the right code is refused as locked and it stays on.
 */
async function disableCodesTogether(g: DashboardGateway, instances: readonly TestGateway[]): Promise<void> {
  const { owner, enrol } = twoStepHelpers(() => g);
  const { client, email } = await owner();
  const { secret } = await enrol(client);
  for (const t of instances) t.clock.advance(STEP_MS);
  const wrong = wrongCodeAt(secret, g.t.clock.nowMs());
  const fields = { code: wrong, current_password: PASSWORD };
  const statuses = await postedTogether(client, instances, PAGE, `${PAGE}/disable`, fields, 30);
  for (const status of statuses) expect([422, 429]).toContain(status);
  const checked = statuses.filter((status) => status === 422).length;
  expect(checked, `${checked} of 30 codes checked`).toBeLessThanOrEqual(SIGN_IN_LIMIT_PER_ACCOUNT);
  expect(await failuresOf(g, email)).toBe(checked);
  for (let i = checked; i < SIGN_IN_LIMIT_PER_ACCOUNT; i += 1) {
    expect((await client.submit(PAGE, `${PAGE}/disable`, fields)).status).toBe(422);
  }
  const right = { code: codeAt(secret, g.t.clock.nowMs()), current_password: PASSWORD };
  expect((await client.submit(PAGE, `${PAGE}/disable`, right)).status).toBe(429);
  const user = await g.t.gateway.deps.db
    .selectFrom('dashboard_users')
    .select('totp_enabled_at')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  expect(user.totp_enabled_at).not.toBeNull();
}

describe.each(DIALECTS)('two-step sign-in (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => g?.close());
  // Each test starts after the failed sign-ins of the earlier ones stopped counting.
  beforeEach(() => g.t.clock.advance(16 * MINUTE_MS));

  const now = () => g.t.clock.nowMs();
  const db = () => g.t.gateway.deps.db;

  const { owner, enrol, passwordStep, enterCode } = twoStepHelpers(() => g);

  async function userRow(email: string) {
    return db().selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  }

  it('sets up two-step sign-in: a wrong code is refused, a right one turns it on, recovery codes are shown once', async () => {
    const { client, email } = await owner();
    const account = await client.get('/dashboard/account');
    expect(account.text).toContain('Two-step sign-in: <span class="tf-state tf-off">Off</span>');
    expect(account.text).toContain(`href="${PAGE}"`);

    const setup = await client.get(PAGE);
    expect(setup.status).toBe(200);
    expect(setup.text).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" width="200" height="200" alt="/);
    const secret = secretOn(setup);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.text).not.toContain(`value="${secret}"`);
    // The pending secret is kept on the server: the page shows the same one again.
    expect(secretOn(await client.get(PAGE))).toBe(secret);
    const pending = await userRow(email);
    expect(pending.totp_secret).not.toBeNull();
    expect(pending.totp_enabled_at).toBeNull();

    const right = codeAt(secret, now());
    const wrong = right === '000000' ? '111111' : '000000';
    const wrongCode = await client.submit(PAGE, `${PAGE}/enable`, { code: wrong, current_password: PASSWORD });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.text).toContain('This code is not right.');
    expect(wrongCode.text).toMatch(/id="f-code"[^>]*aria-invalid="true"/);
    const wrongPassword = await client.submit(PAGE, `${PAGE}/enable`, {
      code: right,
      current_password: 'not it at all',
    });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.text).toContain('This is not your current password.');
    const empty = await client.submit(PAGE, `${PAGE}/enable`, { code: '', current_password: PASSWORD });
    expect(empty.status).toBe(422);
    expect((await userRow(email)).totp_enabled_at).toBeNull();

    const done = await client.submit(PAGE, `${PAGE}/enable`, { code: right, current_password: PASSWORD });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Two-step sign-in is on.');
    expect(done.text).toContain('These codes are shown only now.');
    const codes = recoveryCodesOn(done);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const user = await userRow(email);
    expect(user.totp_enabled_at).not.toBeNull();
    const stored = await db()
      .selectFrom('dashboard_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      for (const row of stored) {
        expect(row.code_hash).not.toContain(code);
        expect(row.code_hash).not.toContain(code.replace(/-/g, '').toUpperCase());
      }
    }

    // Never again: the page now offers to turn it off, without the secret or the codes.
    const manage = await client.get(PAGE);
    expect(manage.status).toBe(200);
    expect(manage.text).toContain('Turn off two-step sign-in');
    expect(manage.text).toContain('10 unused recovery codes left.');
    expect(manage.text).not.toContain(secret);
    expect(manage.text).not.toMatch(/id="totp-secret"/);
    for (const code of codes) expect(manage.text).not.toContain(code);
    expect((await client.get('/dashboard/account')).text).toContain('<span class="tf-state tf-on">On</span>');
    // Posting the setup again changes nothing.
    const again = await client.post(`${PAGE}/enable`, {
      form_token: formToken(manage.text),
      code: right,
      current_password: PASSWORD,
    });
    expect(again.status).toBe(303);
    expect(locationPath(again)).toBe(PAGE);

    const audit = await db()
      .selectFrom('dashboard_audit_events')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('action', '=', 'totp.enabled')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.subject).toBe(email);
  });

  it('keeps the secret sealed, bound to the user', async () => {
    const { client, email } = await owner();
    const { secret } = await enrol(client);
    const user = await userRow(email);
    expect(user.totp_secret).not.toBeNull();
    expect(user.totp_secret).not.toContain(secret);
    expect(user.totp_secret).not.toContain(secret.toLowerCase());
    const sealer = g.t.gateway.deps.sealer;
    expect(sealer.open(user.totp_secret as string, totpSecretContext(user.id))).toBe(secret);
    expect(() => sealer.open(user.totp_secret as string, totpSecretContext('another-user'))).toThrow();
  });

  it('asks for the code after the password; a code works once, one step of drift either way, not two', async () => {
    const first = await owner();
    const { secret } = await enrol(first.client);
    const enrolledAt = now();
    const address = '192.0.2.77';

    const client = await passwordStep(first.email, address);
    expect(client.cookies.has('dashboard_session')).toBe(false);
    const home = await client.get('/dashboard');
    expect(home.status).toBe(303);
    expect(locationPath(home)).toBe('/dashboard/sign-in');
    // The sign-in from a new address is audited when the session starts, not at the password.
    const user = await userRow(first.email);
    const newAddress = () =>
      db()
        .selectFrom('dashboard_audit_events')
        .select('subject')
        .where('user_id', '=', user.id)
        .where('action', '=', 'sign_in.new_address')
        .where('subject', '=', address)
        .execute();
    expect(await newAddress()).toHaveLength(0);

    const step = await client.get(STEP);
    expect(step.status).toBe(200);
    expect(step.text).toContain('Enter your code');
    expect((await enterCode(client, codeAt(secret, now() + 2 * STEP_MS))).status).toBe(401);
    expect((await enterCode(client, codeAt(secret, now() - 2 * STEP_MS))).status).toBe(401);
    // The code used to turn it on does not sign in (a code works once).
    const replayed = await enterCode(client, codeAt(secret, enrolledAt));
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain('This code is not right.');

    g.t.clock.advance(STEP_MS);
    // One step ahead of the clock is accepted.
    const ahead = codeAt(secret, now() + STEP_MS);
    const signedIn = await enterCode(client, ahead);
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(locationPath(signedIn)).toBe('/dashboard');
    expect(client.cookies.has('dashboard_session')).toBe(true);
    expect(client.cookies.has('dashboard_two_step')).toBe(false);
    expect((await client.get('/dashboard')).status).toBe(200);
    expect(await newAddress()).toHaveLength(1);

    // The same code again, or an earlier one still within the window, is refused.
    const again = await passwordStep(first.email, address);
    expect((await enterCode(again, ahead)).status).toBe(401);
    expect((await enterCode(again, codeAt(secret, now()))).status).toBe(401);
    g.t.clock.advance(4 * STEP_MS);
    // One step behind the clock is accepted.
    const behind = await enterCode(again, codeAt(secret, now() - STEP_MS));
    expect(behind.status, behind.text).toBe(303);
    expect(await newAddress()).toHaveLength(1);
  });

  it('signs in with a recovery code, once', async () => {
    const { client, email } = await owner();
    const { codes } = await enrol(client);
    const code = codes[3] as string;
    const typed = ` ${code.toUpperCase().replace(/-/g, ' ')} `;
    const signedIn = await enterCode(await passwordStep(email), typed);
    expect(signedIn.status, signedIn.text).toBe(303);
    const other = await passwordStep(email);
    const reused = await enterCode(other, code);
    expect(reused.status).toBe(401);
    expect(reused.text).toContain('a recovery code you have not used');
    const signedInAgain = await enterCode(other, codes[4] as string);
    expect(signedInAgain.status).toBe(303);
    expect((await other.get(PAGE)).text).toContain('8 unused recovery codes left.');
  });

  it('counts wrong codes as failed sign-ins: five lock the account for 15 minutes', async () => {
    const { client, email } = await owner();
    const { secret } = await enrol(client);
    g.t.clock.advance(STEP_MS);
    const right = () => codeAt(secret, now());
    const wrong = () => (right() === '123456' ? '654321' : '123456');

    const attacker = await passwordStep(email);
    for (let i = 0; i < 3; i += 1) expect((await enterCode(attacker, wrong())).status).toBe(401);
    // A right password again does not wipe the count of wrong codes.
    const again = await passwordStep(email);
    for (let i = 0; i < 2; i += 1) expect((await enterCode(again, wrong())).status).toBe(401);
    const locked = await enterCode(again, right());
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-ins');
    // The password is locked out too, as for wrong passwords.
    const passwordLocked = await signIn(clientFrom(g), email);
    expect(passwordLocked.status).toBe(429);

    g.t.clock.advance(16 * MINUTE_MS);
    const later = await passwordStep(email);
    const signedIn = await enterCode(later, right());
    expect(signedIn.status, signedIn.text).toBe(303);
    const failures = await db()
      .selectFrom('dashboard_sign_in_failures')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(failures).toHaveLength(0);
  });

  it('checks at most 5 codes of one pending sign-in posted together', { timeout: 60_000 }, async () => {
    await pendingCodesTogether(g, [g.t]);
  });

  it('checks at most 5 codes given to turn it off posted together', { timeout: 120_000 }, async () => {
    await disableCodesTogether(g, [g.t]);
  });

  it('ends the pending sign-in after five minutes, and after its use', async () => {
    const { client, email } = await owner();
    const { secret } = await enrol(client);
    const late = clientFrom(g);
    const answer = await signIn(late, email);
    expect(locationPath(answer)).toBe(STEP);
    const pendingId = late.cookies.get('dashboard_two_step') as string;
    expect(pendingId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.setCookies.join('\n')).toMatch(
      /dashboard_two_step=[^;]+; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=300/,
    );
    const rows = await db().selectFrom('dashboard_pending_sign_ins').selectAll().execute();
    expect(rows.map((row) => row.id_hash)).toContain(sha256Hex(pendingId));
    expect(rows.map((row) => row.id_hash)).not.toContain(pendingId);

    g.t.clock.advance(5 * MINUTE_MS);
    const token = formToken((await late.get('/dashboard/sign-in')).text);
    const expired = await late.post(STEP, { form_token: token, code: codeAt(secret, now()) });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('This sign-in has expired');
    expect((await late.get(STEP)).status).toBe(400);

    const used = await passwordStep(email);
    const usedId = used.cookies.get('dashboard_two_step') as string;
    const usedToken = formToken((await used.get(STEP)).text);
    expect((await enterCode(used, codeAt(secret, now()))).status).toBe(303);
    // The same pending sign-in, from a copy of the cookie, is gone.
    const copy = clientFrom(g);
    copy.cookies.set('dashboard_two_step', usedId);
    for (const [name, value] of used.cookies) if (name === 'dashboard_form') copy.cookies.set(name, value);
    g.t.clock.advance(STEP_MS);
    const reused = await copy.post(STEP, { form_token: usedToken, code: codeAt(secret, now()) });
    expect(reused.status).toBe(400);
    expect(reused.text).not.toContain('dashboard_session');
    expect(copy.cookies.has('dashboard_session')).toBe(false);
  });

  it('turns off with the password and a code or a recovery code, audited', async () => {
    const { client, email } = await owner();
    const { secret, codes } = await enrol(client);
    g.t.clock.advance(STEP_MS);
    const wrongCode = await client.submit(PAGE, `${PAGE}/disable`, {
      code: 'abcd-efgh-jkmn',
      current_password: PASSWORD,
    });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.text).toContain('This code is not right.');
    const wrongPassword = await client.submit(PAGE, `${PAGE}/disable`, {
      code: codeAt(secret, now()),
      current_password: 'not my password',
    });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.text).toContain('This is not your current password.');
    expect((await userRow(email)).totp_enabled_at).not.toBeNull();

    const off = await client.submit(PAGE, `${PAGE}/disable`, { code: codes[0] as string, current_password: PASSWORD });
    expect(off.status, off.text).toBe(303);
    expect(locationPath(off)).toBe(`${PAGE}?notice=disabled`);
    const page = await client.get(locationPath(off));
    expect(page.text).toContain('Two-step sign-in is off.');
    expect(secretOn(page)).not.toBe(secret);
    const user = await userRow(email);
    expect(user.totp_enabled_at).toBeNull();
    expect(
      await db().selectFrom('dashboard_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(0);
    const audit = await db()
      .selectFrom('dashboard_audit_events')
      .select(['action', 'subject', 'address'])
      .where('user_id', '=', user.id)
      .where('action', 'in', ['totp.enabled', 'totp.disabled'])
      .orderBy('created_at')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['totp.enabled', 'totp.disabled']);
    expect(audit[1]?.subject).toBe(email);

    // The password alone signs in again.
    const signedIn = await signIn(clientFrom(g), email);
    expect(locationPath(signedIn)).toBe('/dashboard');
  });

  it('turns off with a code from the app, and makes new recovery codes that replace the old', async () => {
    const { client, email } = await owner();
    const { secret, codes } = await enrol(client);
    g.t.clock.advance(STEP_MS);
    const fresh = await client.submit(PAGE, `${PAGE}/recovery-codes`, {
      code: codeAt(secret, now()),
      current_password: PASSWORD,
    });
    expect(fresh.status, fresh.text).toBe(200);
    const newCodes = recoveryCodesOn(fresh);
    expect(newCodes).toHaveLength(10);
    for (const code of codes) expect(newCodes).not.toContain(code);
    const renewed = await db()
      .selectFrom('dashboard_audit_events')
      .select(['subject', 'user_id'])
      .where('action', '=', 'totp.recovery_codes_renewed')
      .where('subject', '=', email)
      .execute();
    expect(renewed).toEqual([{ subject: email, user_id: (await userRow(email)).id }]);
    expect((await enterCode(await passwordStep(email), codes[0] as string)).status).toBe(401);
    expect((await enterCode(await passwordStep(email), newCodes[0] as string)).status).toBe(303);

    g.t.clock.advance(STEP_MS);
    const off = await client.submit(PAGE, `${PAGE}/disable`, {
      code: codeAt(secret, now()),
      current_password: PASSWORD,
    });
    expect(off.status, off.text).toBe(303);
    expect((await userRow(email)).totp_secret).toBeNull();
  });

  it('counts wrong codes given to turn it off as failed sign-ins', async () => {
    const { client, email } = await owner();
    const { secret } = await enrol(client);
    g.t.clock.advance(STEP_MS);
    const right = codeAt(secret, now());
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i += 1) {
      const refused = await client.submit(PAGE, `${PAGE}/disable`, { code: wrong, current_password: PASSWORD });
      expect(refused.status).toBe(422);
    }
    const locked = await client.submit(PAGE, `${PAGE}/disable`, { code: right, current_password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-ins');
    expect((await userRow(email)).totp_enabled_at).not.toBeNull();
    expect((await signIn(clientFrom(g), email)).status).toBe(429);
  });

  it('keeps two-step sign-in on through a password reset', async () => {
    const { client, email } = await owner();
    const { secret } = await enrol(client);
    const other = clientFrom(g);
    await other.submit('/dashboard/reset', '/dashboard/reset', { email });
    const link = linkIn((await mailTo(g.smtp, email, /Reset your password/)).text, '/dashboard/reset/new');
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const done = await other.submit(link, '/dashboard/reset/new', { token, password: 'a brand new passphrase' });
    expect(locationPath(done)).toBe('/dashboard/sign-in?notice=reset');
    const step = await signIn(other, email, 'a brand new passphrase');
    expect(locationPath(step)).toBe(STEP);
    g.t.clock.advance(STEP_MS);
    expect((await enterCode(other, codeAt(secret, now()))).status).toBe(303);
  });

  it('lets a viewer set it up for themselves', async () => {
    const { email } = await owner();
    const user = await userRow(email);
    const viewerEmail = uniqueEmail('viewer');
    const deps = g.t.gateway.deps;
    const at = new Date(now()).toISOString();
    await db()
      .insertInto('dashboard_users')
      .values({
        id: deps.ids.uuid(now()),
        merchant_id: user.merchant_id,
        email: viewerEmail,
        password_hash: user.password_hash,
        role: 'viewer',
        email_verified_at: at,
        totp_secret: null,
        totp_enabled_at: null,
        password_changed_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const viewer = clientFrom(g);
    expect((await signIn(viewer, viewerEmail)).status).toBe(303);
    const { secret, codes } = await enrol(viewer);
    expect(codes).toHaveLength(10);
    g.t.clock.advance(STEP_MS);
    expect((await enterCode(await passwordStep(viewerEmail), codeAt(secret, now()))).status).toBe(303);
  });
});

describe('two-step sign-in limits with two instances on one PostgreSQL', () => {
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

  it('checks at most 5 codes of one pending sign-in posted together to both', { timeout: 60_000 }, async () => {
    await pendingCodesTogether(g, [g.t, second]);
  });

  it('checks at most 5 codes given to turn it off posted together to both', { timeout: 120_000 }, async () => {
    await disableCodesTogether(g, [g.t, second]);
  });
});
