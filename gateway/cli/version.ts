/**
 * `gateway --version`: the version of the gateway, from its package.json: the nearest one above
 * this file, whether it runs from the sources (gateway/cli/) or from the build (dist/gateway/cli/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function gatewayVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return `gateway ${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
    if (dirname(dir) === dir) return 'gateway (version unknown)';
  }
}
