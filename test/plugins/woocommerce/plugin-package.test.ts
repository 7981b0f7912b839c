/**
 * The WordPress plugin as WordPress.org and a shop owner receive it: its headers keep up with the
 * versions the project tests against (plugins/woocommerce/tested-versions.json, the one place that
 * says them), readme.txt follows WordPress.org's readme rules (headers, short description, sections,
 * an External services section with terms and privacy links), and `npm run plugin:zip` builds the
 * zip a shop owner uploads with exactly the plugin's files.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PLUGIN_DIR = join(ROOT, 'plugins/woocommerce/wordpress-plugin');
const SLUG = 'armenian-payment-gateway';

interface Versions {
  tested: { wordpress: string; woocommerce: string };
  requires: { wordpress: string; woocommerce: string; php: string };
}

const VERSIONS = JSON.parse(readFileSync(join(ROOT, 'plugins/woocommerce/tested-versions.json'), 'utf8')) as Versions;
const README = readFileSync(join(PLUGIN_DIR, 'readme.txt'), 'utf8');
const MAIN = readFileSync(join(PLUGIN_DIR, `${SLUG}.php`), 'utf8');

/** `Name: value` lines of readme.txt's header block (before the short description). */
function readmeHeaders(readme: string): Record<string, string> {
  const head = readme.split(/\n\s*\n/)[0] ?? '';
  return Object.fromEntries(
    [...head.matchAll(/^([A-Za-z][A-Za-z ]+):\s*(.+)$/gm)].map((m) => [m[1]?.trim() as string, m[2]?.trim() as string]),
  );
}

/** ` * Name: value` lines of the main file's plugin header. */
function pluginHeaders(main: string): Record<string, string> {
  const block = /\/\*\*([\s\S]*?)\*\//.exec(main)?.[1] ?? '';
  return Object.fromEntries(
    [...block.matchAll(/^\s*\*\s*([A-Za-z][A-Za-z ]+):\s*(.+)$/gm)].map((m) => [
      m[1]?.trim() as string,
      m[2]?.trim() as string,
    ]),
  );
}

