/**
 * Account facts read on every request (the key or connect token that authenticates it, the
 * merchant's domains and processors), kept in memory so that a busy integration does not read them
 * from the database each time.
 *
 * A change made anywhere is seen by the very next request: the database keeps an account version
 * that moves with every change to these facts, whoever makes it (this process, the CLI, another
 * instance; see storage/migrations/0006-account-version.ts). `sync()`, called at the start of each
 * request, reads it (one prepared single-row read) and forgets everything when it moved.
 *
 * A request that read the database before a change committed may try to keep what it read after
 * another request already synced past the change; every cache therefore remembers a value only if
 * nothing was forgotten while it was being read. Entries also expire after `ttlMs` whatever the
 * version says, and only what was found is kept: an unknown key always reaches the database (the
 * per-address failure limit bounds that). Lifetimes use the process's monotonic clock: how long an
 * entry lives is not business time.
 */
import type { KeyWithMerchant } from '../../storage/api-key.repository.js';
import type { ConnectTokenWithAccount } from '../../storage/connect-token.repository.js';
import type { DomainWithProcessors } from '../../storage/domain.repository.js';

export const ACCOUNT_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

class CachedFacts<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    /** Changes whenever the owning cache forgets everything. */
    private readonly generation: () => number,
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

  /** The cached value, else `load()`'s answer, kept when found and nothing was forgotten meanwhile. */
  async getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation();
    const loaded = await load();
    if (loaded !== undefined && generation === this.generation()) this.#set(key, loaded);
    return loaded;
  }

  #set(key: string, value: V): void {
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
  readonly keys: CachedFacts<KeyWithMerchant>;
  /** A merchant's domains with their enabled processors, by merchant id. */
  readonly domains: CachedFacts<DomainWithProcessors[]>;
  /** Connect tokens (revoked ones too) with their domain and merchant facts, by token id. */
  readonly connectTokens: CachedFacts<ConnectTokenWithAccount>;
  readonly #readVersion: () => Promise<string>;
  #version: string | undefined;
  #generation = 0;

  constructor(now: () => number, readVersion: () => Promise<string>, ttlMs = ACCOUNT_CACHE_TTL_MS) {
    const generation = () => this.#generation;
    this.keys = new CachedFacts(now, ttlMs, generation);
    this.domains = new CachedFacts(now, ttlMs, generation);
    this.connectTokens = new CachedFacts(now, ttlMs, generation);
    this.#readVersion = readVersion;
  }

  /**
   * The account version what the cache holds now was kept under (undefined before the first sync).
   * A caller that takes an entry and learns a version later compares the two: another request may
   * have synced past a change in between, so `syncTo` answering "not moved" does not say the entry
   * taken before it is current.
   */
  get version(): string | undefined {
    return this.#version;
  }

  /** Reads the account version and forgets everything when it moved since the last read. */
  async sync(): Promise<void> {
    this.syncTo(await this.#readVersion());
  }

  /**
   * Takes `version`, read from the database by the caller (with other work, in one statement);
   * forgets everything when it moved. Answers whether it moved.
   */
  syncTo(version: string): boolean {
    if (version === this.#version) return false;
    this.#version = version;
    this.clear();
    return true;
  }

  /** Forgets everything. */
  clear(): void {
    this.#generation += 1;
    this.keys.clear();
    this.domains.clear();
    this.connectTokens.clear();
  }
}
