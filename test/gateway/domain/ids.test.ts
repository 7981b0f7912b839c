import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUuid, UuidV7Sequence } from '../../../gateway/domain/ids.js';

const MS = Date.UTC(2026, 10, 21, 10, 0, 0);

describe('UuidV7Sequence', () => {
  it('makes RFC 9562 version 7 ids carrying the millisecond', () => {
    const id = new UuidV7Sequence().next(MS, randomBytes(10));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(MS);
  });

  it('sorts in the order ids were made within one millisecond', () => {
    const sequence = new UuidV7Sequence();
    const ids = Array.from({ length: 5000 }, () => sequence.next(MS, randomBytes(10)));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps sorting when the clock moves back', () => {
    const sequence = new UuidV7Sequence();
    const later = sequence.next(MS + 10, randomBytes(10));
    const afterStep = sequence.next(MS, randomBytes(10));
    expect(afterStep > later).toBe(true);
  });

  it('starts each millisecond at a random point and moves on after the new millisecond', () => {
    const sequence = new UuidV7Sequence();
    const first = sequence.next(MS, Uint8Array.from([0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0]));
    const next = sequence.next(MS + 1, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    // The counter starts in its lower half, leaving room to count up within the millisecond.
    expect(first.slice(14, 18)).toBe('77ff');
    expect(next.slice(14, 18)).toBe('7000');
    expect(next > first).toBe(true);
  });
});
