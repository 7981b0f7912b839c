/**
 * The OpenAPI document and its reader:
 * - `GET /api/v1/openapi.json`: the document (`gateway/api/openapi/`), built once when the router is
 *   made; public, cacheable, revalidated by ETag, readable from any origin.
 * - `GET /docs/api`: the reference page, Swagger UI (the `swagger-ui-dist` package) served from
 *   `/docs/api/assets/` by the gateway itself, never from a CDN, with its start-up script and a
 *   stylesheet of our own (`gateway/api/openapi/page/`). The page runs no inline script: its
 *   start-up script is an asset too, so its CSP allows scripts and styles from 'self' only.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Router } from '@koa/router';
import type { GatewayContext, GatewayState } from '../context.js';
import { buildOpenApiDocument, type DocumentedServer } from '../openapi/document.js';
import { matchesEtag } from './sdk.router.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const API_REFERENCE_PATH = '/docs/api';
const ASSETS_PATH = `${API_REFERENCE_PATH}/assets`;
const CACHE = 'public, max-age=300';

/**
 * Swagger UI renders with React, which sets styles through the DOM (not blocked by CSP), and shows
 * its icons as `data:` images. The buttons of "Try it out" call the API, at `publicOrigin`.
 */
export function apiReferenceCsp(publicOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${publicOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${ASSETS_PATH}/overrides.css">
<link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-document="${OPENAPI_PATH}"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/start.js"></script>
</body>
</html>
`;

interface Asset {
  readonly type: string;
  readonly load: () => Promise<Buffer>;
}

const requireFromHere = createRequire(import.meta.url);
const packageFile = (name: string) => () => readFile(requireFromHere.resolve(`swagger-ui-dist/${name}`));
const pageFile = (name: string) => () => readFile(new URL(`../openapi/page/${name}`, import.meta.url));

const SCRIPT = 'application/javascript; charset=utf-8';
const STYLESHEET = 'text/css; charset=utf-8';

const ASSETS: Readonly<Record<string, Asset>> = {
  'swagger-ui-bundle.js': { type: SCRIPT, load: packageFile('swagger-ui-bundle.js') },
  'swagger-ui.css': { type: STYLESHEET, load: packageFile('swagger-ui.css') },
  'favicon-32x32.png': { type: 'image/png', load: packageFile('favicon-32x32.png') },
  'start.js': { type: SCRIPT, load: pageFile('start.js') },
  'overrides.css': { type: STYLESHEET, load: pageFile('overrides.css') },
};

function etagOf(text: string | Buffer): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** Answers `content` with an ETag, or 304 when the client holds it. */
function sendCached(ctx: GatewayContext, type: string, content: string | Buffer, etag: string): void {
  ctx.set('Cache-Control', CACHE);
  ctx.set('ETag', etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (matchesEtag(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = content;
}

export function apiReferenceRouter(server: DocumentedServer): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const documentText = JSON.stringify(buildOpenApiDocument(server));
  const documentEtag = etagOf(documentText);
  const loaded = new Map<string, Promise<{ content: Buffer; etag: string }>>();
  const csp = apiReferenceCsp(new URL(server.publicUrl).origin);

  router.get(OPENAPI_PATH, (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    sendCached(ctx, 'application/json; charset=utf-8', documentText, documentEtag);
  });

  router.get(API_REFERENCE_PATH, (ctx) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', CACHE);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  router.get(`${ASSETS_PATH}/:file`, async (ctx, next) => {
    const name = ctx.params.file ?? '';
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) return next();
    let entry = loaded.get(name);
    if (entry === undefined) {
      entry = asset.load().then((content) => ({ content, etag: etagOf(content) }));
      // A failed read is tried again by the next request.
      entry.catch(() => loaded.delete(name));
      loaded.set(name, entry);
    }
    const { content, etag } = await entry;
    sendCached(ctx, asset.type, content, etag);
  });

  return router;
}
