/**
 * WooCommerce's key exchange ("Authentication > Generating API keys with the authentication
 * endpoint"): the shop owner opens `/wc-auth/v1/authorize` on their store, approves, WooCommerce
 * creates a REST key pair and POSTs it as JSON to our `callback_url`, then sends the owner to
 * `return_url?success=1&user_id=<our user_id>`.
 *
 * WooCommerce refuses a `callback_url` that is not https, and it URL-decodes `return_url` and
 * `callback_url` once more after reading the query, so neither should contain `%` or `+`.
 */
import { keyDeliverySchema } from './wire.js';

export interface AuthorizeUrlInput {
  /** The store's home URL, with or without a trailing slash (a WordPress sub-folder is kept). */
  readonly storeUrl: string;
  /** Shown to the shop owner on the approval page and in the key's description. */
  readonly appName: string;
  /** Our one-time reference for this exchange; WooCommerce sends it back with the keys. */
  readonly userId: string;
  /** Where WooCommerce sends the shop owner afterwards. */
  readonly returnUrl: string;
  /** Where WooCommerce POSTs the generated keys (must be https for a real store). */
  readonly callbackUrl: string;
}

/** The scope the connector asks for: it reads orders and writes payments, notes and refunds. */
export const KEY_SCOPE = 'read_write';

/** The approval URL: `<store>/wc-auth/v1/authorize?app_name&scope&user_id&return_url&callback_url`. */
export function authorizeUrl(input: AuthorizeUrlInput): string {
  const store = new URL(input.storeUrl);
  if (store.protocol !== 'https:' && store.protocol !== 'http:') {
    throw new TypeError('the WooCommerce store URL must be an http(s) URL');
  }
  const base = `${store.origin}${store.pathname.replace(/\/+$/, '')}`;
  const query = new URLSearchParams([
    ['app_name', input.appName],
    ['scope', KEY_SCOPE],
    ['user_id', input.userId],
    ['return_url', input.returnUrl],
    ['callback_url', input.callbackUrl],
  ]);
  return `${base}/wc-auth/v1/authorize?${query.toString()}`;
}

export interface DeliveredKeys {
  readonly keyId: number;
  /** The `user_id` of the authorize URL, as text. */
  readonly userId: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly keyPermissions: typeof KEY_SCOPE;
}

const CONSUMER_KEY = /^ck_[0-9A-Za-z]{16,128}$/;
const CONSUMER_SECRET = /^cs_[0-9A-Za-z]{16,128}$/;

/** The body as a value: already parsed, or JSON text/bytes. */
function bodyValue(body: unknown): unknown {
  let text: string | null = null;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = Buffer.from(body).toString('utf8');
  if (text === null) return body;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The keys WooCommerce posted to the callback URL, or null when the body is not that delivery or
 * grants less than read_write. WooCommerce sends `user_id` back as it got it (text); a number is
 * accepted too, as the documentation's example shows one.
 */
export function parseKeyCallback(body: unknown): DeliveredKeys | null {
  const parsed = keyDeliverySchema.safeParse(bodyValue(body));
  if (!parsed.success) return null;
  const delivery = parsed.data;
  const userId = delivery.user_id;
  if (userId.trim() === '') return null;
  if (!CONSUMER_KEY.test(delivery.consumer_key) || !CONSUMER_SECRET.test(delivery.consumer_secret)) return null;
  if (delivery.key_permissions !== KEY_SCOPE) return null;
  return {
    keyId: delivery.key_id,
    userId,
    consumerKey: delivery.consumer_key,
    consumerSecret: delivery.consumer_secret,
    keyPermissions: KEY_SCOPE,
  };
}
