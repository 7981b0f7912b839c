/**
 * Secrets at rest (gateway webhook secrets, connector tokens and credentials): AES-256-GCM under a
 * key each service derives from its service secret, bound to the row and column they belong to.
 */
import { describe, expect, it } from 'vitest';
import { createSealer, isSealed } from '../../../gateway/runtime/sealing.js';

const SECRET = 'a-long-enough-test-secret-0123456789';

describe('sealing', () => {
  const sealer = createSealer(SECRET, 'connector');

  it('opens what it sealed, and never shows the plaintext', () => {
    const sealed = sealer.seal('cs_consumer_secret_value', 'store_connections:1:credentials');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed('whsec_abc')).toBe(false);
    expect(sealed).not.toContain('consumer_secret');
    expect(sealer.open(sealed, 'store_connections:1:credentials')).toBe('cs_consumer_secret_value');
  });

  it('still opens values the connector sealed before the module was shared (same key derivation)', () => {
    // Sealed by the connector's earlier module with this secret and a fixed IV.
    const earlier = 'v1.BwcHBwcHBwcHBwcH.lCNxhkO_5aKh3rwlPhct72I2-CaKNA.YBnIQ2qlZL7fhQ0_nku8vw';
    expect(sealer.open(earlier, 'store_connections:1:token')).toBe('sealed-before-the-move');
  });

  it('derives another key for each service', () => {
    const sealed = createSealer(SECRET, 'gateway').seal('whsec_x', 'domains:1:webhook_secret');
    expect(() => sealer.open(sealed, 'domains:1:webhook_secret')).toThrow();
  });

  it('seals the same value differently each time', () => {
    expect(sealer.seal('same', 'ctx')).not.toBe(sealer.seal('same', 'ctx'));
  });

  it('refuses a value moved to another row or column', () => {
    const sealed = sealer.seal('token', 'store_connections:1:token');
    expect(() => sealer.open(sealed, 'store_connections:2:token')).toThrow();
    expect(() => sealer.open(sealed, 'store_connections:1:credentials')).toThrow();
  });

  it('refuses a tampered value, another key, and anything that is not a sealed value', () => {
    const sealed = sealer.seal('token', 'ctx');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[2] as string, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    parts[2] = flipped.toString('base64url');
    expect(() => sealer.open(parts.join('.'), 'ctx')).toThrow();
    expect(() => createSealer(`${SECRET}-other`, 'connector').open(sealed, 'ctx')).toThrow();
    expect(() => sealer.open('plain text', 'ctx')).toThrow('not a sealed value');
    expect(() => createSealer('short', 'connector')).toThrow('at least 16');
  });
});
