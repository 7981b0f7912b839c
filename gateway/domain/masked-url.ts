/**
 * A URL as it may be shown in an email, a log line or a stored error: what could be a credential is
 * hidden. Merchants put tokens in webhook URLs (`https://shop.am/hooks?token=…`,
 * `https://user:pass@shop.am/hooks`), and these end up in places less guarded than the database.
 * Kept: scheme, host, port, path and the names of the query parameters. Hidden: the user name and
 * password, every query value, the fragment.
 */
const HIDDEN = '***';

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
  if (url.search !== '') {
    const names = [...url.searchParams.keys()];
    url.search = names.map((name) => `${encodeURIComponent(name)}=${HIDDEN}`).join('&');
  }
  url.hash = '';
  return url.toString();
}
