import { describe, expect, it } from 'vitest';
import { AccountCache } from '../../../gateway/merchants/account-cache.js';
import type { KeyWithMerchant } from '../../../storage/api-key.repository.js';

const key = { id: 'k1', merchant_id: 'm1' } as KeyWithMerchant;
const other = { id: 'k2', merchant_id: 'm1' } as KeyWithMerchant;

/** A cache over a version the test moves by hand. */
function cacheAt(options: { ttlMs?: number; now?: () => number } = {}) {
  const state = { version: 1, reads: 0 };
  const cache = new AccountCache(
    options.now ?? (() => 0),
    async () => {
      state.reads += 1;
      return String(state.version);
    },
    options.ttlMs,
  );
  return { cache, state };
}

describe('AccountCache', () => {
  it('keeps what it loaded while the account version stays, and loads again once it moved', async () => {
    const { cache, state } = cacheAt();
    await cache.sync();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return loads === 1 ? key : other;
    };
    expect(await cache.keys.getOrLoad('hash', load)).toBe(key);
    await cache.sync();
    expect(await cache.keys.getOrLoad('hash', load)).toBe(key);
    expect(loads).toBe(1);
    state.version += 1;
    await cache.sync();
    expect(cache.keys.get('hash')).toBeUndefined();
    expect(await cache.keys.getOrLoad('hash', load)).toBe(other);
    expect(loads).toBe(2);
    expect(state.reads).toBe(3);
  });

  it('forgets when the version moves back too (a restored backup)', async () => {
    const { cache, state } = cacheAt();
    state.version = 10;
    await cache.sync();
    await cache.keys.getOrLoad('hash', async () => key);
    state.version = 7;
    await cache.sync();
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('does not keep a value read before a change that another request already synced past', async () => {
    const { cache, state } = cacheAt();
    await cache.sync();
    let release: (value: KeyWithMerchant) => void = () => {};
    const slow = cache.keys.getOrLoad('hash', () => new Promise((resolve) => (release = resolve)));
    // Meanwhile the key is revoked and another request syncs.
    state.version += 1;
    await cache.sync();
    release(key); // the stale row arrives
    expect(await slow).toBe(key);
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('keeps nothing that was not found', async () => {
    const { cache } = cacheAt();
    await cache.sync();
    expect(await cache.keys.getOrLoad('hash', async () => undefined)).toBeUndefined();
    expect(await cache.keys.getOrLoad('hash', async () => key)).toBe(key);
  });

  it('drops an entry after its lifetime even when the version stays', async () => {
    let now = 1_000;
    const { cache } = cacheAt({ now: () => now, ttlMs: 5_000 });
    await cache.sync();
    await cache.keys.getOrLoad('hash', async () => key);
    now += 4_999;
    expect(cache.keys.get('hash')).toBe(key);
    now += 1;
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('forgets keys, domains and connect tokens at once when cleared', async () => {
    const { cache } = cacheAt();
    await cache.keys.getOrLoad('hash', async () => key);
    await cache.domains.getOrLoad('m1', async () => []);
    cache.clear();
    expect(cache.keys.get('hash')).toBeUndefined();
    expect(cache.domains.get('m1')).toBeUndefined();
  });

  it('keeps nothing when its lifetime is zero', async () => {
    const { cache } = cacheAt({ ttlMs: 0 });
    await cache.keys.getOrLoad('hash', async () => key);
    expect(cache.keys.get('hash')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entries first', async () => {
    const { cache } = cacheAt();
    for (let i = 0; i <= 10_000; i++) await cache.keys.getOrLoad(`hash-${i}`, async () => key);
    expect(cache.keys.get('hash-0')).toBeUndefined();
    expect(cache.keys.get('hash-1')).toBe(key);
    expect(cache.keys.get('hash-10000')).toBe(key);
  });
});
