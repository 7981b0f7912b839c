import { describe, expect, it } from 'vitest';
import { AccountCache } from '../../../gateway/merchants/account-cache.js';
import type { KeyWithMerchant } from '../../../storage/api-key.repository.js';

const key = { id: 'k1', merchant_id: 'm1' } as KeyWithMerchant;

describe('AccountCache', () => {
  it('keeps an entry for its lifetime, then forgets it', () => {
    let now = 1_000;
    const cache = new AccountCache(() => now, 5_000);
    cache.keys.set('hash', key);
    now += 4_999;
    expect(cache.keys.get('hash')).toBe(key);
    now += 1;
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('forgets keys and domains at once when cleared', () => {
    const cache = new AccountCache(() => 0, 5_000);
    cache.keys.set('hash', key);
    cache.domains.set('m1', []);
    cache.clear();
    expect(cache.keys.get('hash')).toBeUndefined();
    expect(cache.domains.get('m1')).toBeUndefined();
  });

  it('keeps nothing when its lifetime is zero', () => {
    const cache = new AccountCache(() => 0, 0);
    cache.keys.set('hash', key);
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entries first', () => {
    const cache = new AccountCache(() => 0, 5_000);
    for (let i = 0; i <= 10_000; i++) cache.keys.set(`hash-${i}`, key);
    expect(cache.keys.get('hash-0')).toBeUndefined();
    expect(cache.keys.get('hash-1')).toBe(key);
    expect(cache.keys.get('hash-10000')).toBe(key);
  });
});
