/**
 * Helpers of the dashboard tests: a gateway that mails to a local SMTP sink, a browser-less client
 * that keeps cookies and posts forms with the page's form token, and readers of the mailed links.
 */
import type { Logger } from 'pino';
import { expect } from 'vitest';
import type { DialectName } from '../../storage/database.js';
import { formToken } from '../checkout/support.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { parseMessage, startSmtp, type TestSmtp } from '../support/smtp-server.js';

export const PASSWORD = 'correct horse battery';

export interface DashboardGateway {
  readonly t: TestGateway;
  readonly smtp: TestSmtp;
  close(): Promise<void>;
}

export async function startDashboardGateway(
  dialect: DialectName,
  options: { env?: Record<string, string>; logger?: Logger } = {},
): Promise<DashboardGateway> {
  const smtp = await startSmtp();
  const t = await startTestGateway(dialect, {
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...options.env },
    ...(options.logger ? { logger: options.logger } : {}),
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

/** Waits for the `nth` (1-based) mail to `to` whose subject matches; answers its subject and text. */
export async function mailTo(
  smtp: TestSmtp,
  to: string,
  subject: RegExp,
  nth = 1,
): Promise<{ subject: string; text: string }> {
  const matching = () =>
    smtp.received
      .filter((mail) => mail.to.includes(to))
      .map((mail) => parseMessage(mail.raw))
      .filter((mail) => subject.test(mail.subject));
  await eventually(() => matching().length >= nth, `mail ${nth} to ${to} (${subject})`);
  return matching()[nth - 1] as { subject: string; text: string };
}

/** The path and query of the first link in `text` to `path` (PUBLIC_URL may not be the test's origin). */
export function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (match === null) throw new Error(`no link to ${path} in: ${text}`);
  return match[1] as string;
}

/** Signs up through the forms, confirms the address through the mailed link; answers the client. */
export async function signUpAndConfirm(
  g: DashboardGateway,
  email: string,
  password = PASSWORD,
  client = new DashboardClient(g.t.url),
): Promise<DashboardClient> {
  const signedUp = await client.submit('/dashboard/sign-up', '/dashboard/sign-up', {
    name: 'Ararat Books',
    email,
    password,
  });
  expect(signedUp.status, signedUp.text).toBe(200);
  const mail = await mailTo(g.smtp, email, /Confirm your email/);
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

/** The request a printed curl makes: its method, URL, headers and body as the shell would pass them. */
export function curlRequest(command: string): {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
} {
  const oneLine = command.replace(/\\\n\s*/g, ' ');
  const method = /-X (\w+)/.exec(oneLine)?.[1] ?? 'GET';
  const url = /-X \w+ (\S+)/.exec(oneLine)?.[1] ?? '';
  const headers: Record<string, string> = {};
  for (const match of oneLine.matchAll(/-H "([^"]+)"/g)) {
    const [name = '', ...rest] = (match[1] as string).split(':');
    headers[name.trim()] = rest.join(':').trim();
  }
  // A double-quoted shell word: \" is a quote, $(date +%s) the time in seconds.
  const quoted = /-d "((?:[^"\\]|\\.)*)"/.exec(oneLine)?.[1] ?? '';
  const body = quoted.replace(/\\(["\\$`])/g, '$1').replace('$(date +%s)', String(Math.floor(Date.now() / 1000)));
  return { method, url, headers, body };
}
