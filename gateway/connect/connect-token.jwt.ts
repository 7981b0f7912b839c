/**
 * The signed form of a connect token: a compact JWS (HS256) whose key is derived from the service
 * secret for this one purpose, so a token can never be confused with anything else the secret
 * signs. Reading answers a result, never throws: the caller decides what a refusal costs.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import {
  CONNECT_TOKEN_AUDIENCE,
  type ConnectTokenClaims,
  isConnectPlatform,
  MAX_CONNECT_TOKEN_LENGTH,
} from '../domain/connect-tokens.js';
import { isUuid } from '../domain/ids.js';

const KEY_LABEL = 'connect-token:v1';
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** HMAC-SHA256(service secret, "connect-token:v1"): the HS256 key of every connect token. */
export function connectTokenKey(secret: string): Uint8Array {
  return createHmac('sha256', secret).update(KEY_LABEL, 'utf8').digest();
}

export async function signConnectToken(secret: string, claims: ConnectTokenClaims): Promise<string> {
  return new SignJWT({ dom: claims.dom, plt: claims.plt, env: claims.env })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(claims.jti)
    .setSubject(claims.sub)
    .setAudience(claims.aud)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(connectTokenKey(secret));
}

export type TokenReading =
  | { readonly ok: true; readonly claims: ConnectTokenClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'signature' | 'expired' };

/**
 * Tokens whose signature and claims were verified, by token text, with the key that verified them:
 * a connector calls with the same token on every request, and verifying its HMAC through WebCrypto
 * again costs more than the rest of the check. Only the expiry depends on the time, and it is
 * checked on every reading. The oldest entry leaves first past the bound.
 */
const VERIFIED_CACHE_SIZE = 1_000;
const verified = new Map<string, { readonly key: string; readonly claims: ConnectTokenClaims }>();

/** Checks the signature, the algorithm, the audience and the expiry at `nowMs`, then the claims' types. */
export async function readConnectToken(secret: string, token: string, nowMs: number): Promise<TokenReading> {
  if (token.length > MAX_CONNECT_TOKEN_LENGTH || !COMPACT_JWS.test(token)) return { ok: false, reason: 'malformed' };
  const key = connectTokenKey(secret);
  const keyText = Buffer.from(key).toString('base64');
  const known = verified.get(token);
  if (known !== undefined && known.key === keyText) {
    // As jose decides it: expired once `exp` is not after the current second.
    if (known.claims.exp <= Math.floor(nowMs / 1000)) return { ok: false, reason: 'expired' };
    return { ok: true, claims: known.claims };
  }
  const reading = await verifyConnectToken(key, token, nowMs);
  if (reading.ok) {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { key: keyText, claims: reading.claims });
  }
  return reading;
}

async function verifyConnectToken(key: Uint8Array, token: string, nowMs: number): Promise<TokenReading> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: CONNECT_TOKEN_AUDIENCE,
      currentDate: new Date(nowMs),
      requiredClaims: ['jti', 'sub', 'iat', 'exp'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'signature' };
    return { ok: false, reason: 'malformed' };
  }
  const { jti, sub, aud, dom, plt, env, iat, exp, nbf } = payload;
  if (
    nbf !== undefined ||
    typeof jti !== 'string' ||
    !isUuid(jti) ||
    typeof sub !== 'string' ||
    aud !== CONNECT_TOKEN_AUDIENCE ||
    typeof dom !== 'string' ||
    !isConnectPlatform(plt) ||
    (env !== 'test' && env !== 'live') ||
    typeof iat !== 'number' ||
    typeof exp !== 'number'
  ) {
    return { ok: false, reason: 'malformed' };
  }
  return { ok: true, claims: { jti, sub, aud, dom, plt, env, iat, exp } };
}
