/**
 * The project's import graph, read from the source: every relative `import`, `import type`,
 * `export … from` and dynamic `import()` of the TypeScript files under the given rooms. Used by
 * imports.test.ts to refuse import cycles and imports that break the layering rules
 * (docs/contributing.md).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** file (relative to the checkout, with `/`) → the project files it imports. */
export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(root: string, dir: string, into: string[]): void {
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) sourceFiles(root, path, into);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) into.push(path.split('\\').join('/'));
  }
}

function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const absolute = resolve(root, dirname(from), specifier);
  const candidates = [absolute.replace(/\.js$/, '.ts'), `${absolute}.ts`, join(absolute, 'index.ts')];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found === undefined ? undefined : relative(root, found).split('\\').join('/');
}

/** Comments are dropped first, so an import shown in a doc comment is not an import. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function readImportGraph(root: string, rooms: readonly string[]): ImportGraph {
  const files: string[] = [];
  for (const room of rooms) if (existsSync(join(root, room))) sourceFiles(root, room, files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const imports = new Set<string>();
    for (const match of withoutComments(readFileSync(join(root, file), 'utf8')).matchAll(IMPORT)) {
      const target = resolveImport(root, file, match[1] ?? match[2] ?? '');
      if (target !== undefined) imports.add(target);
    }
    graph.set(file, imports);
  }
  return graph;
}

/** Groups of two or more files that reach each other through imports (Tarjan's strongly connected components). */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
