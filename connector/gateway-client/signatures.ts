/**
 * Reading the signatures a webhook carries and comparing them: header values from any kind of
 * headers object, the secrets as HMAC keys, and a constant-time comparison of every candidate with
 * every secret.
 */
import { timingSafeEqual } from 'node:crypto';
import { isUint8Array } from 'node:util/types';

/** The header whose signature matched. */
export type SignatureHeader = 'x-service-signature' | 'x-service-signature-next' | 'webhook-signature';

/** A Node `IncomingMessage.headers`, a Koa/Express `req.headers`, a plain object, or a fetch `Headers`. */
export type WebhookHeaders =
  | Pick<Headers, 'get'>
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface Candidate {
  header: SignatureHeader;
  bytes: Buffer;
}

export interface KeyedSecret {
  index: number;
  key: Uint8Array;
}

/** The non-empty secrets with their index in the caller's list, as HMAC keys. */
export function usableSecrets(secrets: unknown, toKey: (secret: string) => Uint8Array | null): KeyedSecret[] {
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  const usable: KeyedSecret[] = [];
  list.forEach((secret, index) => {
    if (typeof secret !== 'string' || secret === '') return;
    const key = toKey(secret);
    if (key !== null && key.length > 0) usable.push({ index, key });
  });
  return usable;
}

/** Standard Webhooks: the key is the base64 after `whsec_` (the prefix is optional there). */
export function standardKey(secret: string): Uint8Array | null {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  return BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : null;
}

export function rawBytes(rawBody: unknown): Uint8Array | null {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (isUint8Array(rawBody)) return rawBody;
  return null;
}

/** Every value of a header, case-insensitively, from a plain object or a `Headers`. */
export function headerValues(headers: WebhookHeaders, name: string): string[] {
  if (typeof headers.get === 'function') {
    const value = (headers as Pick<Headers, 'get'>).get(name);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') values.push(item);
  }
  return values;
}

export function splitTokens(values: readonly string[], separator: string): string[] {
  return values
    .flatMap((value) => value.split(separator === ' ' ? /\s+/ : separator))
    .flatMap((token) => {
      const trimmed = token.trim();
      return trimmed === '' ? [] : [trimmed];
    });
}

/**
 * Compares every candidate with the HMAC under every secret in constant time and does not stop at a
 * match, so the time taken does not tell which pair matched or how far a guess got.
 */
export function findMatch(
  secrets: readonly KeyedSecret[],
  candidates: readonly Candidate[],
  sign: (key: Uint8Array) => Buffer,
): { index: number; header: SignatureHeader } | null {
  let match: { index: number; header: SignatureHeader } | null = null;
  for (const secret of secrets) {
    const expected = sign(secret.key);
    for (const candidate of candidates) {
      // Both are 32 bytes: candidates were length-checked when parsed.
      const equal = candidate.bytes.length === expected.length && timingSafeEqual(expected, candidate.bytes);
      if (equal && match === null) match = { index: secret.index, header: candidate.header };
    }
  }
  return match;
}
