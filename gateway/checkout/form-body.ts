/**
 * Reads the checkout's form posts (`application/x-www-form-urlencoded`, a few fields). Nothing of
 * the body is kept or logged: the sandbox form carries a card number. Anything else than a small
 * urlencoded body reads as no fields (so the form token is missing and the post is refused).
 */
import type { IncomingMessage } from 'node:http';

export const FORM_BODY_LIMIT_BYTES = 8 * 1024;

export type FormFields = ReadonlyMap<string, string>;

const EMPTY: FormFields = new Map();

export async function readFormBody(request: IncomingMessage): Promise<FormFields> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    request.resume();
    return EMPTY;
  }
  const body = await new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is drained, not kept, so the answer still reaches the browser.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= FORM_BODY_LIMIT_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size <= FORM_BODY_LIMIT_BYTES ? Buffer.concat(chunks) : null));
    request.on('error', reject);
  });
  if (body === null) return EMPTY;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}
