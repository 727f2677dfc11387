// Import cycles, type imports included (CONVENTIONS.md "Layers you can see"; DESIGN.md §2): a cycle
// means two modules cannot be read, tested or moved apart. The graph is read with TypeScript's own
// pre-processor (comments and strings are not imports; `import type`, `export … from` and `import()`
// are), over .ts files and the <script> blocks of .vue files; tests and benchmarks are left out
// (a test may import what it tests from anywhere). `node scripts/import-cycles.mjs` prints the cycles
// and exits 1 when there is one; tests/lint/cycles.test.ts runs it in `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'release', '.git', 'test-results', 'playwright-report', 'fixtures', 'artifacts']);
const SOURCE = /\.(ts|vue)$/;
const NOT_SHIPPED = /\.(test|spec|bench)\.ts$|\.d\.ts$/;

/** The project's modules under `folders` (relative to `root`), each with the project modules it imports. */
export function importGraph(root, folders) {
  const files = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(path);
      } else if (SOURCE.test(name) && !NOT_SHIPPED.test(name)) files.push(path);
    }
  };
  for (const f of folders) walk(join(root, f));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const code = file.endsWith('.vue') ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
    const { importedFiles } = ts.preProcessFile(code, true, true);
    const deps = new Set();
    for (const { fileName: spec } of importedFiles) {
      if (!spec.startsWith('.')) continue;
      const base = resolve(dirname(file), spec);
      const found = [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')].find((p) => existsSync(p) && statSync(p).isFile());
      if (found && found !== file) deps.add(found);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one module (Tarjan), as sorted relative paths. */
export function importCycles(graph, root) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(relative(root, w).split(sep).join('/'));
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The folders that ship (DESIGN.md §2). */
export const SHIPPED = ['shared', 'electron', 'operator', 'renderer', 'scripts'];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const cycles = importCycles(importGraph(root, SHIPPED), root);
  for (const c of cycles) console.log(`cycle of ${c.length}: ${c.join(' ⇄ ')}`);
  if (cycles.length > 0) process.exit(1);
  console.log('no import cycle');
}
