/**
 * The browser SDK (`plugins/browser-sdk/`), a public script:
 * - `/sdk/v1/` (and `/sdk/v1/sdk.js`): the current build, cached 5 minutes, revalidated by ETag;
 * - `/sdk/v1/sdk.<hash>.js`: that exact build, cached for a year as immutable (404 once the build
 *   served here is another one).
 * Built in memory when the router is made (at server start) and kept for the process.
 */
import { Router } from '@koa/router';
import { type BuiltSdk, buildSdk } from '../../../plugins/browser-sdk/build.js';
import type { GatewayContext, GatewayState } from '../context.js';

const STABLE_CACHE = 'public, max-age=300';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** The path of the content-hashed, immutable copy of a build. */
export function hashedSdkPath(hash: string): string {
  return `/sdk/v1/sdk.${hash}.js`;
}

/**
 * RFC 9110 If-None-Match: `*` or any listed tag equal to ours by weak comparison. (Koa's `ctx.fresh`
 * also treats a request's `Cache-Control: no-cache` as "not fresh", which fetch() adds to every
 * conditional request; the origin server should still answer 304.)
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined || ifNoneMatch.trim() === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

function serve(ctx: GatewayContext, sdk: BuiltSdk, cacheControl: string): void {
  ctx.status = 200;
  ctx.set('Content-Type', 'application/javascript; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.set('Cache-Control', cacheControl);
  const etag = `"${sdk.hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Link', `<${hashedSdkPath(sdk.hash)}>; rel="canonical"`);
  if (matchesEtag(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = sdk.code;
}

export function sdkRouter(): Router<GatewayState> {
  // Start building now, so the first buyer does not wait; a failure surfaces on the first request.
  buildSdk().catch(() => {});
  const router = new Router<GatewayState>();
  const stable = async (ctx: GatewayContext) => serve(ctx, await buildSdk(), STABLE_CACHE);
  router.get('/sdk/v1', stable);
  router.get('/sdk/v1/sdk.js', stable);
  router.get('/sdk/v1/:file', async (ctx, next) => {
    const sdk = await buildSdk();
    if (ctx.params.file !== `sdk.${sdk.hash}.js`) return next();
    serve(ctx, sdk, IMMUTABLE_CACHE);
  });
  return router;
}
