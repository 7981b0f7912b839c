/**
 * Readers of what the dashboard mails and prints, for the tests and `npm run screenshots` (no
 * vitest here): the mails a local SMTP sink received, their links, and the printed curl's request.
 */
import { eventually } from '../support/eventually.js';
import { parseMessage, type TestSmtp } from '../support/smtp-server.js';

/** Waits for the `nth` (1-based) mail to `to` whose subject matches; answers its subject and text. */
export async function mailTo(
  smtp: TestSmtp,
  to: string,
  subject: RegExp,
  nth = 1,
): Promise<{ subject: string; text: string }> {
  const matching = () =>
    smtp.received
      .filter((mail) => mail.to.includes(to))
      .map((mail) => parseMessage(mail.raw))
      .filter((mail) => subject.test(mail.subject));
  await eventually(() => matching().length >= nth, `mail ${nth} to ${to} (${subject})`);
  return matching()[nth - 1] as { subject: string; text: string };
}

/** The path and query of the first link in `text` to `path` (PUBLIC_URL may not be the test's origin). */
export function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (match === null) throw new Error(`no link to ${path} in: ${text}`);
  return match[1] as string;
}

/** The request a printed curl makes: its method, URL, headers and body as the shell would pass them. */
export function curlRequest(command: string): {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
} {
  const oneLine = command.replace(/\\\n\s*/g, ' ');
  const method = /-X (\w+)/.exec(oneLine)?.[1] ?? 'GET';
  const url = /-X \w+ (\S+)/.exec(oneLine)?.[1] ?? '';
  const headers: Record<string, string> = {};
  for (const match of oneLine.matchAll(/-H "([^"]+)"/g)) {
    const [name = '', ...rest] = (match[1] as string).split(':');
    headers[name.trim()] = rest.join(':').trim();
  }
  // A double-quoted shell word: \" is a quote, $(date +%s) the time in seconds.
  const quoted = /-d "((?:[^"\\]|\\.)*)"/.exec(oneLine)?.[1] ?? '';
  const body = quoted.replace(/\\(["\\$`])/g, '$1').replace('$(date +%s)', String(Math.floor(Date.now() / 1000)));
  return { method, url, headers, body };
}