/** -1, 0 or 1 as `a` is older than, the same major.minor as, or newer than `b`. */
function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 2; i++) {
    const d = (x?.[i] ?? 0) - (y?.[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** What falls behind the versions the project tests against, or contradicts WordPress's rules. */
function headerProblems(readme: string, main: string, versions: Versions): string[] {
  const r = readmeHeaders(readme);
  const p = pluginHeaders(main);
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  need(
    compare(r['Tested up to'] ?? '0', versions.tested.wordpress) >= 0,
    `readme Tested up to ${r['Tested up to']} < WordPress ${versions.tested.wordpress}`,
  );
  need(
    compare(p['WC tested up to'] ?? '0', versions.tested.woocommerce) >= 0,
    `WC tested up to ${p['WC tested up to']} < WooCommerce ${versions.tested.woocommerce}`,
  );
  need(
    (r['WC tested up to'] ?? p['WC tested up to']) === p['WC tested up to'],
    'readme and plugin disagree on WC tested up to',
  );
  need(
    p['Requires at least'] === versions.requires.wordpress,
    `plugin Requires at least ${p['Requires at least']} is not ${versions.requires.wordpress}`,
  );
  need(r['Requires at least'] === p['Requires at least'], 'readme and plugin disagree on Requires at least');
  need(
    p['Requires PHP'] === versions.requires.php && r['Requires PHP'] === versions.requires.php,
    'Requires PHP differs',
  );
  need(p['WC requires at least'] === versions.requires.woocommerce, 'WC requires at least differs');
  // Requires Plugins is read by WordPress 6.5 and later: a lower minimum would promise a check that does not happen.
  need(
    p['Requires Plugins'] !== 'woocommerce' || compare(p['Requires at least'] ?? '0', '6.5') >= 0,
    'Requires Plugins needs Requires at least 6.5',
  );
  need(p['Tested up to'] === undefined, 'Tested up to belongs in readme.txt only');
  need(r['Stable tag'] === p.Version, 'Stable tag is not the plugin Version');
  return problems;
}

describe('the plugin headers keep up with plugins/woocommerce/tested-versions.json', () => {
  it('readme.txt and armenian-payment-gateway.php are not behind the versions the project tests against', () => {
    expect(headerProblems(README, MAIN, VERSIONS)).toEqual([]);
    expect(readmeHeaders(README)['Tested up to']).toBe(VERSIONS.tested.wordpress);
    expect(pluginHeaders(MAIN)['WC tested up to']).toBe(VERSIONS.tested.woocommerce);
  });

  it('fails for the headers the plugin had before (Tested up to 6.8, WC tested up to 9.8, Requires at least 6.2)', () => {
    const stale = README.replace(/^Tested up to: .*$/m, 'Tested up to: 6.8').replace(
      /^Requires at least: .*$/m,
      'Requires at least: 6.2',
    );
    const staleMain = MAIN.replace(/WC tested up to:\s+.*$/m, 'WC tested up to:      9.8').replace(
      /Requires at least:\s+.*$/m,
      'Requires at least:    6.2',
    );
    expect(headerProblems(stale, staleMain, VERSIONS)).toEqual([
      `readme Tested up to 6.8 < WordPress ${VERSIONS.tested.wordpress}`,
      `WC tested up to 9.8 < WooCommerce ${VERSIONS.tested.woocommerce}`,
      'readme and plugin disagree on WC tested up to',
      `plugin Requires at least 6.2 is not ${VERSIONS.requires.wordpress}`,
      'Requires Plugins needs Requires at least 6.5',
    ]);
  });

  it('the PHP harness announces the same versions', async () => {
    const { stdout } = await run('php', [
      '-r',
      `$GLOBALS['harness_serve'] = false; require '${join(ROOT, 'test/plugins/woocommerce/php/stubs.php')}'; require '${join(ROOT, 'test/plugins/woocommerce/php/stubs-woocommerce.php')}'; echo $GLOBALS['wp_version'], ' ', WC_VERSION;`,
    ]);
    expect(stdout).toBe(`${VERSIONS.tested.wordpress} ${VERSIONS.tested.woocommerce}`);
  });
});

describe('readme.txt follows WordPress.org’s readme rules', () => {
  const headers = readmeHeaders(README);

  it('has the header fields, a short description of at most 150 characters and at most 5 tags', () => {
    expect(README.split('\n')[0]).toBe('=== Armenian Payment Gateway ===');
    for (const field of [
      'Contributors',
      'Tags',
      'Requires at least',
      'Tested up to',
      'Requires PHP',
      'Stable tag',
      'License',
      'License URI',
    ]) {
      expect(headers[field], field).toBeTruthy();
    }
    expect(headers.Contributors).toMatch(/^[a-z0-9-]+(, ?[a-z0-9-]+)*$/);
    expect(headers.Tags?.split(',').length).toBeLessThanOrEqual(5);
    const short = README.split(/\n\s*\n/)[1] ?? '';
    expect(short.length).toBeGreaterThan(20);
    expect(short.length).toBeLessThanOrEqual(150);
    expect(short).not.toMatch(/[<>*`=]/);
  });

  it('has the sections, External services among them', () => {
    const sections = [...README.matchAll(/^== (.+) ==$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'Description',
      'Installation',
      'External services',
      'Frequently Asked Questions',
      'Changelog',
    ]);
  });

  it('External services names both services, what is sent and when, and links to their terms and privacy policy', () => {
    const section = README.split('== External services ==')[1]?.split('\n== ')[0] ?? '';
    for (const said of [
      'The connector',
      'The Armenian Payment Gateway',
      'connect token',
      'consumer key and the consumer secret',
      "your store's address",
      'order',
      'total',
      'currency',
      'status',
      'creation date',
      'first and last name',
      'email address',
      'When you save the settings',
      'When a buyer chooses this payment method',
      'When you refund',
    ]) {
      expect(section, said).toContain(said);
    }
    expect(section).toMatch(/^Terms of use: https:\/\/\S+$/m);
    expect(section).toMatch(/^Privacy policy: https:\/\/\S+$/m);
  });
});

/** The entries of a zip: its central directory, and each file's bytes inflated. */
function readZip(bytes: Buffer): Map<string, Buffer | null> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer | null>();
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const method = bytes.readUInt16LE(at + 10);
    const packed = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extra = bytes.readUInt16LE(at + 30);
    const comment = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataAt, dataAt + packed);
    entries.set(name, name.endsWith('/') ? null : method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(dir, file)).isFile())
    .map((file) => file.split(sep).join('/'))
    .sort();
}

describe('npm run plugin:zip', () => {
  it('is an npm script', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['plugin:zip']).toBe('node scripts/plugin-zip.mjs');
  });

  it('builds the zip a shop owner uploads: exactly the plugin’s files, under armenian-payment-gateway/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-zip-'));
    try {
      const out = join(dir, `${SLUG}.zip`);
      await run('npm', ['run', '-s', 'plugin:zip', '--', '--out', out], { cwd: ROOT });
      const entries = readZip(readFileSync(out));
      const files = filesOf(PLUGIN_DIR);
      expect(files).toEqual(
        expect.arrayContaining([
          'readme.txt',
          'uninstall.php',
          `${SLUG}.php`,
          'assets/js/blocks.js',
          'assets/js/admin.js',
        ]),
      );
      expect(files.filter((file) => file.startsWith('includes/')).length).toBeGreaterThan(5);
      const names = [...entries.keys()];
      expect(names.filter((name) => !name.endsWith('/')).sort()).toEqual(files.map((file) => `${SLUG}/${file}`));
      expect(names.filter((name) => name.endsWith('/')).sort()).toEqual([
        `${SLUG}/`,
        `${SLUG}/assets/`,
        `${SLUG}/assets/js/`,
        `${SLUG}/includes/`,
      ]);
      for (const file of files) {
        expect(entries.get(`${SLUG}/${file}`)?.equals(readFileSync(join(PLUGIN_DIR, file))), file).toBe(true);
      }
      // Nothing of the repository around the plugin.
      expect(names.some((name) => /phpcs|tested-versions|test|\.git|node_modules/.test(name))).toBe(false);
      // The same zip from the same files, whenever it is built.
      await run('node', [join(ROOT, 'scripts/plugin-zip.mjs'), '--out', join(dir, 'again.zip')]);
      expect(readFileSync(join(dir, 'again.zip')).equals(readFileSync(out))).toBe(true);
      expect(relative(dir, out)).toBe(`${SLUG}.zip`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
