import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from '../../../gateway/dashboard/passwords.js';

describe('dashboard passwords', () => {
  it('hashes with scrypt, a salt of its own each time, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$16\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
  });

  it('answers false for an unknown user (decoy hash) and for a damaged hash', async () => {
    expect(await verifyPassword('anything at all', undefined)).toBe(false);
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash.replace('scrypt$16', 'scrypt$30'))).toBe(false);
    expect(await verifyPassword('correct horse battery', hash.slice(0, -2))).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain text')).toBe(false);
  });

  it('asks for 10 to 200 characters that are not the email', () => {
    expect(passwordProblem('123456789', 'a@b.am')).toBe('too_short');
    expect(passwordProblem('1234567890', 'a@b.am')).toBeNull();
    expect(passwordProblem('x'.repeat(201), 'a@b.am')).toBe('too_long');
    expect(passwordProblem(' Owner@Shop.am ', 'owner@shop.am')).toBe('is_email');
    // Characters, not bytes: ten Armenian letters are enough.
    expect(passwordProblem('աբգդեզէըթժ', 'a@b.am')).toBeNull();
  });
});
