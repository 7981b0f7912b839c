/**
 * The form guard of posts that carry files (`multipart/form-data`), the variant of `kit.formGuard`
 * (which reads only small urlencoded bodies). The body is read as it streams in, with busboy:
 *
 * - the form token must come before any file (the pages put it first, and browsers send fields
 *   in the order of the form): a file before a good token, or a wrong token, refuses the post with
 *   the same 403 "This form has expired" page, and no byte of any file is kept;
 * - each file at most `maxFileBytes`, at most `maxFiles` files, all files at most `maxTotalBytes`:
 *   past a limit the rest of the body is read and thrown away (so the browser gets the answer),
 *   no file is handed on, and the route answers 413 (or 422) with the form; a body far past the
 *   limits (twice the total) is cut off;
 * - nothing is stored here: the route hands the files to its service, which writes everything in
 *   one transaction (or nothing).
 *
 * An urlencoded post (no file) passes like under `kit.formGuard`, so such a post is refused by
 * the route's role check or its own checks, not mistaken for a forged one.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { GatewayContext } from '../api/context.js';
import { type FormFields, readFormBody } from '../checkout/form-body.js';
import { FORM_COOKIE, SESSION_COOKIE } from './cookies.js';
import { formTokenMatches } from './form-guard.js';
import type { DashboardKit } from './kit.js';
import { messagePage } from './pages.js';

export interface MultipartLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  /** Non-file fields (default 20), each at most `maxFieldBytes` (default 4 KiB). */
  readonly maxFields?: number;
  readonly maxFieldBytes?: number;
}

export interface UploadedFile {
  /** The form field it came in. */
  readonly field: string;
  /** The name the browser gave (not safe to store or print as is). */
  readonly fileName: string;
  /** The type the browser declared (never trusted). */
  readonly declaredType: string;
  readonly bytes: Buffer;
}

/** Why the files of a post were not handed on. */
export type UploadProblem = 'file_too_large' | 'too_many_files' | 'total_too_large' | 'malformed';

export interface MultipartForm {
  readonly fields: FormFields;
  /** Empty when `problem` is set. */
  readonly files: readonly UploadedFile[];
  readonly problem: UploadProblem | null;
}

const forms = new WeakMap<GatewayContext, MultipartForm>();

/** The post's fields and files, after `multipartGuard` let it through. */
export function multipartForm(ctx: GatewayContext): MultipartForm {
  return forms.get(ctx) ?? { fields: new Map(), files: [], problem: null };
}

/** The HTTP status of a post refused for its files: too big is 413, anything else 422. */
export function uploadProblemStatus(problem: UploadProblem): number {
  return problem === 'file_too_large' || problem === 'total_too_large' ? 413 : 422;
}

export function multipartGuard(
  kit: DashboardKit,
  limits: MultipartLimits,
): (ctx: GatewayContext, next: () => Promise<unknown>) => Promise<void> {
  return async (ctx, next) => {
    const bindings = [ctx.cookies.get(SESSION_COOKIE), ctx.cookies.get(FORM_COOKIE)];
    const matches = (token: string | undefined) => formTokenMatches(kit.deps.secret, token, bindings);
    const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
    let form: MultipartForm | null = null;
    if (type === 'multipart/form-data') {
      form = await readMultipart(ctx.req, limits, matches);
    } else if (type === 'application/x-www-form-urlencoded') {
      const fields = await readFormBody(ctx.req);
      if (matches(fields.get('form_token'))) form = { fields, files: [], problem: null };
    } else {
      ctx.req.resume();
    }
    if (form === null) {
      const visit = await kit.begin(ctx);
      const { t } = visit;
      kit.send(ctx, visit.shell, 403, messagePage(visit.shell, t.formExpiredTitle, t.formExpiredText));
      return;
    }
    forms.set(ctx, form);
    await next();
  };
}

/** Reads a multipart body (see the file comment); null when its form token is missing or wrong. */
function readMultipart(
  request: IncomingMessage,
  limits: MultipartLimits,
  matches: (token: string | undefined) => boolean,
): Promise<MultipartForm | null> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    const maxFields = limits.maxFields ?? 20;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: {
          fieldNameSize: 100,
          fieldSize: limits.maxFieldBytes ?? 4096,
          fields: maxFields,
          fileSize: limits.maxFileBytes,
          files: limits.maxFiles,
          parts: maxFields + limits.maxFiles + 1,
          headerPairs: 20,
        },
      });
    } catch {
      // No boundary, or not multipart after all.
      request.resume();
      resolve(null);
      return;
    }
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    let trusted = false;
    let refused = false;
    let problem: UploadProblem | null = null;
    let kept = 0;
    let received = 0;
    let openFiles = 0;
    let parsed = false;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      resolve(trusted && !refused ? { fields, files: problem === null ? files : [], problem } : null);
    };
    const maybeDone = (): void => {
      if (parsed && openFiles === 0) settle();
    };
    const fail = (why: UploadProblem): void => {
      if (problem === null) problem = why;
      files.length = 0;
    };

    const hardCap = 2 * limits.maxTotalBytes + 1024 * 1024;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > hardCap && !settled) {
        // Far past any accepted size: stop reading; the connection ends with this answer.
        fail('total_too_large');
        request.unpipe(parser);
        request.destroy();
        settle();
      }
    });

    parser.on('field', (name, value) => {
      if (name === 'form_token') {
        if (!trusted && !refused) {
          if (matches(value)) trusted = true;
          else refused = true;
        }
        return;
      }
      if (!fields.has(name)) fields.set(name, value);
    });

    parser.on('file', (name, stream, info) => {
      // Nothing of a file is kept before the form token said the post is this browser's own.
      if (!trusted) refused = true;
      if (!trusted || problem !== null || info.filename === undefined || info.filename === '') {
        stream.resume();
        return;
      }
      openFiles += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        kept += chunk.length;
        if (kept > limits.maxTotalBytes) fail('total_too_large');
        if (problem === null) chunks.push(chunk);
      });
      stream.on('limit', () => fail('file_too_large'));
      stream.on('end', () => {
        openFiles -= 1;
        if (problem === null && !stream.truncated) {
          files.push({
            field: name,
            fileName: info.filename,
            declaredType: info.mimeType,
            bytes: Buffer.concat(chunks),
          });
        }
        maybeDone();
      });
    });
    parser.on('filesLimit', () => fail('too_many_files'));
    parser.on('fieldsLimit', () => fail('malformed'));
    parser.on('partsLimit', () => fail('malformed'));
    parser.on('error', () => {
      fail('malformed');
      request.unpipe(parser);
      request.resume();
      openFiles = 0;
      parsed = true;
      maybeDone();
    });
    parser.on('close', () => {
      parsed = true;
      maybeDone();
    });
    request.pipe(parser);
  });
}
