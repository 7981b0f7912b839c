/**
 * The curl commands of the README and docs/*.md, as a reader pastes them: every one names the
 * service at `http://localhost:8080` (where `npm start` serves, with the key it prints in `$KEY`),
 * quotes any address holding a character a shell would expand (`?`, `*`, `[` are globs in zsh, `&`
 * ends a command), and is a whole shell command.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BASE = 'http://localhost:8080';

interface Example {
  readonly file: string;
  readonly command: string;
}

/** Whether `text` ends inside a quoted string (single or double quotes, `\\` escapes outside single ones). */
function insideQuotes(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quote !== "'") i += 1;
    else if (quote === null && (c === '"' || c === "'")) quote = c;
    else if (c === quote) quote = null;
  }
  return quote !== null;
}

/** Every `curl` of the fenced shell blocks of `file`: its lines up to the end of the command. */
function curlsOf(file: string): Example[] {
  const examples: Example[] = [];
  for (const block of readFileSync(file, 'utf8').matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const lines = (block[1] ?? '').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*curl\b/.test(lines[i] ?? '')) continue;
      let command = lines[i] ?? '';
      while ((command.endsWith('\\') || insideQuotes(command)) && i + 1 < lines.length) {
        i += 1;
        command = `${command}\n${lines[i] ?? ''}`;
      }
      examples.push({ file, command });
    }
  }
  return examples;
}

const FILES = [
  'README.md',
  ...readdirSync('docs').flatMap((name) => (name.endsWith('.md') ? [join('docs', name)] : [])),
];
const EXAMPLES = FILES.flatMap(curlsOf);

/** The addresses a command asks, as written (quoted or not). */
function addresses(command: string): { readonly url: string; readonly quoted: boolean }[] {
  return [...command.matchAll(/(["']?)(https?:\/\/[^\s"']+)\1/g)].map((m) => ({
    url: m[2] ?? '',
    quoted: (m[1] ?? '') !== '',
  }));
}

describe('curl examples of the docs', () => {
  it('are found in the README and the API guide', () => {
    expect(EXAMPLES.filter((e) => e.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(EXAMPLES.filter((e) => e.file === join('docs', 'api.md')).length).toBeGreaterThanOrEqual(20);
  });

  it.each(EXAMPLES.map((e) => [`${e.file}: ${e.command.replace(/\s+/g, ' ').slice(0, 90)}`, e] as const))(
    '%s',
    (_, example) => {
      const asked = addresses(example.command);
      expect(asked.length, example.command).toBeGreaterThanOrEqual(1);
      // The first address is the request's; others are in bodies (return_url, callback_url...).
      expect(asked[0]?.url.startsWith(`${BASE}/`), example.command).toBe(true);
      for (const { url, quoted } of asked) {
        if (/[?*[\]&]/.test(url)) expect(quoted, `${url} must be quoted`).toBe(true);
      }
      const parsed = spawnSync('bash', ['-n', '-c', example.command], { encoding: 'utf8' });
      expect(parsed.status, parsed.stderr).toBe(0);
    },
  );

  it('catches an unquoted address with a query, and another base address', () => {
    const bad = `curl ${BASE}/api/v1/customers?per_page=25 -H "X-Service-Key: $KEY"`;
    expect(addresses(bad)).toEqual([{ url: `${BASE}/api/v1/customers?per_page=25`, quoted: false }]);
    expect(addresses('curl "https://gateway.example.am/api/v1/billing/pricing"')[0]).toEqual({
      url: 'https://gateway.example.am/api/v1/billing/pricing',
      quoted: true,
    });
  });
});
