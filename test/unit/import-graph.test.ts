import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No import cycles among the project's own files, type imports included: every `import`,
// `import type`, `export ... from` and `import('literal')` of shared/, functions/, lib/ and bin/ is
// an edge, and any strongly connected component of more than one file (or a file importing
// itself) fails, naming its files. A circle of type imports still couples its files: none can be
// read, moved or split without the others.

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['shared', 'functions', 'lib', 'bin'];

type Graph = Map<string, string[]>;

/** The project-relative paths of the TypeScript sources under `folder` (declaration files excluded). */
function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'));
}

/** The relative specifiers a source imports or re-exports, type-only and dynamic (literal) ones included. */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The import graph of `sources` (project-relative path -> text): edges to the sources a relative specifier resolves to. */
function importGraph(sources: Map<string, string>): Graph {
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.posix.join(path.posix.dirname(from), specifier).replace(/\.m?js$/, '');
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => sources.has(candidate));
  };
  const graph: Graph = new Map();
  for (const [file, text] of sources) {
    graph.set(file, [...new Set(specifiersOf(text).flatMap((specifier) => resolve(file, specifier) ?? []))]);
  }
  return graph;
}

/** Tarjan's strongly connected components that are cycles: more than one file, or a file importing itself. */
function cyclesOf(graph: Graph): string[][] {
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
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const describeCycles = (cycles: string[][]) => cycles.map((cycle) => `cycle of ${cycle.length}: ${cycle.join(', ')}`);

describe('import graph', () => {
  it('counts type imports, re-exports and literal dynamic imports as edges, and finds their cycles', () => {
    const sources = new Map([
      ['shared/a.ts', `import type { B } from './b.js';\nexport type A = B;\n`],
      ['shared/b.ts', `export { c } from './c/index.js';\nexport type B = string;\n`],
      ['shared/c/index.ts', `export const c = () => import('../a.js');\n`],
      ['shared/d.ts', `import { c } from './c/index.js';\nimport { z } from 'zod';\nexport const d = [c, z];\n`],
      ['shared/e.ts', `import * as self from './e.js';\nexport const e = self;\n`],
    ]);
    const graph = importGraph(sources);
    expect(graph.get('shared/a.ts')).toEqual(['shared/b.ts']);
    expect(graph.get('shared/b.ts')).toEqual(['shared/c/index.ts']);
    expect(graph.get('shared/c/index.ts')).toEqual(['shared/a.ts']);
    expect(graph.get('shared/d.ts')).toEqual(['shared/c/index.ts']);
    expect(describeCycles(cyclesOf(graph))).toEqual([
      'cycle of 3: shared/a.ts, shared/b.ts, shared/c/index.ts',
      'cycle of 1: shared/e.ts',
    ]);
  });

  it('has no cycle among shared/, functions/, lib/ and bin/ (type imports included)', () => {
    const files = FOLDERS.flatMap(sourcesUnder);
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')])));
    // A real import of the project must resolve, or the check would see no edges at all.
    expect(graph.get('shared/runtime/container.ts')?.length).toBeGreaterThan(0);
    expect(describeCycles(cyclesOf(graph))).toEqual([]);
  });
});
