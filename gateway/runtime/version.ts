/**
 * The product's version, from its package.json: the nearest one above this file, whether it runs
 * from the sources (gateway/runtime/) or from the build (dist/gateway/runtime/). Read once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

/** `0.1.0`, or `unknown` when no package.json is found above this file. */
export function productVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
      return typeof parsed.version === 'string' ? parsed.version : 'unknown';
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
