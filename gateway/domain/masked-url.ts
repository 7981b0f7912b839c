/**
 * A URL as it may be shown to someone who may not see secrets, or in an email, a log line or a
 * stored error: what could be a credential is hidden. Merchants put tokens in webhook URLs
 * (`https://shop.am/hooks?token=…`, `https://user:pass@shop.am/hooks`), and these end up in places
 * less guarded than the database.
 *
 * Kept, so the merchant still recognises the target: scheme, host, port, path and the names of the
 * query parameters as written. Hidden: the user name and the password (`***`), every query value
 * (`name=***`), a query item without a name (`?3f9c…` is more likely a token than a flag: `***`),
 * and the fragment (dropped).
 *
 * Who sees a webhook target in clear is decided once, by {@link maySeeSecrets}; every place that
 * shows one to a person or a caller goes through {@link webhookUrlShownTo}.
 */
import { maySeeSecrets, type SecretReader } from './access.js';

const HIDDEN = '***';

/** The query with every value hidden and every name kept as written (`?a=1&b` → `?a=***&***`). */
function maskedQuery(search: string): string {
  const items = search
    .slice(1)
    .split('&')
    .map((item) => {
      if (item === '') return item;
      const equals = item.indexOf('=');
      return equals === -1 ? HIDDEN : `${item.slice(0, equals)}=${HIDDEN}`;
    });
  return `?${items.join('&')}`;
}

/** The URL (relative to `base` when given) with credentials hidden; text that is not a URL is answered as `null`. */
export function maskedUrl(raw: string, base?: URL): string | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.username !== '') url.username = HIDDEN;
  if (url.password !== '') url.password = HIDDEN;
  url.hash = '';
  if (url.search !== '') url.search = maskedQuery(url.search);
  return url.toString();
}

/**
 * A webhook target (a payment's `callback_url`, a domain's webhook URL, a delivery's or an
 * attempt's URL) as `reader` may see it: as set when the reader may see secrets, masked otherwise.
 * Text that is not a URL is hidden whole.
 */
export function webhookUrlShownTo(reader: SecretReader, url: string): string {
  return maySeeSecrets(reader) ? url : (maskedUrl(url) ?? HIDDEN);
}
