/**
 * An account's name (docs/decisions.md "Account names"): what it may hold when it is set, and how a
 * mail names it.
 *
 * The name is the merchant's own text, and some mails carry it to people who did not choose it (an
 * invitation goes to any address an owner types). So:
 *
 * - **When set** (sign-up, `merchant create --name`, any later way to set it): 1 to
 *   {@link ACCOUNT_NAME_MAX_LENGTH} characters once trimmed; no `<` or `>`; no control, invisible or
 *   direction-changing characters; nothing that reads as a web address (`://`, `www.`).
 * - **In a mail** ({@link nameForMail}), for every name, those set before the rule too: on one
 *   line, in quotes (`"…"`, or `«…»` in Armenian and Russian), `<` and `>` as `‹` and `›`, `://`
 *   as `[:]//` and a dot between letters or digits as `[.]`, so no mail client turns any of it
 *   into a link. The guard is this rendering; the rule at input keeps new names readable.
 */

export const ACCOUNT_NAME_MAX_LENGTH = 200;

export type AccountNameProblem = 'required' | 'too_long' | 'forbidden_characters' | 'looks_like_link';

/**
 * Control characters (C0, DEL, C1), line and paragraph separators, zero-width characters and the
 * marks and overrides that change the direction of text (which can make a name read as other text).
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
/** Full stops some mail clients read as a dot in a host name, besides `.`. */
const DOTS = '.\u3002\uff0e\uff61';
const LINK_LIKE = new RegExp(`://|www[${DOTS}]`, 'iu');

/** Why `raw` (as typed; it is trimmed) may not be an account's name; null when it may. */
export function accountNameProblem(raw: string): AccountNameProblem | null {
  const name = raw.trim();
  if (name === '') return 'required';
  if (name.length > ACCOUNT_NAME_MAX_LENGTH) return 'too_long';
  if (/[<>]/.test(name) || INVISIBLE.test(name)) return 'forbidden_characters';
  if (LINK_LIKE.test(name)) return 'looks_like_link';
  return null;
}

/** How a mail quotes a name: `"…"` (English) or `«…»` (Armenian, Russian). */
export type MailQuotes = 'straight' | 'guillemets';

/**
 * The account's name as a plain-text mail prints it (subject and body): quoted, on one line, at most
 * {@link ACCOUNT_NAME_MAX_LENGTH} characters of the name, and nothing a mail client would make a
 * link of, whatever the stored name holds. `Demo Shop` becomes `"Demo Shop"`;
 * `<a href="http://evil.test/x">` becomes `"‹a href='http[:]//evil[.]test/x'›"`. A quote mark of
 * the kind that encloses the name is changed inside it (`"` to `'`, `«` and `»` to `"`), so the
 * name cannot close its quotes early.
 */
export function nameForMail(name: string, quotes: MailQuotes = 'straight'): string {
  const flat = name.replace(INVISIBLE_ALL, ' ').replace(/\s+/gu, ' ').trim();
  const cut = flat.length > ACCOUNT_NAME_MAX_LENGTH ? `${flat.slice(0, ACCOUNT_NAME_MAX_LENGTH - 1)}…` : flat;
  const defanged = cut
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/:\/\//g, '[:]//')
    .replace(new RegExp(`(?<=[\\p{L}\\p{N}])[${DOTS}](?=[\\p{L}\\p{N}])`, 'gu'), '[.]');
  return quotes === 'straight' ? `"${defanged.replace(/"/g, "'")}"` : `«${defanged.replace(/[«»]/g, '"')}»`;
}
