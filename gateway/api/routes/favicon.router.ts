/**
 * `GET /favicon.ico`: the service's icon, which browsers ask for on every page of this origin (the
 * dashboard, the checkout, payment links, receipts). A blue card with a white stripe, drawn here as
 * 16 and 32 pixel PNG images inside one ICO file, so no binary file ships with the code. Built once;
 * answered with a long cache lifetime and an ETag.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { Router } from '@koa/router';
import type { GatewayState } from '../context.js';

const BLUE = [0x1a, 0x46, 0xb8] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

/** A table-driven CRC-32 (PNG chunks end with one). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** How much of the pixel (x, y) of a `size` icon the shape covers, 0..1, by 4x4 samples. */
function coverage(size: number, x: number, y: number, inside: (u: number, v: number) => boolean): number {
  let hits = 0;
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) if (inside((x + (i + 0.5) / 4) / size, (y + (j + 0.5) / 4) / size)) hits++;
  }
  return hits / 16;
}

/** Inside a rounded rectangle (in units of the icon's side). */
function roundedRect(left: number, top: number, right: number, bottom: number, radius: number) {
  return (u: number, v: number): boolean => {
    if (u < left || u > right || v < top || v > bottom) return false;
    const dx = Math.max(left + radius - u, 0, u - (right - radius));
    const dy = Math.max(top + radius - v, 0, v - (bottom - radius));
    return dx * dx + dy * dy <= radius * radius;
  };
}

const CARD = roundedRect(0.03, 0.16, 0.97, 0.84, 0.12);
const STRIPE = (u: number, v: number) => CARD(u, v) && v >= 0.3 && v <= 0.44;
const NUMBER = roundedRect(0.16, 0.6, 0.56, 0.7, 0.03);

/** The icon at `size` pixels as a PNG (8-bit RGBA). */
export function iconPng(size: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0: none
    for (let x = 0; x < size; x++) {
      const card = coverage(size, x, y, CARD);
      const white = coverage(size, x, y, (u, v) => STRIPE(u, v) || NUMBER(u, v));
      const at = 1 + x * 4;
      for (let c = 0; c < 3; c++) {
        const mixed = card === 0 ? 0 : ((BLUE[c] as number) * (card - white) + (WHITE[c] as number) * white) / card;
        row[at + c] = Math.round(mixed);
      }
      row[at + 3] = Math.round(card * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding `images` (PNG entries, as every browser since 2007 reads them). */
export function icoOf(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // an icon
  head.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size % 256; // 0 means 256
    entry[1] = size % 256;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([head, ...entries, ...images.map((image) => image.png)]);
}

export function faviconRouter(): Router<GatewayState> {
  const router = new Router<GatewayState>();
  let icon: { body: Buffer; etag: string } | undefined;
  router.get('/favicon.ico', (ctx) => {
    if (icon === undefined) {
      const body = icoOf([16, 32].map((size) => ({ size, png: iconPng(size) })));
      icon = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('ETag', icon.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.get('If-None-Match') === icon.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'image/x-icon';
    ctx.body = icon.body;
  });
  return router;
}
