/**
 * Shopify sessions (the library's `Session`, stored for `SessionStorage`, 0004). The access and
 * refresh tokens are sealed, bound to the row id and the column.
 */
export interface ShopifySessionTable {
  id: string;
  shop: string;
  state: string;
  is_online: number;
  scope: string | null;
  expires_at: string | null;
  access_token_ciphertext: string | null;
  refresh_token_ciphertext: string | null;
  refresh_token_expires_at: string | null;
  /** Online sessions only: the library's `onlineAccessInfo` (JSON). */
  online_access_info: string | null;
  /** Bumped by every write: a token refresh replaces the tokens only if nobody did since it read them. */
  generation: number;
  updated_at: string;
}
