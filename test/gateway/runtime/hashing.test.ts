/**
 * The SHA-256 every authenticated request takes of its key (gateway/runtime/hashing.ts): Node's
 * one-shot hash where it exists, the same digest as the streaming hash for any text.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../gateway/runtime/hashing.js';

describe('sha256Hex', () => {
  it('answers the standard digest of "abc" and of the empty text', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the UTF-8 bytes of any text, as the streaming hash does', () => {
    for (const text of ['sk_test_0123456789abcdefghijABCDEFGHIJ0123456', 'Երևան', 'Москва 🚀', 'a'.repeat(10_000)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    }
  });
});
