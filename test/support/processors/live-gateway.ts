/**
 * What the end-to-end tests of live processors share: a gateway on a port chosen in advance (so its
 * PUBLIC_URL is its real origin, where the processors' fakes call it back) that may reach the
 * fakes on 127.0.0.1, and readers of what a test checks: pages without following redirects, the
 * handoff link, the payment's processor session and the events it emitted.
 */
import type { DialectName } from '../../../storage/database.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from '../gateway.js';
import { freePort } from '../ports.js';

type Json = Record<string, unknown>;

export async function startLiveGateway(
  dialect: DialectName,
  options: Omit<TestGatewayOptions, 'env'> = {},
): Promise<TestGateway> {
  const port = await freePort();
  return startTestGateway(dialect, {
    ...options,
    env: {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The fakes and the webhook receiver listen on 127.0.0.1.
      GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
}

export interface VisitedPage {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
  readonly csp: string;
}

/** A GET as a browser's first request makes it, without following redirects. */
export async function visit(url: string): Promise<VisitedPage> {
  const res = await fetch(url, { redirect: 'manual' });
  return {
    status: res.status,
    location: res.headers.get('location'),
    text: await res.text(),
    csp: res.headers.get('content-security-policy') ?? '',
  };
}

/** Where the handoff page's `#go` link sends the buyer. */
export function handoffHref(html: string): string {
  const match = /<a id="go" class="button" href="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('no handoff link on the page');
  return match[1].replaceAll('&amp;', '&');
}

/** The payment's session row at its processor. */
export async function processorSession(t: TestGateway, uuid: unknown): Promise<Json | undefined> {
  return (await t.gateway.deps.db
    .selectFrom('processor_sessions')
    .selectAll()
    .where('payment_id', '=', String(uuid))
    .executeTakeFirst()) as Json | undefined;
}

/** The payment's events in the outbox, oldest first, with the status each carries. */
export async function paymentEvents(t: TestGateway, uuid: unknown): Promise<Array<{ event: string; status: string }>> {
  const rows = await t.gateway.deps.db
    .selectFrom('outbox_events')
    .select(['event', 'payload'])
    .where('payment_id', '=', String(uuid))
    .orderBy('created_at')
    // Same instant under the manual clock: ids are UUIDv7 in creation order within a process.
    .orderBy('id')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const payload = JSON.parse(String(row.payload)) as { transaction?: { status?: string } };
    return { event: String(row.event), status: String(payload.transaction?.status) };
  });
}

/**
 * The buyer on Ameriabank's page (the fake at `bankOrigin`): opens `href`, presses Pay or Decline
 * there; answers where the bank sends the browser.
 */
export async function pressAtAmeria(
  bankOrigin: string,
  href: string,
  action: 'pay' | 'decline',
  code = '0100',
): Promise<string> {
  const page = await visit(href);
  if (page.status !== 200) throw new Error(`the bank's page answered ${page.status}: ${page.text}`);
  const id = /name="id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const lang = /name="lang" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const pressed = await fetch(`${bankOrigin}/VPOS/Payments/Pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ id, lang, action, code }).toString(),
    redirect: 'manual',
  });
  await pressed.arrayBuffer();
  if (pressed.status !== 302) throw new Error(`pressing ${action} answered ${pressed.status}`);
  return pressed.headers.get('location') ?? '';
}

/** A direct Ameria payment the buyer pays: the handoff, the bank's page, Pay, and the return. */
export async function payAtAmeria(bankOrigin: string, checkoutUrl: string): Promise<void> {
  const handoff = await visit(checkoutUrl);
  await visit(await pressAtAmeria(bankOrigin, handoffHref(handoff.text), 'pay'));
}
