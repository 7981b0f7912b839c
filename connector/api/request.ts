/**
 * Reading a request to the connector: the raw body (bounded), a JSON body, and its validation into
 * the `validation_failed` refusal; the field shapes several routes share.
 */
import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import { isJsonType } from '../../gateway/api/middleware/json-body.js';
import { ConnectorError, validationFailed } from '../errors.js';

const BODY_LIMIT_BYTES = 64 * 1024;

export interface ConnectorState {
  requestId: string;
}
export type Context = ParameterizedContext<ConnectorState>;
export type ConnectorRouter = Router<ConnectorState>;

export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), { error: 'must be an http(s) URL' });
export const instant = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
    error: 'must be an ISO 8601 date-time',
  });

export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw validationFailed(errors);
}

export async function readRaw(ctx: Context, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      ctx.set('Connection', 'close');
      throw new ConnectorError(413, 'payload_too_large', `The body is larger than ${limit} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** A JSON body (`{}` when there is none); a body of another media type is refused unread. */
export async function readJson(ctx: Context): Promise<unknown> {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!hasBody) return {};
  if (!isJsonType(ctx.get('Content-Type') || undefined)) {
    ctx.set('Connection', 'close');
    throw new ConnectorError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
  const text = (await readRaw(ctx)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ConnectorError(400, 'invalid_json', 'The body is not valid JSON.');
  }
}
