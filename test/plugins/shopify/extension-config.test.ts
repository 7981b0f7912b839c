/**
 * The payments extension's configuration (plugins/shopify/extensions/connector-pay/shopify.extension.toml)
 * against what the app serves and what Shopify CLI's offsite payments extension schema requires: each
 * session URL names one of the app's session routes (captures and voids included, for
 * authorizations), one capture per authorization, and `supports_deferred_payments` equal to
 * `supports_installments`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const TOML = readFileSync(
  new URL('../../../plugins/shopify/extensions/connector-pay/shopify.extension.toml', import.meta.url),
  'utf8',
);

/** `key = value` lines of the file (comments left out), values as written. */
function settings(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*([a-z_]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) found.set(match[1], match[2]);
  }
  return found;
}

describe('the payments extension configuration', () => {
  const values = settings(TOML);

  it("names the app's four session routes, captures and voids included", () => {
    const path = (key: string) => new URL(JSON.parse(values.get(key) ?? '""') as string).pathname;
    expect(path('payment_session_url')).toBe('/shopify/payments/sessions');
    expect(path('refund_session_url')).toBe('/shopify/payments/refunds');
    expect(path('capture_session_url')).toBe('/shopify/payments/captures');
    expect(path('void_session_url')).toBe('/shopify/payments/voids');
  });

  it('captures an authorization once, and keeps deferred payments equal to installments (both off)', () => {
    expect(values.get('multiple_capture')).toBe('false');
    expect(values.get('supports_deferred_payments')).toBe(values.get('supports_installments'));
    expect(values.get('supports_deferred_payments')).toBe('false');
  });
});
