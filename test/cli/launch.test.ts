/**
 * How bin/gateway and bin/connector start (bin/launch.mjs): the compiled dist/ when it was built
 * from the sources as they are, else the sources through tsx, so an edited checkout never runs
 * stale code. Run on a small tree of its own in a temporary folder.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtFromCurrentSources, launch, sourceState } from '../../bin/launch.mjs';

describe('bin/launch.mjs', () => {
  let root: string;

  const write = (path: string, text: string, mtimeSeconds?: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    if (mtimeSeconds !== undefined) utimesSync(join(root, path), mtimeSeconds, mtimeSeconds);
  };
  const stamp = () => write('dist/build-stamp.json', JSON.stringify(sourceState(root)));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'launch-'));
    write('gateway/cli/main.ts', "export const from: string = 'source';\n", 1_000_000);
    write('storage/table.ts', 'export const n: number = 1;\n', 1_000_000);
    write('dist/gateway/cli/main.js', "export const from = 'compiled';\n");
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    delete process.env.GATEWAY_FROM_SOURCE;
  });

  it('runs the compiled code when it was built from the current sources', async () => {
    stamp();
    expect(builtFromCurrentSources(root)).toBe(true);
    expect((await launch(root, 'gateway/cli/main')).from).toBe('compiled');
  });

  it('runs the sources when one is newer than the build, one was added, or there is no build', async () => {
    stamp();
    write('storage/table.ts', 'export const n: number = 2;\n', 2_000_000);
    expect(builtFromCurrentSources(root)).toBe(false);
    expect((await launch(root, 'gateway/cli/main')).from).toBe('source');

    stamp();
    expect(builtFromCurrentSources(root)).toBe(true);
    write('connector/new.ts', 'export {};\n', 1_000_000);
    expect(builtFromCurrentSources(root)).toBe(false);

    rmSync(join(root, 'dist', 'build-stamp.json'));
    expect(builtFromCurrentSources(root)).toBe(false);
  });

  it('runs the sources when GATEWAY_FROM_SOURCE=1', () => {
    stamp();
    process.env.GATEWAY_FROM_SOURCE = '1';
    expect(builtFromCurrentSources(root)).toBe(false);
  });
});
