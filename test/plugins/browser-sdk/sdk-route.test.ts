/**
 * Serving the browser SDK (`gateway/api/routes/sdk.router.ts`): the built script at `/sdk/v1/` and
 * `/sdk/v1/sdk.js` (short cache, ETag, 304), at `/sdk/v1/sdk.<hash>.js` (immutable for a year), as
 * public JavaScript (CORS `*`, nosniff).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedSdkPath } from '../../../gateway/api/routes/sdk.router.js';
import { buildSdk } from '../../../plugins/browser-sdk/build.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway('sqlite');
});

afterAll(async () => {
  await gateway?.close();
});

function expectScriptHeaders(headers: Headers): void {
  expect(headers.get('content-type')).toBe('application/javascript; charset=utf-8');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('access-control-allow-origin')).toBe('*');
}

describe('the build', () => {
  it('is one small minified browser script (an IIFE) that defines PaymentGateway', async () => {
    const sdk = await buildSdk();
    expect(sdk.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(sdk.code).toContain('PaymentGateway');
    expect(sdk.code).not.toMatch(/\bimport\s*[{("']|\bexport\s*[{*]|\brequire\(/);
    expect(Buffer.byteLength(sdk.code)).toBeLessThan(12_000);
    // Fine-grained: es2019 has no `?.` or `??`.
    expect(sdk.code).not.toMatch(/\?\.[a-zA-Z_$]|\?\?/);
  });

  it('is built once per process', async () => {
    expect(buildSdk()).toBe(buildSdk());
    expect((await buildSdk()).code).toBe((await buildSdk()).code);
  });
});

describe('GET /sdk/v1/', () => {
  it.each(['/sdk/v1/', '/sdk/v1', '/sdk/v1/sdk.js'])(
    '%s serves the script, cached 5 minutes with an ETag',
    async (path) => {
      const sdk = await buildSdk();
      const response = await gateway.call('GET', path);
      expect(response.status).toBe(200);
      expectScriptHeaders(response.headers);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(response.headers.get('etag')).toBe(`"${sdk.hash}"`);
      expect(response.headers.get('link')).toBe(`<${hashedSdkPath(sdk.hash)}>; rel="canonical"`);
      expect(response.text).toBe(sdk.code);
    },
  );

  it('answers 304 with no body to a matching If-None-Match, and the script to a stale one', async () => {
    const sdk = await buildSdk();
    for (const ifNoneMatch of [`"${sdk.hash}"`, `W/"${sdk.hash}"`, `"old", "${sdk.hash}"`, '*']) {
      const response = await gateway.call('GET', '/sdk/v1/', { headers: { 'If-None-Match': ifNoneMatch } });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.text).toBe('');
      expect(response.headers.get('etag')).toBe(`"${sdk.hash}"`);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    }
    const stale = await gateway.call('GET', '/sdk/v1/sdk.js', { headers: { 'If-None-Match': '"0000000000000000"' } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(sdk.code);
  });

  it('answers HEAD with the headers only', async () => {
    const response = await gateway.call('HEAD', '/sdk/v1/');
    expect(response.status).toBe(200);
    expectScriptHeaders(response.headers);
    expect(response.text).toBe('');
  });
});

describe('GET /sdk/v1/sdk.<hash>.js', () => {
  it('serves the same script, immutable for a year', async () => {
    const sdk = await buildSdk();
    const response = await gateway.call('GET', hashedSdkPath(sdk.hash));
    expect(response.status).toBe(200);
    expectScriptHeaders(response.headers);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('etag')).toBe(`"${sdk.hash}"`);
    expect(response.text).toBe(sdk.code);

    const revalidated = await gateway.call('GET', hashedSdkPath(sdk.hash), {
      headers: { 'If-None-Match': `"${sdk.hash}"` },
    });
    expect(revalidated.status).toBe(304);
  });

  it('is 404 for a hash that is not the build served here', async () => {
    for (const path of ['/sdk/v1/sdk.0123456789abcdef.js', '/sdk/v1/sdk..js', '/sdk/v1/other.js', '/sdk/v2/']) {
      const response = await gateway.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toMatchObject({ error: 'not_found' });
    }
  });

  it('refuses other methods', async () => {
    const response = await gateway.call('POST', '/sdk/v1/');
    expect(response.status).toBe(405);
  });
});
