/**
 * The Shopify API version the app calls with, held to Shopify's support window: each stable version is
 * released on the first day of its quarter and supported for 12 months (shopify.dev "About Shopify
 * API versioning"). The window is computed from the version's name; against today's date (the real
 * one: this is what stops a release going out with a version near its end) the default version must
 * have more than a quarter left, every supported version must still be supported, and the app's
 * TOML files and docs must name the default. The running connector warns in its log a quarter before
 * the end and logs an error after it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SHOPIFY_API_VERSION, loadConnectorConfig } from '../../../connector/config.js';
import { runDueWork } from '../../../connector/jobs/due-work.js';
import { openConnector } from '../../../connector/runtime/start.js';
import { DAY_MS, ManualClock } from '../../../gateway/domain/clock.js';
import { createLogger } from '../../../gateway/runtime/logger.js';
import {
  DEFAULT_API_VERSION,
  releasedAtMs,
  SUPPORTED_API_VERSIONS,
  supportEndsAtMs,
  versionNotice,
  versionSupport,
} from '../../../plugins/shopify/api-versions.js';
import { freshDatabase, type TestDatabase } from '../../support/databases.js';
import { API_KEY, API_SECRET } from './install-support.js';

const at = (iso: string) => Date.parse(iso);
const text = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe("Shopify's support window, from the version's name", () => {
  it('is the 12 months from the first day of the version’s quarter (17:00 UTC)', () => {
    expect(new Date(releasedAtMs('2026-07')).toISOString()).toBe('2026-07-01T17:00:00.000Z');
    expect(new Date(supportEndsAtMs('2025-10')).toISOString()).toBe('2026-10-01T17:00:00.000Z');
    expect(new Date(supportEndsAtMs('2026-07')).toISOString()).toBe('2027-07-01T17:00:00.000Z');
    expect(() => releasedAtMs('2026-05')).toThrow(RangeError);
    expect(() => releasedAtMs('unstable')).toThrow(RangeError);
  });

  it('is supported, then ending in its last quarter, then ended', () => {
    expect(versionSupport('2026-07', at('2026-06-30T00:00:00Z')).state).toBe('unreleased');
    expect(versionSupport('2026-07', at('2027-03-31T00:00:00Z')).state).toBe('supported');
    expect(versionSupport('2026-07', at('2027-04-01T00:00:00Z')).state).toBe('ending');
    expect(versionSupport('2026-07', at('2027-07-01T16:59:59Z')).state).toBe('ending');
    expect(versionSupport('2026-07', at('2027-07-01T17:00:00Z')).state).toBe('ended');
    // The version the app used before: past its support since 1 October 2026.
    expect(versionSupport('2025-10', at('2026-11-28T00:00:00Z')).state).toBe('ended');
  });

  it('says nothing while supported, warns in the last quarter, and is an error after the end', () => {
    expect(versionNotice('2026-07', at('2026-12-01T00:00:00Z'))).toBeNull();
    expect(versionNotice('2026-01', at('2026-11-28T00:00:00Z'))).toEqual({
      level: 'warn',
      message: 'Shopify API version 2026-01 is supported until 2027-01-01: set SHOPIFY_API_VERSION=2026-07',
      support_ends_at: '2027-01-01T17:00:00.000Z',
      move_to: '2026-07',
    });
    expect(versionNotice('2026-07', at('2027-08-01T00:00:00Z'))).toMatchObject({
      level: 'error',
      support_ends_at: '2027-07-01T17:00:00.000Z',
      message: expect.stringContaining('no longer supported since 2027-07-01'),
    });
  });
});

describe('the version the app ships with, today', () => {
  // The real date on purpose: a release must not go out with a version in its last quarter.
  const today = Date.now();

  it('has more than a quarter of support left: move DEFAULT_API_VERSION otherwise', () => {
    const support = versionSupport(DEFAULT_API_VERSION, today);
    expect(
      support.state,
      `Shopify supports ${DEFAULT_API_VERSION} until ${new Date(support.endsAtMs).toISOString().slice(0, 10)}: ` +
        'add the newest stable version to SUPPORTED_API_VERSIONS (with its schema) and make it the default',
    ).toBe('supported');
    expect(DEFAULT_SHOPIFY_API_VERSION).toBe(DEFAULT_API_VERSION);
    expect(loadConnectorConfig({ SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET }).shopify?.apiVersion).toBe(
      DEFAULT_API_VERSION,
    );
  });

  it('supports no version past its support end, and the default is the newest supported', () => {
    for (const version of SUPPORTED_API_VERSIONS) {
      expect(versionSupport(version, today).state, `${version}: remove it from SUPPORTED_API_VERSIONS`).not.toBe(
        'ended',
      );
    }
    expect(SUPPORTED_API_VERSIONS.at(-1)).toBe(DEFAULT_API_VERSION);
    expect([...SUPPORTED_API_VERSIONS].sort()).toEqual([...SUPPORTED_API_VERSIONS]);
  });

  it("is the one in the app's TOML files and in docs/shopify.md", () => {
    const versionsIn = (source: string) => [...source.matchAll(/api_version\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(versionsIn(text('plugins/shopify/shopify.app.toml'))).toEqual([DEFAULT_API_VERSION]);
    expect(versionsIn(text('plugins/shopify/extensions/connector-pay/shopify.extension.toml'))).toEqual([
      DEFAULT_API_VERSION,
    ]);
    const docs = text('docs/shopify.md');
    expect(versionsIn(docs).length).toBeGreaterThan(0);
    expect(new Set(versionsIn(docs))).toEqual(new Set([DEFAULT_API_VERSION]));
    expect(docs).toContain(`| \`SHOPIFY_API_VERSION\` | \`${DEFAULT_API_VERSION}\` |`);
  });
});

describe('the connector tells its operator', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('warns at start and once a day in its last quarter, and logs an error once it has ended', async () => {
    const config = loadConnectorConfig({
      CONNECTOR_DATABASE_URL: database.url,
      GATEWAY_SECRET: 'connector-version-test-secret-0123456789',
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
      SHOPIFY_API_VERSION: '2026-07',
    });
    const clock = new ManualClock(at('2027-04-15T09:00:00Z'));
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    const error = vi.spyOn(logger, 'error');
    const connector = await openConnector({ config, clock, logger });
    try {
      const notices = () => warn.mock.calls.filter(([, message]) => String(message).includes('Shopify API version'));
      expect(notices()).toEqual([
        [
          expect.objectContaining({ api_version: '2026-07', support_ends_at: '2027-07-01T17:00:00.000Z' }),
          expect.stringContaining('2026-07 is supported until 2027-07-01'),
        ],
      ]);
      await runDueWork(connector.deps);
      clock.advance(DAY_MS / 4);
      await runDueWork(connector.deps);
      expect(notices()).toHaveLength(1);
      clock.advance(DAY_MS);
      await runDueWork(connector.deps);
      expect(notices()).toHaveLength(2);

      clock.advance(at('2027-07-02T00:00:00Z') - clock.nowMs());
      await runDueWork(connector.deps);
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ api_version: '2026-07' }),
        expect.stringContaining('2026-07 is no longer supported since 2027-07-01'),
      );
    } finally {
      await connector.close();
    }
  });

  it('says nothing about a version with more than a quarter left', async () => {
    const config = loadConnectorConfig({
      CONNECTOR_DATABASE_URL: database.url,
      GATEWAY_SECRET: 'connector-version-test-secret-0123456789',
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
    });
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    const connector = await openConnector({ config, clock: new ManualClock(at('2026-11-28T09:00:00Z')), logger });
    try {
      await runDueWork(connector.deps);
      expect(warn.mock.calls.filter(([, message]) => String(message).includes('Shopify API version'))).toEqual([]);
    } finally {
      await connector.close();
    }
  });
});
