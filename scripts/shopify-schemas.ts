/**
 * Shopify's published GraphQL introspection schemas (Admin API and Payments Apps API), for the tests
 * that validate the app's documents and for the fake Shopify servers.
 *
 * Shopify publishes them in its npm package `@shopify/dev-mcp` (`dist/data/<api>_<version>.json.gz`).
 * That package is not a dependency of the project: installing it brings about 300 packages (the
 * Shopify CLI, react-router, a second TypeScript...), see docs/decisions.md "Shopify's GraphQL
 * schemas in the tests". Instead this fetches the pinned tarball once with `npm pack` (from the npm
 * registry, like every other package), checks it against the pinned integrity, and keeps only the
 * `admin_*` and `payments-apps_*` files of `dist/data` under `node_modules/.cache/`. Nothing of the
 * package is run, and the schemas are never copied into the repository.
 *
 * `node --import tsx scripts/shopify-schemas.ts` fetches them ahead (CI or a machine about to go
 * offline); the tests call {@link ensureShopifySchemas} themselves. Several test workers may call it
 * at once: each unpacks into its own directory and renames it into place; the first rename wins.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

export const DEV_MCP_PACKAGE = '@shopify/dev-mcp';
export const DEV_MCP_VERSION = '1.16.0';
/** The registry's `dist.integrity` of @shopify/dev-mcp@1.16.0. */
export const DEV_MCP_INTEGRITY =
  'sha512-tqgRnK7sQhjew+htxtleTH23nXB5fZcsrhWgEkomsorGXvLOB2mh2upwZm8uzuTDNTZnqtLMe64yIwh6s2awtw==';

export type ShopifyApi = 'admin' | 'payments-apps';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_CACHE = join(ROOT, 'node_modules', '.cache', `shopify-dev-mcp-${DEV_MCP_VERSION}`);
const KEPT = /^package\/dist\/data\/((?:admin|payments-apps)_[0-9a-z-]+\.json\.gz|supported-versions-schema\.json)$/;

/** The cache directory, filled from the registry first when it is not there yet. */
export async function ensureShopifySchemas(): Promise<string> {
  if (existsSync(join(SCHEMA_CACHE, 'complete'))) return SCHEMA_CACHE;
  const work = join(tmpdir(), `shopify-schemas-${randomUUID()}`);
  mkdirSync(work, { recursive: true });
  try {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['pack', `${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION}`, '--json', '--pack-destination', work],
      { cwd: work, maxBuffer: 16 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(stdout) as { filename: string; integrity: string }[];
    if (packed === undefined) throw new Error('npm pack answered no tarball');
    const tarball = readFileSync(join(work, packed.filename));
    const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
    if (integrity !== DEV_MCP_INTEGRITY || packed.integrity !== DEV_MCP_INTEGRITY) {
      throw new Error(
        `${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION} does not match its pinned integrity (got ${integrity}); refusing it`,
      );
    }
    const unpacked = join(work, 'data');
    mkdirSync(unpacked);
    let kept = 0;
    for (const entry of tarEntries(gunzipSync(tarball))) {
      const name = KEPT.exec(entry.name)?.[1];
      if (name === undefined) continue;
      writeFileSync(join(unpacked, name), entry.body);
      kept += 1;
    }
    if (kept === 0) throw new Error(`${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION} has no schemas in dist/data`);
    writeFileSync(join(unpacked, 'complete'), `${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION} ${DEV_MCP_INTEGRITY}\n`);
    mkdirSync(dirname(SCHEMA_CACHE), { recursive: true });
    try {
      renameSync(unpacked, SCHEMA_CACHE);
    } catch (error) {
      // Another worker put it there first.
      if (!existsSync(join(SCHEMA_CACHE, 'complete'))) throw error;
    }
    return SCHEMA_CACHE;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The introspection result (`{ __schema }`) Shopify published for one API and version. */
export async function readIntrospection(api: ShopifyApi, version: string): Promise<unknown> {
  const dir = await ensureShopifySchemas();
  const file = join(dir, `${api}_${version}.json.gz`);
  if (!existsSync(file)) throw new Error(`${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION} has no ${api} schema for ${version}`);
  const json = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { data?: unknown };
  return json.data ?? json;
}

/** The files of a (ustar) tar archive; the package's names are short, so no pax or GNU long names. */
function* tarEntries(archive: Buffer): Generator<{ name: string; body: Buffer }> {
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const prefix = field(345, 155);
    const name = prefix === '' ? field(0, 100) : `${prefix}/${field(0, 100)}`;
    const type = field(156, 1);
    const start = offset + 512;
    if (type === '0' || type === '') yield { name, body: archive.subarray(start, start + size) };
    offset = start + Math.ceil(size / 512) * 512;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = await ensureShopifySchemas();
  process.stdout.write(`Shopify schemas of ${DEV_MCP_PACKAGE}@${DEV_MCP_VERSION} in ${dir}\n`);
}
