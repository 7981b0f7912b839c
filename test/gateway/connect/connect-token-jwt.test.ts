/**
 * Reading a connect token's signed form: signature, audience and expiry, also for a token read
 * before (verified tokens are remembered by their text, so a reading must still depend on the time
 * and on the secret that signs).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConnectToken, signConnectToken } from '../../../gateway/connect/connect-token.jwt.js';
import { CONNECT_TOKEN_AUDIENCE, type ConnectTokenClaims } from '../../../gateway/domain/connect-tokens.js';

const SECRET = 'a-service-secret-of-enough-length-0001';
const NOW_S = 1_900_000_000;

function claims(overrides: Partial<ConnectTokenClaims> = {}): ConnectTokenClaims {
  return {
    jti: randomUUID(),
    sub: randomUUID(),
    aud: CONNECT_TOKEN_AUDIENCE,
    dom: 'shop.example.am',
    plt: 'woocommerce',
    env: 'test',
    iat: NOW_S,
    exp: NOW_S + 3600,
    ...overrides,
  };
}

describe('connect token readings', () => {
  it('answers the claims of a good token, the same when read again', async () => {
    const signed = claims();
    const token = await signConnectToken(SECRET, signed);
    const first = await readConnectToken(SECRET, token, NOW_S * 1000);
    const again = await readConnectToken(SECRET, token, NOW_S * 1000 + 5_000);
    expect(first).toEqual({ ok: true, claims: signed });
    expect(again).toEqual(first);
  });

  it('expires a token read before once its expiry second has come', async () => {
    const signed = claims({ exp: NOW_S + 60 });
    const token = await signConnectToken(SECRET, signed);
    expect((await readConnectToken(SECRET, token, NOW_S * 1000)).ok).toBe(true);
    expect(await readConnectToken(SECRET, token, (NOW_S + 59) * 1000 + 999)).toMatchObject({ ok: true });
    expect(await readConnectToken(SECRET, token, (NOW_S + 60) * 1000)).toEqual({ ok: false, reason: 'expired' });
    // A fresh reading of the same text (no memory of it) says the same.
    const twin = await signConnectToken(SECRET, { ...signed, jti: randomUUID() });
    expect(await readConnectToken(SECRET, twin, (NOW_S + 60) * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token read before under another secret', async () => {
    const token = await signConnectToken(SECRET, claims());
    expect((await readConnectToken(SECRET, token, NOW_S * 1000)).ok).toBe(true);
    expect(await readConnectToken(`${SECRET}-rotated`, token, NOW_S * 1000)).toEqual({
      ok: false,
      reason: 'signature',
    });
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const token = await signConnectToken(SECRET, claims());
    expect((await readConnectToken(SECRET, token, NOW_S * 1000)).ok).toBe(true);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    changed.env = 'live';
    const forged = [header, Buffer.from(JSON.stringify(changed)).toString('base64url'), signature].join('.');
    expect(await readConnectToken(SECRET, forged, NOW_S * 1000)).toEqual({ ok: false, reason: 'signature' });
  });
});
