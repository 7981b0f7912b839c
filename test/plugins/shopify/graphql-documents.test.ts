/**
 * Every GraphQL document the Shopify app sends, validated with graphql-js against the schema Shopify
 * publishes for each API version the app supports (`@shopify/dev-mcp`'s `dist/data`, fetched by
 * scripts/shopify-schemas.ts): the Admin API documents of the manual bridge and the Payments Apps
 * API documents of the payments app. The documents come from the code's exports; the source of
 * plugins/shopify/ is searched for named operations too, so a document that is not exported (and so
 * not validated here) fails this test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_DOCUMENTS, adminDocumentsServedAt } from '../../../plugins/shopify/admin-documents.js';
import { SUPPORTED_API_VERSIONS } from '../../../plugins/shopify/api-versions.js';
import { MUTATIONS } from '../../../plugins/shopify/payments-app/wire.js';
import { documentErrors, shopifySchema } from '../../support/shopify-schemas.js';

const PLUGIN_DIR = new URL('../../../plugins/shopify/', import.meta.url);
const NAMED_OPERATION = /\b(query|mutation)\s+([A-Z][A-Za-z0-9_]*)\s*[({]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function operationName(document: string): string {
  const name = /^\s*(?:query|mutation)\s+([A-Za-z0-9_]+)/.exec(document)?.[1];
  if (name === undefined) throw new Error(`not a named operation: ${document.slice(0, 60)}`);
  return name;
}

describe('GraphQL documents of the Shopify app', () => {
  it('validates every Payments Apps document against the Payments Apps schema of each supported version', async () => {
    expect(Object.keys(MUTATIONS).length).toBeGreaterThan(0);
    for (const version of SUPPORTED_API_VERSIONS) {
      const schema = await shopifySchema('payments-apps', version);
      for (const [name, mutation] of Object.entries(MUTATIONS)) {
        expect(documentErrors(schema, mutation.query), `${name} on payments-apps ${version}`).toEqual([]);
      }
    }
  });

  it('validates every Admin document the app sends at each supported version against that Admin schema', async () => {
    for (const version of SUPPORTED_API_VERSIONS) {
      const schema = await shopifySchema('admin', version);
      const sent = adminDocumentsServedAt(version);
      expect(Object.keys(sent).length).toBeGreaterThan(0);
      for (const [name, document] of Object.entries(sent)) {
        expect(documentErrors(schema, document), `${name} on admin ${version}`).toEqual([]);
      }
    }
  });

  it('sends refundCreate without @idempotent only where Shopify has no such directive (before 2026-01)', async () => {
    const old = await shopifySchema('admin', '2025-10');
    expect(documentErrors(old, ADMIN_DOCUMENTS.RecordGatewayRefund)).toEqual([]);
    expect(documentErrors(old, ADMIN_DOCUMENTS.RecordGatewayRefundIdempotent)).toEqual([
      'Unknown directive "@idempotent".',
    ]);
    expect(Object.values(adminDocumentsServedAt('2025-10'))).toContain(ADMIN_DOCUMENTS.RecordGatewayRefund);
    for (const version of SUPPORTED_API_VERSIONS) {
      expect(Object.values(adminDocumentsServedAt(version))).toContain(ADMIN_DOCUMENTS.RecordGatewayRefundIdempotent);
      expect(Object.values(adminDocumentsServedAt(version))).not.toContain(ADMIN_DOCUMENTS.RecordGatewayRefund);
    }
  });

  it('finds no named operation in plugins/shopify/ that is not one of the exported (validated) documents', () => {
    const exported = new Set([
      ...Object.values(ADMIN_DOCUMENTS).map(operationName),
      ...Object.values(MUTATIONS).map((mutation) => operationName(mutation.query)),
    ]);
    const found = new Map<string, string>();
    for (const file of sourceFiles(PLUGIN_DIR.pathname)) {
      for (const match of readFileSync(file, 'utf8').matchAll(NAMED_OPERATION)) {
        found.set(match[2] ?? '', file);
      }
    }
    expect(found.size).toBeGreaterThanOrEqual(exported.size);
    const unexported = [...found].filter(([name]) => !exported.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(unexported).toEqual([]);
  });

  it('the check itself refuses a selection Shopify refuses: one `reason` on both state types', async () => {
    const schema = await shopifySchema('payments-apps', SUPPORTED_API_VERSIONS[0]);
    const conflicting = `mutation R($id: ID!) { paymentSessionResolve(id: $id) { paymentSession { state {
      ... on PaymentSessionStateRejected { reason } ... on PaymentSessionStatePending { reason } } } } }`;
    expect(documentErrors(schema, conflicting)).toEqual([
      expect.stringContaining('Fields "reason" conflict because they return conflicting types'),
    ]);
  });
});
