/**
 * How `bin/gateway` and `bin/connector` start: the compiled JavaScript of dist/ when it was built
 * from the sources as they are now (scripts/build.mjs, run by `npm ci`), else the TypeScript
 * sources through tsx. "As they are now": no source file is newer than the build and none was
 * added or removed. `GATEWAY_FROM_SOURCE=1` always runs the sources.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The services' code: every TypeScript file of these folders, compiled into dist/. */
const CODE_DIRS = ['gateway', 'storage', 'connector', 'plugins/shopify', 'plugins/woocommerce'];
const CODE_FILES = ['plugins/browser-sdk/build.ts'];
/**
 * Files the code reads at run time beside itself, copied into dist/ as they are: the Shopify admin
 * page's script, the API reference's script and stylesheet, and the browser SDK's sources (the
 * gateway builds the SDK when it starts).
 */
const ASSET_DIRS = ['plugins/browser-sdk/src', 'gateway/api/openapi/page'];
const ASSET_FILES = ['plugins/shopify/page/app-page.js', 'plugins/browser-sdk/tsconfig.json'];

function walk(root, dir, keep, into) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'wordpress-plugin') walk(root, path, keep, into);
    } else if (keep(entry.name)) {
      into.push(path);
    }
  }
  return into;
}

/** The services' files relative to `root`: `code` to compile, `assets` to copy. */
export function sourceFiles(root) {
  const isCode = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');
  const present = (file) => existsSync(join(root, file));
  const code = CODE_FILES.filter(present);
  for (const dir of CODE_DIRS) if (existsSync(join(root, dir))) walk(root, dir, isCode, code);
  const assets = ASSET_FILES.filter(present);
  for (const dir of ASSET_DIRS) if (existsSync(join(root, dir))) walk(root, dir, () => true, assets);
  return { code, assets };
}

/** What a build is made from: how many files, and the newest modification time among them. */
export function sourceState(root) {
  const { code, assets } = sourceFiles(root);
  const files = [...code, ...assets];
  let newestMs = 0;
  for (const file of files) newestMs = Math.max(newestMs, statSync(join(root, file)).mtimeMs);
  return { files: files.length, newestMs };
}

export function builtFromCurrentSources(root) {
  if (process.env.GATEWAY_FROM_SOURCE === '1') return false;
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'build-stamp.json'), 'utf8'));
    const now = sourceState(root);
    return stamp.files === now.files && now.newestMs <= stamp.newestMs;
  } catch {
    return false;
  }
}

/** Imports `entry` (a path like `gateway/cli/main`) compiled when fresh, else from source. */
export async function launch(root, entry) {
  if (builtFromCurrentSources(root)) return import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(root, `${entry}.ts`)).href);
}
