/**
 * The OpenAPI document as a server serves it passes Redocly's linter (`@redocly/cli`, pinned in
 * package.json) under the project's rules (redocly.yaml: the recommended rules, the exceptions
 * explained in docs/decisions.md "OpenAPI") with no error and no warning. The linter runs offline:
 * the config turns its telemetry off and the update notice is suppressed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

interface LintProblem {
  readonly ruleId: string;
  readonly severity: 'error' | 'warn';
  readonly message: string;
  readonly location: ReadonlyArray<{ readonly pointer: string }>;
}

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number };
  readonly problems: readonly LintProblem[];
}

/** `redocly lint --format=json` of `document` under the project's config; it exits 1 when it finds errors. */
async function lint(document: unknown): Promise<LintReport> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const args = [REDOCLY, 'lint', file, '--format=json', `--config=${CONFIG}`, '--lint-config=error'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 }));
    } catch (error) {
      stdout = (error as { stdout?: string }).stdout ?? '';
      if (stdout === '') throw error;
    }
    return JSON.parse(stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const lines = (report: LintReport) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway('sqlite');
});

afterAll(async () => {
  await t?.close();
});

describe('redocly lint of the OpenAPI document', () => {
  it('finds no error and no warning in the document the server serves', async () => {
    const served = await t.call('GET', '/api/v1/openapi.json');
    expect(served.status).toBe(200);
    const report = await lint(served.body);
    expect(lines(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('reports what the rules forbid: a webhook without security, an example off its schema', async () => {
    const served = await t.call<Record<string, never>>('GET', '/api/v1/openapi.json');
    // biome-ignore lint/suspicious/noExplicitAny: the document read as plain JSON
    const document: any = structuredClone(served.body);
    delete document.webhooks['payment.refunded'].post.security;
    document.paths['/api/v1/payments'].post.requestBody.content['application/json'].example.colour = 'red';
    delete document.tags[0].description;
    const report = await lint(document);
    expect(lines(report).sort()).toEqual([
      expect.stringMatching(/^error no-invalid-media-type-examples #\/paths\/~1api~1v1~1payments\/post\/.*colour/),
      expect.stringMatching(/^error security-defined #\/webhooks\/payment\.refunded\/post: /),
      expect.stringMatching(/^warn tag-description #\/tags\/0\/description: /),
    ]);
  });
});
