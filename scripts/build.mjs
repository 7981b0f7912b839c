#!/usr/bin/env node
/**
 * `npm run build` (also run by `npm ci` through `prepare`): compiles the services' TypeScript to
 * JavaScript under dist/, file by file (no bundling, same layout), so `npm start`, `bin/gateway`
 * and `bin/connector` start without compiling anything. dist/build-stamp.json records what the
 * build was made from; bin/launch.mjs runs the sources through tsx instead whenever a source is
 * newer than the build, so an edited checkout never runs stale code.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceFiles, sourceState } from '../bin/launch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const started = process.hrtime.bigint();

const state = sourceState(root);
const { code, assets } = sourceFiles(root);
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: code,
  outdir: dist,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const asset of assets) {
  mkdirSync(dirname(join(dist, asset)), { recursive: true });
  cpSync(join(root, asset), join(dist, asset));
}

// Every relative import of the compiled code must name a compiled file: a source the folders
// above miss would otherwise fail only when the service loads it.
const missing = [];
for (const file of code) {
  const out = join(dist, file.replace(/\.ts$/, '.js'));
  const text = readFileSync(out, 'utf8');
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = resolve(dirname(out), match[1]);
    if (!existsSync(target)) missing.push(`${file}: ${match[1]}`);
  }
}
if (missing.length > 0) {
  console.error(`the build misses files the code imports:\n${missing.join('\n')}`);
  process.exit(1);
}
writeFileSync(join(dist, 'build-stamp.json'), `${JSON.stringify(state)}\n`);
const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
console.log(`built ${state.files} files into dist/ in ${ms} ms`);
