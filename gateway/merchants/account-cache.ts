/**
 * Account facts read on every request (the key or connect token that authenticates it, the
 * merchant's domains and processors), held for a few seconds so that a busy integration does not read them from the
 * database each time. Only what was found is kept: an unknown key always reaches the database (the
 * per-address failure limit bounds that). Changes made through this process's services clear the
 * cache at once; changes made elsewhere (the CLI, another instance) apply within `ttlMs`.
 * Lifetimes use the process's monotonic clock: how long an entry lives is not business time.
 */
import type { KeyWithMerchant } from '../../storage/api-key.repository.js';
import type { ConnectTokenWithAccount } from '../../storage/connect-token.repository.js';
import type { DomainWithProcessors } from '../../storage/domain.repository.js';

export const ACCOUNT_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

class TtlMap<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, until: this.now() + this.ttlMs });
  }

  clear(): void {
    this.#entries.clear();
  }
}

export class AccountCache {
  /** Active keys by the SHA-256 of the key. */
  readonly keys: TtlMap<KeyWithMerchant>;
  /** A merchant's domains with their enabled processors, by merchant id. */
  readonly domains: TtlMap<DomainWithProcessors[]>;
  /** Connect tokens (revoked ones too) with their domain and merchant facts, by token id. */
  readonly connectTokens: TtlMap<ConnectTokenWithAccount>;

  constructor(now: () => number, ttlMs = ACCOUNT_CACHE_TTL_MS) {
    this.keys = new TtlMap(now, ttlMs);
    this.domains = new TtlMap(now, ttlMs);
    this.connectTokens = new TtlMap(now, ttlMs);
  }

  /** Forget everything: called after any change to merchants, keys, connect tokens, domains or processors. */
  clear(): void {
    this.keys.clear();
    this.domains.clear();
    this.connectTokens.clear();
  }
}
