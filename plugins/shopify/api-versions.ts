/**
 * The Shopify API versions the app supports, and Shopify's support window of each (pure: no I/O, the
 * time is given).
 *
 * Shopify releases a stable version on the first day of each quarter (`2026-07` on 1 July 2026, at
 * 17:00 UTC) and supports it for at least 12 months; a request to a version past its support is
 * served by the oldest supported version instead ("falls forward"), with that version in the
 * answer's `X-Shopify-API-Version` header (shopify.dev, "About Shopify API versioning",
 * https://shopify.dev/docs/api/usage/versioning). So `2025-10` was supported until 1 October 2026.
 *
 * {@link SUPPORTED_API_VERSIONS} are the versions every GraphQL document of the app is validated
 * against, with Shopify's published schema of each, in the tests
 * (test/plugins/shopify/graphql-documents.test.ts); `SHOPIFY_API_VERSION` must be one of them, and a
 * payment session's `Shopify-Api-Version` is honoured only when it is one of them. A version is added
 * here once its schema is published as stable (and `@shopify/shopify-api` knows it), and removed when
 * its support ends: test/plugins/shopify/api-versions.test.ts fails otherwise.
 */
import { DAY_MS } from '../../gateway/domain/clock.js';

export const SUPPORTED_API_VERSIONS = ['2026-01', '2026-04', '2026-07'] as const;
export type SupportedApiVersion = (typeof SUPPORTED_API_VERSIONS)[number];

/** The version the connector uses unless `SHOPIFY_API_VERSION` names another supported one. */
export const DEFAULT_API_VERSION: SupportedApiVersion = '2026-07';

/** How long before its support ends a version in use is warned about (a quarter). */
export const WARN_BEFORE_END_MS = 92 * DAY_MS;

export function isSupportedApiVersion(version: string): version is SupportedApiVersion {
  return (SUPPORTED_API_VERSIONS as readonly string[]).includes(version);
}

const STABLE = /^(\d{4})-(01|04|07|10)$/;

/** When a stable version was released: the first day of its month, 17:00 UTC. */
export function releasedAtMs(version: string): number {
  const match = STABLE.exec(version);
  if (match === null) throw new RangeError(`"${version}" is not a stable Shopify API version (YYYY-01|04|07|10)`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, 1, 17);
}

/** When Shopify's support of a stable version ends: 12 months after its release. */
export function supportEndsAtMs(version: string): number {
  const released = new Date(releasedAtMs(version));
  return Date.UTC(released.getUTCFullYear() + 1, released.getUTCMonth(), 1, 17);
}

export type VersionSupport =
  /** Released and more than a quarter of support left. */
  | { state: 'supported'; endsAtMs: number }
  /** Less than a quarter left: move to a newer version now. */
  | { state: 'ending'; endsAtMs: number }
  /** Past its support: Shopify serves another version in its place. */
  | { state: 'ended'; endsAtMs: number }
  /** Not released yet (a release candidate). */
  | { state: 'unreleased'; endsAtMs: number };

export function versionSupport(version: string, nowMs: number): VersionSupport {
  const endsAtMs = supportEndsAtMs(version);
  if (nowMs < releasedAtMs(version)) return { state: 'unreleased', endsAtMs };
  if (nowMs >= endsAtMs) return { state: 'ended', endsAtMs };
  if (endsAtMs - nowMs <= WARN_BEFORE_END_MS) return { state: 'ending', endsAtMs };
  return { state: 'supported', endsAtMs };
}

/** The newest of the supported versions released by `nowMs`. */
export function newestReleased(nowMs: number): SupportedApiVersion | undefined {
  return [...SUPPORTED_API_VERSIONS].reverse().find((version) => releasedAtMs(version) <= nowMs);
}

export interface VersionNotice {
  level: 'warn' | 'error';
  message: string;
  /** When the version's support ends (ISO 8601). */
  support_ends_at: string;
  /** The newest supported version to move to. */
  move_to: string | undefined;
}

/**
 * What the operator is told about the version the app calls Shopify with: a warning from a quarter
 * before its support ends, an error after (Shopify then serves the oldest supported version in its
 * place); nothing while more than a quarter is left.
 */
export function versionNotice(version: string, nowMs: number): VersionNotice | null {
  const support = versionSupport(version, nowMs);
  if (support.state === 'supported' || support.state === 'unreleased') return null;
  const endsAt = new Date(support.endsAtMs).toISOString();
  const newest = newestReleased(nowMs);
  const moveTo = newest !== undefined && newest !== version ? newest : undefined;
  const advice =
    moveTo === undefined
      ? 'a newer version must be added to the app (plugins/shopify/api-versions.ts)'
      : `set SHOPIFY_API_VERSION=${moveTo}`;
  return support.state === 'ending'
    ? {
        level: 'warn',
        message: `Shopify API version ${version} is supported until ${endsAt.slice(0, 10)}: ${advice}`,
        support_ends_at: endsAt,
        move_to: moveTo,
      }
    : {
        level: 'error',
        message: `Shopify API version ${version} is no longer supported since ${endsAt.slice(0, 10)} (Shopify serves a newer version in its place): ${advice}`,
        support_ends_at: endsAt,
        move_to: moveTo,
      };
}
