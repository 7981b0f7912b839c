/**
 * One request of the WordPress plugin inside the PHP harness (`php/harness.php`), in a store whose
 * plugin talks to a real connector: the harness's last output line is what the scenario saw. Fails
 * the test on anything written to stderr, on the connect token printed, and on a PHP error.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);
const HARNESS = fileURLToPath(new URL('./php/harness.php', import.meta.url));

export interface HarnessSite {
  readonly connectorUrl: string;
  readonly token: string;
  /** The store's home URL (the fake WooCommerce's). */
  readonly siteUrl: string;
}

export async function runPluginScenario<T extends { errors: unknown[] }>(
  site: HarnessSite,
  scenario: string,
  options: Record<string, unknown> = {},
): Promise<T> {
  const { stdout, stderr } = await run('php', [HARNESS, scenario, JSON.stringify(options)], {
    env: {
      ...process.env,
      HARNESS_CONNECTOR_URL: site.connectorUrl,
      HARNESS_CONNECT_TOKEN: site.token,
      HARNESS_SITE_URL: site.siteUrl,
    },
    timeout: 20_000,
  });
  expect(stderr).toBe('');
  expect(stdout).not.toContain(site.token);
  const lines = stdout.trim().split('\n');
  const outcome = JSON.parse(lines[lines.length - 1] ?? 'null') as T;
  expect(outcome.errors).toEqual([]);
  return outcome;
}
