/**
 * Shopify sessions in the connector's database: the library's `SessionStorage` interface
 * (`@shopify/shopify-app-session-storage` 5.x, the line for API 13) over the `shopify_sessions`
 * table. Access and refresh tokens are sealed at rest, each bound to its row id and column.
 *
 * `offlineSession(shop)` is what the connector calls before using a shop's token: it refreshes an
 * expiring offline token when less than {@link REFRESH_WITHIN_MS} is left and stores the new one.
 * Concurrent refreshes in one process share one call to Shopify; across processes the write is
 * conditional on the generation that was read, so one refresh wins and the others read its result.
 */
import { Session } from '@shopify/shopify-api';
import type { Logger } from 'pino';
import { ConnectorError } from '../../connector/errors.js';
import type { ConnectorDb } from '../../connector/storage/database.js';
import {
  deleteShopifySessions,
  findShopifySession,
  findShopifySessionsByShop,
  replaceShopifySessionIf,
  type ShopifySessionRow,
  saveShopifySession,
} from '../../connector/storage/shopify-session.repository.js';
import { type Clock, MINUTE_MS, toStoredInstant } from '../../gateway/domain/clock.js';
import type { Sealer } from '../../gateway/runtime/sealing.js';
import type { ShopifyApp } from './app.js';

/** A token with less than this left is refreshed before use. */
export const REFRESH_WITHIN_MS = 5 * MINUTE_MS;

/** The interface of `@shopify/shopify-app-session-storage` (5.0.x, identical in later majors). */
export interface SessionStorage {
  storeSession(session: Session): Promise<boolean>;
  loadSession(id: string): Promise<Session | undefined>;
  deleteSession(id: string): Promise<boolean>;
  deleteSessions(ids: string[]): Promise<boolean>;
  findSessionsByShop(shop: string): Promise<Session[]>;
}

/** The part of the connector's services the sessions use (its database, sealer, clock and logger). */
interface SessionDeps {
  readonly db: ConnectorDb;
  readonly sealer: Sealer;
  readonly clock: Clock;
  readonly logger: Logger;
}

