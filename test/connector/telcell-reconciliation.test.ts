/**
 * A Telcell payment whose notice never reached the gateway, seen from a WooCommerce store. Telcell
 * is read only by the invoice number its notice carries, so the gateway cannot find out whether the
 * buyer paid: the payment reads back `awaiting_processor_reference`, and the store's reconciliation
 * lists it as its own kind (what happened, what to do), once as a note on the order too, while it
 * is open, after it expired, and when a newer payment of the order is the one the gateway answers
 * for the order. Once the merchant settles it with the invoice number, the next run marks the order
 * paid and lists it no more; a payment whose notice came is never listed.
 *
 * Real gateway (live, Telcell through its local fake), real connector, strict fake WooCommerce
 * store. A live store must be served over https on its token's domain, which a local fake store
 * cannot be: the store connects with a test token (the real key exchange), then its connection is
 * given a live token of the same merchant, as if it had been made with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealContext } from '../../connector/connections/connection-access.js';
import { updateConnection } from '../../connector/storage/connection.repository.js';
import { createConnectToken } from '../../gateway/connect/connect-token.service.js';
import { DAY_MS, MINUTE_MS } from '../../gateway/domain/clock.js';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { setProcessorEnabled } from '../../gateway/merchants/domain-processors.service.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { sha256Hex } from '../../gateway/runtime/hashing.js';
import { formToken, postForm } from '../checkout/support.js';
import { startTestConnector, type TestConnector } from '../support/connector.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { type FakeWooCommerce, LOOPBACK_TEST_CALLBACKS, startFakeWooCommerce } from '../support/fake-woocommerce.js';
import { type TestGateway, uniqueHost } from '../support/gateway.js';
import { type FakeTelcell, startFakeTelcell } from '../support/processors/fake-telcell.js';
import { startLiveGateway, visit } from '../support/processors/live-gateway.js';

type Json = Record<string, unknown>;

interface Finding {
  kind: string;
  store_order_id: string;
  payment_uuid: string | null;
  detail: string;
  action: string;
  repairable: boolean;
  advice: string;
}

const TELCELL_ISSUER = 'shop@telcell-recon.example';
const TELCELL_KEY = 'telcell-recon-shop-key';

describe.each(DIALECTS)('reconciliation of Telcell payments awaiting their invoice number (%s)', (dialect) => {
  let gw: TestGateway;
  let telcell: FakeTelcell;
  let store: FakeWooCommerce;
  let connector: TestConnector;
  let host: string;
  let liveKey: string;
  let liveToken: string;
  let connectionId: string;
  let from: string;

  beforeAll(async () => {
    gw = await startLiveGateway(dialect);
    telcell = await startFakeTelcell({
      shops: [
        {
          issuer: TELCELL_ISSUER,
          shopKey: TELCELL_KEY,
          resultUrl: `${gw.url}/processors/telcell/callback`,
          redirectUrl: `${gw.url}/processors/telcell/callback`,
        },
      ],
    });
    store = await startFakeWooCommerce({ testCallbacks: LOOPBACK_TEST_CALLBACKS });
    connector = await startTestConnector(dialect, gw);
    const deps = gw.gateway.deps;
    const merchant = await gw.merchant({ name: 'Yerevan Tea', verifyBusiness: true, unlimited: true });
    host = uniqueHost('tea');
    await addDomain(deps, { merchantId: merchant.merchantId, host, verified: true });
    await setProcessorEnabled(deps, {
      merchantId: merchant.merchantId,
      host,
      processor: 'telcell',
      enabled: true,
      config: JSON.stringify({ issuer: TELCELL_ISSUER, shop_key: TELCELL_KEY, base_url: telcell.baseUrl }),
      position: 1,
    });
    liveKey = (await createApiKey(deps, { merchantId: merchant.merchantId, environment: 'live', access: 'full' })).key;

    const testToken = (
      await createConnectToken(deps, {
        merchantId: merchant.merchantId,
        domain: merchant.hostedDomain,
        platform: 'woocommerce',
      })
    ).connect_token;
    const registered = await connector.call<{ connection_id: string; authorize_url: string }>(
      'POST',
      '/v1/connections',
      { token: testToken, body: { store_url: store.url } },
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    connectionId = registered.body.connection_id;
    await store.approve(registered.body.authorize_url);

    const live = await createConnectToken(deps, {
      merchantId: merchant.merchantId,
      domain: host,
      platform: 'woocommerce',
      environment: 'live',
    });
    liveToken = live.connect_token;
    const info = await gw.call<{ webhook_secrets: string[] }>('GET', '/api/v1/connect_token', {
      headers: { 'X-Service-Connect': liveToken },
    });
    const { db, sealer } = connector.current().deps;
    await updateConnection(db, connectionId, {
      domain: host,
      environment: 'live',
      token_id: live.id,
      token_hash: sha256Hex(liveToken),
      token_ciphertext: sealer.seal(liveToken, sealContext(connectionId, 'token')),
      webhook_secrets_ciphertext: sealer.seal(
        JSON.stringify(info.body.webhook_secrets),
        sealContext(connectionId, 'webhook_secrets'),
      ),
    });
    from = new Date(gw.clock.nowMs() - MINUTE_MS).toISOString();
  }, 60_000);

  afterAll(async () => {
    await connector?.close();
    await store?.close();
    await telcell?.close();
    await gw?.close();
  });

  const plugin = <T = Json>(method: string, path: string, body?: unknown) =>
    connector.call<T>(method, path, { token: liveToken, ...(body === undefined ? {} : { body }) });
  /** An order placed now, by the gateway's clock (which the connector shares). */
  const placeOrder = (total: string) => store.addOrder({ total }, new Date(gw.clock.nowMs()).toISOString()).id;
  const gatewayOrderId = (orderId: number) => `wc-${connectionId}-${orderId}`;
  const readPayment = async (uuid: string) =>
    (await gw.call<Json>('GET', `/api/v1/payments/${uuid}`, { key: liveKey })).body;

  /** A Telcell payment of the order made straight at the gateway, as a direct checkout would. */
  async function telcellPayment(orderId: number, amount: number): Promise<Json> {
    const created = await gw.call<Json>('POST', '/api/v1/payments', {
      headers: { 'X-Service-Connect': liveToken },
      body: {
        amount,
        order_id: gatewayOrderId(orderId),
        return_url: `https://${host}/done`,
        processor: 'telcell',
        redirect_mode: 'direct',
      },
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  /** The buyer's browser posts the handoff form to Telcell: the invoice it opened. */
  async function openInvoice(checkoutUrl: string, uuid: string): Promise<string> {
    const page = await visit(checkoutUrl);
    expect(page.status).toBe(200);
    const action = /<form id="go" method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
    expect(action).toBe(telcell.baseUrl);
    const fields = new URLSearchParams();
    for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      fields.append(String(name), String(value).replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
    }
    const opened = await fetch(action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect([302, 303]).toContain(opened.status);
    return String(telcell.invoiceFor(uuid.replaceAll('-', ''))?.id);
  }

  /** The buyer pays the invoice at Telcell, whose notice to the gateway is lost. */
  async function payWithNoticeLost(invoiceId: string): Promise<void> {
    telcell.loseResults(true);
    try {
      await telcell.pay(invoiceId);
    } finally {
      telcell.loseResults(false);
    }
  }

  async function reconcile(): Promise<Finding[]> {
    const to = new Date(gw.clock.nowMs() + DAY_MS).toISOString();
    const report = await plugin<{ status: string; findings: Finding[] }>('POST', '/v1/reconciliation', {
      from,
      to,
      repair: true,
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.status).toBe('finished');
    return report.body.findings;
  }
  const ofOrder = (findings: Finding[], orderId: number) =>
    findings.filter((f) => f.store_order_id === String(orderId));
  const reconciliationNotes = (orderId: number, uuid: string) =>
    store.notes(orderId).filter((n) => n.note.startsWith('Reconciliation: ') && n.note.includes(uuid));

  it('lists a paid Telcell payment whose notice was lost, open and then expired, until the merchant settles it with the invoice number', async () => {
    const lostOrder = placeOrder('3500.00');
    const lost = await telcellPayment(lostOrder, 3500);
    const lostUuid = String(lost.uuid);
    const lostInvoice = await openInvoice(String(lost.checkout_url), lostUuid);
    await payWithNoticeLost(lostInvoice);
    // Another order paid at Telcell whose notice came: Telcell named the invoice, nothing awaits.
    const heardOrder = placeOrder('2500.00');
    const heard = await telcellPayment(heardOrder, 2500);
    await telcell.pay(await openInvoice(String(heard.checkout_url), String(heard.uuid)));
    expect(await readPayment(String(heard.uuid))).toMatchObject({
      status: 'completed',
      awaiting_processor_reference: false,
    });
    expect(await readPayment(lostUuid)).toMatchObject({ status: 'processing', awaiting_processor_reference: true });

    const first = await reconcile();
    expect(ofOrder(first, lostOrder)).toEqual([
      {
        kind: 'awaiting_processor_reference',
        store_order_id: String(lostOrder),
        order_number: store.order(lostOrder)?.number,
        payment_uuid: lostUuid,
        detail: `Payment ${lostUuid} of order ${store.order(lostOrder)?.number} at Telcell is still open: Telcell has not told the gateway whether the buyer paid, and the gateway cannot ask Telcell without the invoice number that only Telcell's notice carries.`,
        action: 'flagged',
        repairable: false,
        advice: expect.stringContaining(
          "Look the order up in the merchant cabinet of the payment system named here: if the buyer paid, enter the invoice number on this payment's page in the gateway dashboard",
        ),
      },
    ]);
    expect(ofOrder(first, lostOrder)[0]?.advice).toContain('You may also wait');
    expect(ofOrder(first, heardOrder)).toEqual([
      expect.objectContaining({ kind: 'paid_at_gateway_unpaid_in_store', action: 'repaired' }),
    ]);
    expect(store.order(lostOrder)?.date_paid_gmt).toBeNull();
    // Not written on the order while the payment is open: the buyer may be paying right now.
    expect(reconciliationNotes(lostOrder, lostUuid)).toEqual([]);

    // The gateway gives up on it after 20 minutes: still listed, as expired, and not noted again.
    gw.clock.advance(21 * MINUTE_MS);
    await gw.gateway.scheduler.runDueNow();
    expect(await readPayment(lostUuid)).toMatchObject({ status: 'expired', awaiting_processor_reference: true });
    const second = await reconcile();
    expect(ofOrder(second, lostOrder)).toEqual([
      expect.objectContaining({
        kind: 'awaiting_processor_reference',
        payment_uuid: lostUuid,
        detail: expect.stringContaining(
          `Payment ${lostUuid} of order ${store.order(lostOrder)?.number} at Telcell is expired:`,
        ),
      }),
    ]);
    expect(ofOrder(second, heardOrder)).toEqual([]);
    // Over at the gateway: written on the order for the owner, once across runs.
    await eventually(() => reconciliationNotes(lostOrder, lostUuid).length === 1, 'the finding noted on the order');
    expect(reconciliationNotes(lostOrder, lostUuid)[0]?.note).toContain(
      'at Telcell is expired: Telcell has not told the gateway whether the buyer paid',
    );
    expect(reconciliationNotes(lostOrder, lostUuid)[0]?.note).toContain('gateway dashboard');
    await reconcile();
    expect(reconciliationNotes(lostOrder, lostUuid)).toHaveLength(1);

    // The merchant finds the paid invoice in Telcell's cabinet and enters it: Telcell confirms it,
    // the payment completes, and the next run marks the order paid and lists nothing else for it.
    const settled = await gw.call<Json>('POST', `/api/v1/payments/${lostUuid}/processor_reference`, {
      key: liveKey,
      body: { reference: lostInvoice },
    });
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body).toMatchObject({ status: 'completed', awaiting_processor_reference: false });
    const third = await reconcile();
    expect(ofOrder(third, lostOrder)).toEqual([
      expect.objectContaining({ kind: 'paid_at_gateway_unpaid_in_store', action: 'repaired', payment_uuid: lostUuid }),
    ]);
    expect(store.order(lostOrder)?.transaction_id).toBe(lostUuid);
    expect(ofOrder(await reconcile(), lostOrder)).toEqual([]);
  });

  it('notes the expiry of a payment Telcell never confirmed as possibly paid, and lists it behind the order’s newer payment', async () => {
    const orderId = placeOrder('4000.00');
    const checkout = () =>
      plugin<{ payment_uuid: string; checkout_url: string; status: string }>('POST', `/v1/orders/${orderId}/payment`, {
        return_url: `https://${host}/?wc-api=wc_armenian_gateway&order_id=${orderId}`,
        cancel_url: `https://${host}/cart/?cancel_order=true&order_id=${orderId}`,
      });
    const firstTry = await checkout();
    expect(firstTry.status, JSON.stringify(firstTry.body)).toBe(201);
    const firstUuid = firstTry.body.payment_uuid;
    // The buyer picks Telcell on the hosted page, pays there, and Telcell's notice is lost.
    const methods = await visit(firstTry.body.checkout_url);
    const chosen = await postForm(gw, new URL(`${firstTry.body.checkout_url}/method`).pathname, {
      form_token: formToken(methods.text),
      processor: 'telcell',
    });
    expect(chosen.status).toBe(303);
    await payWithNoticeLost(await openInvoice(firstTry.body.checkout_url, firstUuid));
    gw.clock.advance(21 * MINUTE_MS);
    await gw.gateway.scheduler.runDueNow();
    expect(await readPayment(firstUuid)).toMatchObject({ status: 'expired', awaiting_processor_reference: true });

    // The order's note on the expiry says the buyer may have paid, and what to do; never "expired unpaid".
    const readBack = await plugin('GET', `/v1/orders/${orderId}/payment`);
    expect(readBack.status, JSON.stringify(readBack.body)).toBe(200);
    const expiryNote = () => store.notes(orderId).find((n) => n.note.startsWith(`Gateway payment ${firstUuid}`));
    await eventually(() => expiryNote() !== undefined, 'the expiry note');
    expect(expiryNote()?.note).toContain(
      `Gateway payment ${firstUuid} expired without a confirmation from Telcell; the buyer may have paid.`,
    );
    expect(expiryNote()?.note).toContain('gateway dashboard');
    expect(expiryNote()?.note).not.toContain('expired unpaid');

    // The buyer tries again: the gateway now answers the new payment for the order, and the run
    // still finds the first one among the order's payments.
    const secondTry = await checkout();
    expect(secondTry.status, JSON.stringify(secondTry.body)).toBe(201);
    expect(secondTry.body.payment_uuid).not.toBe(firstUuid);
    const findings = ofOrder(await reconcile(), orderId);
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'awaiting_processor_reference',
        payment_uuid: firstUuid,
        detail: expect.stringContaining('at Telcell is expired'),
      }),
    ]);
  });
});
