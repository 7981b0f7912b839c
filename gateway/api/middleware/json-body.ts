/**
 * Reads a JSON request body: `Content-Type: application/json` (or `+json`) only, at most the
 * configured size, parsed into `ctx.request.body`; the raw bytes stay on `ctx.state.rawBody`.
 * An empty body reads as `{}` so that missing fields are reported field by field.
 */
import type { Next } from 'koa';
import { ApiError, validationFailed } from '../../domain/errors.js';
import type { GatewayContext } from '../context.js';

/**
 * Deepest nesting of arrays and objects a body may have. API bodies are flat; a deeper body is
 * refused before anything walks it recursively (hashing it for `Idempotency-Key` would overflow).
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays/objects more than `max` levels deep (iterative: no recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= max) return true;
    for (const child of Object.values(item.value)) pending.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/** Whether a Content-Type names JSON (`application/json`, or `application/<something>+json`). */
export function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

/** The request body's bytes, refused with 413 `payload_too_large` past `limit`. */
export async function readLimited(ctx: GatewayContext, limit: number): Promise<Buffer> {
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limit) throw tooLarge(ctx, limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw tooLarge(ctx, limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(ctx: GatewayContext, limit: number): ApiError {
  // The rest of the body is not read; the connection is closed after the answer.
  ctx.set('Connection', 'close');
  return new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`, {
    details: { max_bytes: limit },
  });
}

export function jsonBody(limit: number) {
  return async function readJsonBody(ctx: GatewayContext, next: Next): Promise<void> {
    const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (!hasBody) {
      ctx.state.rawBody = Buffer.alloc(0);
      ctx.request.body = {};
      return next();
    }
    if (!isJsonType(ctx.get('Content-Type') || undefined)) {
      throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    const raw = await readLimited(ctx, limit);
    ctx.state.rawBody = raw;
    const text = raw.toString('utf8');
    if (text.trim() === '') {
      ctx.request.body = {};
      return next();
    }
    try {
      ctx.request.body = JSON.parse(text) as unknown;
    } catch (error) {
      throw new ApiError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
    }
    if (nestsDeeperThan(ctx.request.body, MAX_JSON_DEPTH)) {
      throw validationFailed({ body: [`must not nest arrays or objects more than ${MAX_JSON_DEPTH} levels deep`] });
    }
    return next();
  };
}
