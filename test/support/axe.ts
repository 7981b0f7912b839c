/**
 * Accessibility checks of a page in the browser tests: axe-core (node_modules/axe-core/axe.min.js)
 * evaluated in the page through the DevTools protocol (so the page's CSP, which allows no script
 * of ours, stays as it is), then run on the whole document.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** Every violation axe finds on the page now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  // A string: it runs in the page, whose globals (window, axe) this file's types do not know.
  const violations = (await page.evaluate(`axe.run(document).then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
  })))`)) as AxeViolation[];
  if (!Array.isArray(violations)) throw new Error('axe-core did not run in the page');
  return violations;
}

/** The serious and critical violations (what the tests refuse), as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}
