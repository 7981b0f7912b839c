/**
 * Who may call the payments app's session routes without the in-process mTLS listener: with
 * `SHOPIFY_PAYMENTS_TRUST_PROXY=1` (a proxy checked Shopify's client certificate) only loopback and
 * private addresses; with neither option, nobody (401 `client_certificate_required`).
 *
 * The address rule is tested on the predicate with sockets of chosen addresses (a test cannot make
 * a request arrive from a public address), and over real HTTP from 127.0.0.1 on a connector in each
 * mode.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isPrivateAddress,
  isShopifyCaller,
  type PaymentsAppTransport,
  paymentsAppTransport,
} from '../../../plugins/shopify/payments-app/mtls.js';
import { DIALECTS } from '../../support/databases.js';
import { type BridgeHarness, startBridgeHarness } from './bridge-support.js';
import { fixture } from './payments-support.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = Record<string, any>;

/** A request as Node hands it to the app, from `remoteAddress` over a plain socket. */
const from = (remoteAddress: string | undefined) => ({ socket: { remoteAddress } }) as unknown as IncomingMessage;

const PRIVATE = [
  '127.0.0.1',
  '127.5.6.7',
  '::1',
  '::ffff:127.0.0.1',
  '10.0.0.1',
  '10.255.255.254',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.20',
  '::ffff:192.168.1.20',
  'fd12:3456:789a::1',
  'fc00::1',
];
const PUBLIC = [
  '203.0.113.5',
  '8.8.8.8',
  '172.15.255.254',
  '172.32.0.1',
  '192.169.0.1',
  '11.0.0.1',
  '::ffff:203.0.113.5',
  '2001:db8::1',
  '2606:4700:4700::1111',
  'fe80::1',
  '',
  'not-an-address',
];

describe('payments app transport: the trusted-proxy address rule', () => {
  it('reads SHOPIFY_PAYMENTS_TRUST_PROXY, and mTLS wins over it', () => {
    expect(paymentsAppTransport({ SHOPIFY_PAYMENTS_TRUST_PROXY: '1' })).toEqual({ mode: 'proxy' });
    expect(paymentsAppTransport({ SHOPIFY_PAYMENTS_TRUST_PROXY: 'true' })).toEqual({ mode: 'proxy' });
    expect(paymentsAppTransport({ SHOPIFY_PAYMENTS_TRUST_PROXY: '0' })).toEqual({ mode: 'off' });
    expect(paymentsAppTransport({})).toEqual({ mode: 'off' });
    expect(() => paymentsAppTransport({ SHOPIFY_PAYMENTS_MTLS_CA: '-----BEGIN CERTIFICATE-----' })).toThrow(
      /SHOPIFY_PAYMENTS_MTLS_CERT/,
    );
  });

  it('trusts loopback and private addresses only, behind a proxy', () => {
    const proxy: PaymentsAppTransport = { mode: 'proxy' };
    for (const address of PRIVATE) {
      expect(isPrivateAddress(address), address).toBe(true);
      expect(isShopifyCaller(from(address), proxy), address).toBe(true);
    }
    for (const address of PUBLIC) {
      expect(isPrivateAddress(address), address).toBe(false);
      expect(isShopifyCaller(from(address), proxy), address).toBe(false);
    }
    expect(isShopifyCaller(from(undefined), proxy)).toBe(false);
  });

  it('trusts no address without the option, and no plain socket in mTLS mode', () => {
    const off: PaymentsAppTransport = { mode: 'off' };
    const mtls: PaymentsAppTransport = { mode: 'mtls', ca: '', cert: '', key: '', port: 8443 };
    for (const address of ['127.0.0.1', '::1', '10.0.0.1']) {
      expect(isShopifyCaller(from(address), off), address).toBe(false);
      expect(isShopifyCaller(from(address), mtls), address).toBe(false);
    }
  });
});

describe.each(DIALECTS)('payments app transport over HTTP from 127.0.0.1 (%s)', (dialect) => {
  const SHOP = 'proxy-shop.myshopify.com';
  let proxied: BridgeHarness;
  let unprotected: BridgeHarness;

  /** Connects the shop to the payments app way through the app's page (a test connect token). */
  async function connect(b: BridgeHarness) {
    const saved = await b.api('PUT', '/settings', {
      connect_token: b.shopifyToken,
      way: 'payments_app',
      test_mode: true,
    });
    expect(saved.status, saved.text).toBe(200);
  }
  /** Shopify's session POST, as a proxy forwards it to the connector's plain listener. */
  const post = (b: BridgeHarness, path: string) => {
    const id = `ps${randomUUID().replaceAll('-', '')}`;
    return b.h.connector.call<Json>('POST', `/shopify/payments/${path}`, {
      headers: {
        'Shopify-Shop-Domain': SHOP,
        'Shopify-Request-Id': randomUUID(),
        'Shopify-Api-Version': '2026-07',
      },
      body: {
        ...fixture('payment-session'),
        id,
        gid: `gid://shopify/PaymentSession/${id}`,
        group: `grp${id}=`,
        amount: '1500.00',
        currency: 'AMD',
        test: true,
      },
    });
  };

  beforeAll(async () => {
    proxied = await startBridgeHarness(dialect, SHOP, { SHOPIFY_PAYMENTS_TRUST_PROXY: '1' });
    unprotected = await startBridgeHarness(dialect, SHOP);
    await connect(proxied);
    await connect(unprotected);
  }, 90_000);
  afterAll(async () => {
    await proxied?.close();
    await unprotected?.close();
  });

  it('with SHOPIFY_PAYMENTS_TRUST_PROXY=1, accepts a session call from loopback', async () => {
    const answer = await post(proxied, 'sessions');
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['redirect_url']);
    expect(answer.body.redirect_url).toMatch(/\/checkout\//);
    // The other session routes let the caller in too (and answer for themselves: a payment
    // session's body is not a capture session's).
    const capture = await post(proxied, 'captures');
    expect(capture.status, capture.text).toBe(400);
    expect(capture.body.error).toBe('invalid_request');
    expect(Object.keys(capture.body.errors)).toContain('gid');
  });

  it('without the option and without mTLS, refuses every session route with 401 client_certificate_required', async () => {
    for (const path of ['sessions', 'refunds', 'captures', 'voids']) {
      const answer = await post(unprotected, path);
      expect(answer.status, path).toBe(401);
      expect(Object.keys(answer.body).sort()).toEqual(['error', 'message', 'request_id']);
      expect(answer.body.error).toBe('client_certificate_required');
    }
    const made = await unprotected.h.connector
      .current()
      .deps.db.selectFrom('shopify_payment_sessions')
      .select('id')
      .execute();
    expect(made).toEqual([]);
  });
});
