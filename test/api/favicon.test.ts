/**
 * `/favicon.ico` over real HTTP: an ICO holding a 16 and a 32 pixel PNG of the card icon (read back
 * here byte by byte), cached with an ETag that answers 304.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** The RGBA pixels of a PNG the icon writes (one IDAT, 8-bit RGBA, filter 0 on every row). */
function pixelsOf(png: Buffer): { width: number; height: number; at(x: number, y: number): number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25]]).toEqual([8, 6]);
  const idatAt = png.indexOf('IDAT');
  const data = inflateSync(png.subarray(idatAt + 4, idatAt + 4 + png.readUInt32BE(idatAt - 4)));
  expect(data.length).toBe(height * (1 + width * 4));
  return {
    width,
    height,
    at: (x, y) => [...data.subarray(y * (1 + width * 4) + 1 + x * 4, y * (1 + width * 4) + 1 + x * 4 + 4)],
  };
}

describe('/favicon.ico', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is an ICO of the card icon at 16 and 32 pixels, cached, 304 for the ETag held', async () => {
    const response = await fetch(`${t.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/x-icon');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const ico = Buffer.from(await response.arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 2]);
    for (const [index, size] of [16, 32].entries()) {
      const entry = 6 + 16 * index;
      expect([ico[entry], ico[entry + 1]]).toEqual([size, size]);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      const png = pixelsOf(ico.subarray(offset, offset + length));
      expect([png.width, png.height]).toEqual([size, size]);
      expect(png.at(0, 0)[3], 'a transparent corner').toBe(0);
      expect(png.at(Math.round(size * 0.8), Math.round(size * 0.75)), 'the blue card').toEqual([0x1a, 0x46, 0xb8, 255]);
      expect(png.at(Math.round(size * 0.8), Math.round(size * 0.37)), 'its white stripe').toEqual([255, 255, 255, 255]);
    }
    const again = await fetch(`${t.url}/favicon.ico`, {
      headers: { 'If-None-Match': response.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });
});