export class ShopifySessionStorage implements SessionStorage {
  readonly #deps: SessionDeps;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
  }

  async storeSession(session: Session): Promise<boolean> {
    await saveShopifySession(this.#deps.db, this.toRow(session));
    return true;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const row = await findShopifySession(this.#deps.db, id);
    return row === undefined ? undefined : this.fromRow(row);
  }

  async deleteSession(id: string): Promise<boolean> {
    await deleteShopifySessions(this.#deps.db, [id]);
    return true;
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    await deleteShopifySessions(this.#deps.db, ids);
    return true;
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    return (await findShopifySessionsByShop(this.#deps.db, shop)).map((row) => this.fromRow(row));
  }

  /** The stored row with its generation, for a conditional replace. */
  async loadVersioned(id: string): Promise<{ session: Session; generation: number } | undefined> {
    const row = await findShopifySession(this.#deps.db, id);
    return row === undefined ? undefined : { session: this.fromRow(row), generation: row.generation };
  }

  /** Stores `session` if the row is still at `generation`; answers whether it did. */
  async replaceIf(generation: number, session: Session): Promise<boolean> {
    return replaceShopifySessionIf(this.#deps.db, generation, this.toRow(session));
  }

  private toRow(session: Session): Omit<ShopifySessionRow, 'generation'> {
    const { sealer, clock } = this.#deps;
    const sealed = (value: string | undefined, column: string) =>
      value === undefined ? null : sealer.seal(value, sealContext(session.id, column));
    return {
      id: session.id,
      shop: session.shop,
      state: session.state,
      is_online: session.isOnline ? 1 : 0,
      scope: session.scope ?? null,
      expires_at: instant(session.expires),
      access_token_ciphertext: sealed(session.accessToken, 'access_token'),
      refresh_token_ciphertext: sealed(session.refreshToken, 'refresh_token'),
      refresh_token_expires_at: instant(session.refreshTokenExpires),
      online_access_info: session.onlineAccessInfo === undefined ? null : JSON.stringify(session.onlineAccessInfo),
      updated_at: toStoredInstant(clock.nowMs()),
    };
  }

  private fromRow(row: ShopifySessionRow): Session {
    const opened = (value: string | null, column: string) =>
      value === null ? undefined : this.#deps.sealer.open(value, sealContext(row.id, column));
    return new Session({
      id: row.id,
      shop: row.shop,
      state: row.state,
      isOnline: row.is_online === 1,
      ...(row.scope === null ? {} : { scope: row.scope }),
      ...(row.expires_at === null ? {} : { expires: new Date(Date.parse(row.expires_at)) }),
      ...(row.access_token_ciphertext === null
        ? {}
        : { accessToken: opened(row.access_token_ciphertext, 'access_token') }),
      ...(row.refresh_token_ciphertext === null
        ? {}
        : { refreshToken: opened(row.refresh_token_ciphertext, 'refresh_token') }),
      ...(row.refresh_token_expires_at === null
        ? {}
        : { refreshTokenExpires: new Date(Date.parse(row.refresh_token_expires_at)) }),
      ...(row.online_access_info === null ? {} : { onlineAccessInfo: JSON.parse(row.online_access_info) }),
    });
  }
}

export function sealContext(sessionId: string, column: string): string {
  return `shopify_session:${sessionId}:${column}`;
}

function instant(date: Date | undefined): string | null {
  return date === undefined ? null : toStoredInstant(date.getTime());
}

/** The offline sessions the connector acts with, refreshed before they expire. */
export interface OfflineSessions {
  /** The shop's offline session with a usable token; undefined when the shop has none. */
  offlineSession(shop: string): Promise<Session | undefined>;
}

export function createOfflineSessions(
  deps: SessionDeps,
  app: ShopifyApp,
  storage: ShopifySessionStorage,
): OfflineSessions {
  const refreshing = new Map<string, Promise<Session | undefined>>();

  async function refresh(id: string): Promise<Session | undefined> {
    const loaded = await storage.loadVersioned(id);
    if (loaded === undefined) return undefined;
    const { session, generation } = loaded;
    if (!expiresSoon(session, deps.clock.nowMs())) return session;
    const nowMs = deps.clock.nowMs();
    if (session.refreshToken === undefined || expired(session.refreshTokenExpires, nowMs)) {
      throw reinstallNeeded(session.shop);
    }
    let fresh: Session;
    try {
      fresh = (await app.api.auth.refreshToken({ shop: session.shop, refreshToken: session.refreshToken })).session;
    } catch (error) {
      deps.logger.warn(
        { shop: session.shop, err: error instanceof Error ? error.name : 'error' },
        'Shopify refused to refresh the offline token',
      );
      throw reinstallNeeded(session.shop);
    }
    app.stampExpiry(fresh);
    const stored = new Session({ ...fresh.toObject(), id: session.id, state: session.state });
    if (await storage.replaceIf(generation, stored)) {
      deps.logger.info({ shop: session.shop }, 'Shopify offline token refreshed');
      return stored;
    }
    // Another instance refreshed first: its token is the stored one.
    return storage.loadSession(id);
  }

  return {
    async offlineSession(shop) {
      const id = app.api.session.getOfflineId(shop);
      const session = await storage.loadSession(id);
      if (session?.accessToken === undefined) return undefined;
      if (!expiresSoon(session, deps.clock.nowMs())) return session;
      let pending = refreshing.get(id);
      if (pending === undefined) {
        pending = refresh(id).finally(() => refreshing.delete(id));
        refreshing.set(id, pending);
      }
      return pending;
    },
  };
}

function expiresSoon(session: Session, nowMs: number): boolean {
  return session.expires !== undefined && session.expires.getTime() - nowMs < REFRESH_WITHIN_MS;
}

function expired(date: Date | undefined, nowMs: number): boolean {
  return date !== undefined && date.getTime() <= nowMs;
}

function reinstallNeeded(shop: string): ConnectorError {
  return new ConnectorError(
    409,
    'shopify_reauthorization_needed',
    `The app's access to ${shop} has expired: open the app from the Shopify admin to authorize it again.`,
  );
}
