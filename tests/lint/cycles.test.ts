import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build scripts, without types (scripts/import-cycles.mjs).
import { importCycles, importGraph, SHIPPED } from '../../scripts/import-cycles.mjs';

/** Cycles still allowed, each with why: none (the old tournament class chain went with its cycle). */
const KNOWN: string[][] = [];

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});
function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'cercle-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const cyclesOf = (root: string): string[][] => importCycles(importGraph(root, ['src']), root);

describe('import cycles', () => {
  it('finds a cycle made of type imports, of re-exports and through a .vue script; not one in a comment', () => {
    const root = tree({
      'src/a.ts': "import type { B } from './b';\nexport type A = B[];\n",
      'src/b.ts': "export type { A } from './a';\nexport type B = number;\n",
      'src/c.ts': "// import { d } from './d' is only a comment here\nexport const c = 1;\n",
      'src/d.ts': "import { c } from './c';\nexport const d = c;\n",
      'src/view/V.vue': "<script setup lang=\"ts\">\nimport { w } from './w';\n</script>\n<template><p>{{ w }}</p></template>\n",
      'src/view/w.ts': "export const w = () => import('./V.vue');\n",
    });
    expect(cyclesOf(root)).toEqual([['src/a.ts', 'src/b.ts'], ['src/view/V.vue', 'src/view/w.ts']]);
  });

  it('a test file may import what it tests without making a cycle', () => {
    const root = tree({ 'src/a.ts': "export const a = 1;\n", 'src/a.test.ts': "import { a } from './a';\nexport const t = a;\n" });
    expect(cyclesOf(root)).toEqual([]);
  });

  it('the shipped code has none but the ones named above', () => {
    const root = process.cwd();
    expect(importCycles(importGraph(root, SHIPPED), root)).toEqual(KNOWN);
  });
});
