/**
 * The layering rules of docs/contributing.md, checked over every import of the source (`import
 * type` included): no file reaches itself through its imports, and each room imports only the rooms
 * below it. A new import that breaks either fails here with the files named.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, readImportGraph } from './import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ROOMS = ['gateway', 'connector', 'plugins', 'storage', 'scripts', 'bin', 'bench', 'test'];

/** The room a file belongs to, as docs/contributing.md names them. */
function roomOf(file: string): string {
  const [top = '', second = ''] = file.split('/');
  if (top === 'gateway' && second === 'domain') return 'gateway/domain';
  if (top === 'plugins') return `plugins/${second}`;
  if (['scripts', 'bin', 'bench', 'test'].includes(top)) return 'tools';
  return top;
}

/** Parts of the gateway other services share (its runtime, outbound guard, metrics, HTTP middleware, the page kit). */
const GATEWAY_SHARED = [
  'gateway/runtime/',
  'gateway/outbound/',
  'gateway/observability/',
  'gateway/api/middleware/',
  'gateway/checkout/html.ts',
  'gateway/checkout/security.ts',
  'gateway/checkout/i18n/',
  'gateway/config.ts',
];

/** Where the connector names its platforms: the only files of it that may import a plugin. */
const CONNECTOR_WIRING = [
  'connector/platforms/registry.ts',
  'connector/runtime/',
  'connector/config.ts',
  'connector/api/app.ts',
  'connector/jobs/due-work.ts',
];

const startsWithAny = (file: string, prefixes: readonly string[]) => prefixes.some((p) => file.startsWith(p));

/** Why `from` may not import `to`, or null when it may. */
function layeringProblem(from: string, to: string): string | null {
  const a = roomOf(from);
  const b = roomOf(to);
  if (a === b || a === 'tools') return null;
  if (b === 'tools') return `${a} imports test or tool code`;
  switch (a) {
    case 'gateway/domain':
      return 'the domain rules import nothing above them';
    case 'storage':
      return b === 'gateway/domain' ? null : 'storage imports only the domain rules';
    case 'gateway':
      return ['gateway/domain', 'storage', 'plugins/browser-sdk'].includes(b)
        ? null
        : 'the gateway knows nothing of the connector or the platforms';
    case 'connector':
      if (b === 'gateway/domain' || b === 'storage') return null;
      if (b === 'gateway')
        return startsWithAny(to, GATEWAY_SHARED) ? null : "the connector uses only the gateway's shared runtime";
      return startsWithAny(from, CONNECTOR_WIRING) ? null : "only the connector's wiring files name a platform";
    case 'plugins/woocommerce':
    case 'plugins/shopify':
      if (b === 'connector' || b === 'gateway/domain' || b === 'storage') return null;
      if (b === 'gateway')
        return startsWithAny(to, GATEWAY_SHARED) ? null : "a platform uses only the gateway's shared runtime";
      return 'a platform does not import another platform';
    case 'plugins/browser-sdk':
      return 'the browser SDK stands alone';
    default:
      return `no rule for the room ${a}`;
  }
}

describe('the import graph', () => {
  const graph = readImportGraph(ROOT, ROOMS);

  it('reads the imports of the whole source', () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get('gateway/runtime/start.ts')).toContain('gateway/billing/consumption.ts');
    expect(graph.get('plugins/shopify/webhooks.ts')).toContain('plugins/shopify/delivery.ts'); // an `import type`
  });

  it('has no import cycle, `import type` included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('keeps every room to the rooms it may import', () => {
    const problems: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets) {
        const problem = layeringProblem(from, to);
        if (problem !== null) problems.push(`${from} -> ${to}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('finds a cycle through an `import type` and a re-export, and ignores imports in comments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('gateway/a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
      write('gateway/b.ts', "export * from './c.js';\nexport type B = string;\n");
      write('gateway/c.ts', "import { a } from './a.js';\n");
      write('gateway/d.ts', "/** import { a } from './e.js'; */\n// import './e.js';\nexport const d = 1;\n");
      write('gateway/e.ts', "import { d } from './d.js';\n");
      const small = readImportGraph(dir, ['gateway']);
      expect(importCycles(small)).toEqual([['gateway/a.ts', 'gateway/b.ts', 'gateway/c.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses the imports the rules forbid', () => {
    expect(layeringProblem('gateway/domain/billing.ts', 'gateway/config.ts')).not.toBeNull();
    expect(layeringProblem('storage/payment.table.ts', 'gateway/payments/payment.service.ts')).not.toBeNull();
    expect(layeringProblem('gateway/payments/payment.service.ts', 'connector/errors.ts')).not.toBeNull();
    expect(layeringProblem('connector/orders/order.service.ts', 'plugins/shopify/app.ts')).not.toBeNull();
    expect(layeringProblem('connector/platforms/registry.ts', 'plugins/shopify/driver.ts')).toBeNull();
    expect(layeringProblem('plugins/shopify/admin-platform.ts', 'plugins/woocommerce/wire.ts')).not.toBeNull();
    expect(layeringProblem('plugins/woocommerce/driver.ts', 'gateway/payments/payment.service.ts')).not.toBeNull();
    expect(layeringProblem('gateway/payments/payment.service.ts', 'test/support/gateway.ts')).not.toBeNull();
    expect(layeringProblem('test/support/gateway.ts', 'connector/errors.ts')).toBeNull();
  });
});
