#!/usr/bin/env node
/**
 * `npm run plugin:zip`: builds the WordPress plugin's zip, the file a shop owner uploads in
 * Plugins > Add New > Upload Plugin, from plugins/woocommerce/wordpress-plugin/: every file of that
 * folder (readme.txt, uninstall.php, includes/, assets/, ...), under one top folder named for the
 * plugin's slug (`armenian-payment-gateway/`), and nothing else (no dotfiles, no ruleset, no tests).
 * The zip is reproducible: files sorted, fixed dates, deflated. Written to
 * artifacts/armenian-payment-gateway.zip, or to the path after `--out`.
 *
 *   npm run plugin:zip [-- --out /tmp/armenian-payment-gateway.zip]
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

export const SLUG = 'armenian-payment-gateway';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PLUGIN_DIR = join(root, 'plugins', 'woocommerce', 'wordpress-plugin');

/** The plugin's files, relative to its folder with `/`, sorted; dotfiles and dot folders left out. */
export function pluginFiles(dir = PLUGIN_DIR) {
  const files = [];
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return files.sort();
}

/** A zip (PKZIP 2.0, UTF-8 names) of `entries`: `{ name, data }` files and `{ name }` folders (ending in /). */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  // 1980-01-01 00:00 in DOS format: the same zip from the same files, whenever it is built.
  const time = 0;
  const date = (0 << 9) | (1 << 5) | 1;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const folder = entry.data === undefined;
    const data = folder ? Buffer.alloc(0) : entry.data;
    const packed = folder ? data : deflateRawSync(data, { level: 9 });
    const crc = folder ? 0 : crc32(data);
    const method = folder ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(folder ? ((0o40755 << 16) | 0x10) >>> 0 : (0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The plugin's zip: its folders, then its files, under `armenian-payment-gateway/`. */
export function pluginZip(dir = PLUGIN_DIR) {
  const files = pluginFiles(dir);
  const folders = new Set([`${SLUG}/`]);
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) folders.add(`${SLUG}/${parts.slice(0, i).join('/')}/`);
  }
  return zip([
    ...[...folders].sort().map((name) => ({ name })),
    ...files.map((file) => ({ name: `${SLUG}/${file}`, data: readFileSync(join(dir, file)) })),
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = resolve(at === -1 ? join(root, 'artifacts', `${SLUG}.zip`) : process.argv[at + 1]);
  mkdirSync(dirname(out), { recursive: true });
  const bytes = pluginZip();
  writeFileSync(out, bytes);
  console.log(`${relative(process.cwd(), out) || out}: ${pluginFiles().length} files, ${bytes.length} bytes`);
}
