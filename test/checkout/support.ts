/** Helpers of the checkout tests: create payments through the API, fetch pages, post forms. */
import { expect } from 'vitest';
import { paymentBody, type TestGateway } from '../support/gateway.js';

export type Json = Record<string, unknown>;

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** Every page text the tests received, to check that no card number ever came back. */
export const seenResponses: string[] = [];

export async function createPayment(
  t: TestGateway,
  key: string,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Json> {
  const res = await t.call('POST', '/api/v1/payments', { key, body: paymentBody(overrides), headers });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function readPayment(t: TestGateway, key: string, uuid: unknown): Promise<Json> {
  const res = await t.call('GET', `/api/v1/payments/${String(uuid)}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The path (and query) of a payment's `checkout_url`. */
export function checkoutPath(payment: Json, suffix = ''): string {
  const url = new URL(String(payment.checkout_url));
  return `${url.pathname}${suffix}`;
}

export function tokenOf(payment: Json): string {
  return String(payment.checkout_url).split('/checkout/')[1] ?? '';
}

async function toPage(response: Response): Promise<PageResponse> {
  const text = await response.text();
  seenResponses.push(text);
  return { status: response.status, headers: response.headers, text, location: response.headers.get('location') };
}

export async function getPage(t: TestGateway, path: string, headers: Record<string, string> = {}) {
  return toPage(await fetch(`${t.url}${path}`, { redirect: 'manual', headers }));
}

export async function postForm(
  t: TestGateway,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<PageResponse> {
  return toPage(
    await fetch(`${t.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The value of the page's `form_token` field. */
export function formToken(html: string): string {
  const match = /name="form_token" value="([^"]+)"/.exec(html);
  if (match === null) throw new Error('the page has no form token');
  return match[1] as string;
}

/** The `action` of the page's (first) form, entities decoded. */
export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (match === null) throw new Error('the page has no form');
  return (match[1] as string).replace(/&amp;/g, '&');
}

export function cspOf(page: PageResponse): Record<string, string> {
  const header = page.headers.get('content-security-policy') ?? '';
  const directives: Record<string, string> = {};
  for (const part of header.split(';')) {
    const [name = '', ...values] = part.trim().split(/\s+/);
    if (name !== '') directives[name] = values.join(' ');
  }
  return directives;
}

/** The text of the page without tags (entities of `&`, `<`, `>`, quotes decoded). */
export function visibleText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Walks a sandbox payment from its checkout page to the test page; answers the test page. */
export async function openTestPage(t: TestGateway, payment: Json, query = ''): Promise<PageResponse> {
  const checkout = await getPage(t, `${checkoutPath(payment)}${query}`);
  expect(checkout.status, checkout.text).toBe(200);
  const chose = await postForm(t, formAction(checkout.text), {
    form_token: formToken(checkout.text),
    processor: 'sandbox',
  });
  expect(chose.status, chose.text).toBe(303);
  const location = new URL(chose.location ?? '');
  const test = await getPage(t, `${location.pathname}${location.search}`);
  expect(test.status, test.text).toBe(200);
  return test;
}

/** Pays on the test page with `card`; answers the 303 and then the payment's page it leads to. */
export async function payOnTestPage(t: TestGateway, testPage: PageResponse, card: string) {
  const paid = await postForm(t, formAction(testPage.text), {
    form_token: formToken(testPage.text),
    card_number: card,
    expiry: '12/34',
    cvv: '123',
    cardholder: 'Test Buyer',
  });
  if (paid.status !== 303) return { paid, result: paid };
  const location = new URL(paid.location ?? '');
  return { paid, result: await getPage(t, `${location.pathname}${location.search}`) };
}
