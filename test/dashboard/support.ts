/**
 * Helpers of the dashboard tests: a gateway that mails to a local SMTP sink, a browser-less client
 * that keeps cookies and posts forms with the page's form token, and readers of the mailed links.
 */
import type { Logger } from 'pino';
import { expect } from 'vitest';
import { hashPassword } from '../../gateway/dashboard/passwords.js';
import { toStoredInstant } from '../../gateway/domain/clock.js';
import type { VerificationOptions } from '../../gateway/merchants/domain-verification.service.js';
import type { DashboardRole } from '../../storage/dashboard-user.table.js';
import type { DialectName } from '../../storage/database.js';
import { formToken } from '../checkout/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startSmtp, type TestSmtp } from '../support/smtp-server.js';
import { linkIn, mailTo } from './readers.js';

export { curlRequest, linkIn, mailTo } from './readers.js';

export const PASSWORD = 'correct horse battery';

export interface DashboardGateway {
  readonly t: TestGateway;
  readonly smtp: TestSmtp;
  close(): Promise<void>;
}

export async function startDashboardGateway(
  dialect: DialectName,
  options: { env?: Record<string, string>; logger?: Logger; domainVerification?: VerificationOptions } = {},
): Promise<DashboardGateway> {
  const smtp = await startSmtp();
  const t = await startTestGateway(dialect, {
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...options.env },
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.domainVerification ? { domainVerification: options.domainVerification } : {}),
  });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

export interface Page {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly location: string | null;
  readonly setCookies: string[];
}

/** A browser without a browser: keeps the dashboard's cookies and sends them back. */
export class DashboardClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method: string, path: string, body?: URLSearchParams): Promise<Page> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...this.headers,
        ...(this.cookies.size > 0 ? { Cookie: this.cookieHeader() } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body: body.toString() }),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get('location');
    return { status: response.status, headers: response.headers, text: await response.text(), location, setCookies };
  }

  get(path: string): Promise<Page> {
    return this.request('GET', path);
  }

  /** Posts `fields` with the form token of the page at `from` (GET first). */
  async submit(from: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.get(from);
    expect(page.status, page.text).toBe(200);
    return this.post(action, { form_token: formToken(page.text), ...fields });
  }

  post(path: string, fields: Record<string, string>): Promise<Page> {
    return this.request('POST', path, new URLSearchParams(fields));
  }
}

/** The path (and query) of a redirect's Location. */
export function locationPath(page: Page): string {
  const url = new URL(page.location ?? '', 'http://x');
  return `${url.pathname}${url.search}`;
}

/** Signs up through the forms, confirms the address through the mailed link; answers the client. */
export async function signUpAndConfirm(
  g: DashboardGateway,
  email: string,
  password = PASSWORD,
  client = new DashboardClient(g.t.url),
  /** The confirmation mail's subject (English unless the client chose another language). */
  confirmSubject = /Confirm your email/,
): Promise<DashboardClient> {
  const signedUp = await client.submit('/dashboard/sign-up', '/dashboard/sign-up', {
    name: 'Ararat Books',
    email,
    password,
  });
  expect(signedUp.status, signedUp.text).toBe(200);
  const mail = await mailTo(g.smtp, email, confirmSubject);
  const link = linkIn(mail.text, '/dashboard/verify-email');
  const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
  const confirmed = await client.submit(link, '/dashboard/verify-email', { token });
  expect(confirmed.status, confirmed.text).toBe(303);
  return client;
}

export async function signIn(client: DashboardClient, email: string, password = PASSWORD): Promise<Page> {
  return client.submit('/dashboard/sign-in', '/dashboard/sign-in', { email, password });
}

let counter = 0;
export function uniqueEmail(label = 'owner'): string {
  counter += 1;
  return `${label}-${counter}-${Math.random().toString(36).slice(2, 8)}@ararat-books.am`;
}

/** The audit events `action` of the account, oldest first. */
export function auditRows(g: DashboardGateway, merchantId: string, action: string) {
  return g.t.gateway.deps.db
    .selectFrom('dashboard_audit_events')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('action', '=', action)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** A signed-in owner of a new account, and the account's merchant id; signed up in `lang` when given. */
export async function signedInOwner(
  g: DashboardGateway,
  email = uniqueEmail(),
  lang?: string,
): Promise<{ client: DashboardClient; merchantId: string; email: string }> {
  const start = new DashboardClient(g.t.url);
  if (lang !== undefined) expect((await start.get(`/dashboard/sign-up?lang=${lang}`)).status).toBe(200);
  const client = await signUpAndConfirm(g, email, PASSWORD, start, lang === undefined ? /Confirm your email/ : /./);
  const page = await signIn(client, email);
  expect(page.status, page.text).toBe(303);
  const user = await g.t.gateway.deps.db
    .selectFrom('dashboard_users')
    .select('merchant_id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { client, merchantId: user.merchant_id, email };
}

/**
 * A member of the account with `role`, written straight to the database (a confirmed address, the
 * test password), signed in. For tests of what a role may do; the invitation itself is tested
 * through its own pages.
 */
export async function signedInMember(
  g: DashboardGateway,
  merchantId: string,
  role: DashboardRole,
  email = uniqueEmail(role),
): Promise<DashboardClient> {
  const deps = g.t.gateway.deps;
  const now = toStoredInstant(deps.clock.nowMs());
  await deps.db
    .insertInto('dashboard_users')
    .values({
      id: deps.ids.uuid(deps.clock.nowMs()),
      merchant_id: merchantId,
      email,
      password_hash: await hashPassword(PASSWORD, deps.config.passwordHashCost),
      role,
      email_verified_at: now,
      totp_secret: null,
      totp_enabled_at: null,
      password_changed_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const client = new DashboardClient(g.t.url);
  const page = await signIn(client, email);
  expect(page.status, page.text).toBe(303);
  return client;
}
