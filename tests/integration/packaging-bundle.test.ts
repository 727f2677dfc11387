import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { load } from 'js-yaml';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { builtLaunch } from '../../electron/services/embedded';

// Packaged, not only built. electron-builder puts into the app only `files` of
// electron-builder.yml plus the packages under package.json "dependencies" (never devDependencies), so
// a bundle that requires a dev-only package, or opens a file the package leaves out, works in
// development and breaks in every installer. These tests read the built bundles (npm test builds first).
const root = process.cwd();
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const config = load(readFileSync('electron-builder.yml', 'utf8')) as { files: string[]; asarUnpack: string[] };
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every built JavaScript file that runs in Node or Electron's main/utility/preload side. */
function bundles(): string[] {
  const out: string[] = [];
  for (const dir of ['out/main', 'out/preload']) {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      if (name.endsWith('.cjs') || name.endsWith('.js')) out.push(join(dir, name));
    }
  }
  return out.sort();
}

interface Load {
  readonly file: string;
  readonly kind: 'require' | 'import';
  /** The literal specifier, or null when it is computed at run time. */
  readonly spec: string | null;
  readonly line: number;
}

/** Every require() and import() call in a bundle, read with TypeScript's parser (strings are not calls). */
function loadsOf(file: string): Load[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: Load[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      if (isRequire || isImport) {
        const arg = node.arguments[0];
        const spec = arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) ? arg.text : null;
        found.push({ file, kind: isRequire ? 'require' : 'import', spec, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a bare specifier names (`@scope/name/x` → `@scope/name`). */
function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** electron-builder's own matcher for a list of patterns (what it packs, or what it unpacks from asar). */
function builderFilter(patterns: string[]): (path: string) => boolean {
  const { FileMatcher } = require('app-builder-lib/out/fileMatcher') as {
    FileMatcher: new (from: string, to: string, expand: (s: string) => string, patterns: string[]) => {
      createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean;
    };
  };
  const filter = new FileMatcher(root, '/', (s) => s, patterns).createFilter();
  return (path) => filter(resolve(root, path), statSync(resolve(root, path)));
}

describe('the built bundles load only what the package ships', () => {
  it('finds the bundles (npm test builds before these tests)', () => {
    expect(existsSync('out/main/index.cjs'), 'out/main/index.cjs is missing: run "npm run build" first').toBe(true);
    const names = bundles().map((f) => relative('out', f).split(sep).join('/'));
    for (const entry of ['main/index.cjs', 'main/webhost.cjs', 'main/embedded-child.cjs', 'main/embedded-operator.cjs', 'main/history-worker.cjs', 'preload/index.cjs']) {
      expect(names).toContain(entry);
    }
  });

  it('every require() is a Node builtin, electron, a file inside out/, or a production dependency', () => {
    const wrong: string[] = [];
    let packages = 0;
    for (const file of bundles()) {
      for (const l of loadsOf(file)) {
        if (l.spec === null) continue; // computed loads: the next test
        const where = `${l.file}:${l.line} ${l.kind}("${l.spec}")`;
        if (BUILTINS.has(l.spec) || l.spec === 'electron') continue;
        if (l.spec.startsWith('.') || l.spec.startsWith('/')) {
          const target = resolve(dirname(l.file), l.spec);
          if (!target.startsWith(resolve('out') + sep) || !existsSync(target)) wrong.push(`${where}: not a file inside out/`);
          continue;
        }
        packages++;
        const name = packageOf(l.spec);
        if (!(name in pkg.dependencies)) {
          wrong.push(`${where}: ${name} is ${name in pkg.devDependencies ? 'a devDependency' : 'not a dependency'}; the installer would not have it`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The scan saw the runtime packages (better-sqlite3, ws, electron-updater...): it did read the bundles.
    expect(packages).toBeGreaterThan(5);
  });

  it('every production dependency is loaded by a bundle: what only the renderer uses is bundled into it (a devDependency)', () => {
    // A package under "dependencies" is copied into every installer; one the renderer's bundle already
    // holds (uplot, the results chart) would ship twice.
    const loaded = new Set(bundles().flatMap((f) => loadsOf(f).flatMap((l) => (l.spec === null ? [] : [packageOf(l.spec)]))));
    expect(Object.keys(pkg.dependencies).filter((name) => !loaded.has(name))).toEqual([]);
  });

  it('the preload requires nothing but electron (a sandboxed preload cannot load npm packages)', () => {
    expect(loadsOf('out/preload/index.cjs').map((l) => l.spec)).toEqual(['electron']);
  });

  it('computed loads are only the two known ones, each loading a file the package ships', () => {
    const computed = bundles()
      .flatMap(loadsOf)
      .filter((l) => l.spec === null)
      .map((l) => `${relative('out', l.file).split(sep).join('/')} ${l.kind}`);
    // embedded-child.cjs imports the operator module the launcher names: builtLaunch → embedded-operator.cjs
    // (checked below). No other require/import takes a computed name, so no package hides from the scan.
    // (The development-only worker loader's `import('tsx/esm/api')` is a string evaluated by a Worker in
    // development, never in a package: the parser sees a string there, not a call.)
    expect(computed).toEqual(['main/embedded-child.cjs import']);
  });
});

describe('electron-builder.yml ships every file the app opens at run time', () => {
  /** Files main and the browser host open by path at run time: `join(__dirname, "...")` in the bundles. */
  function openedByPath(): string[] {
    const opened = new Set<string>();
    for (const entry of ['out/main/index.cjs', 'out/main/webhost.cjs']) {
      for (const m of readFileSync(entry, 'utf8').matchAll(/__dirname,\s*"([^"]+)"/g)) opened.add(resolve('out/main', m[1]));
    }
    const launch = builtLaunch(resolve('out/main'));
    opened.add(launch.entry);
    opened.add(launch.module);
    return [...opened].map((p) => relative(root, p).split(sep).join('/')).sort();
  }

  it('finds the preload, the renderer, the history worker and the embedded operator with its child', () => {
    expect(openedByPath()).toEqual([
      'out/main/embedded-child.cjs',
      'out/main/embedded-operator.cjs',
      'out/main/history-worker.cjs',
      'out/preload/index.cjs',
      'out/renderer',
    ]);
  });

  it('each of them exists and is packed, with every file of the renderer', () => {
    const packed = builderFilter(config.files);
    const missing: string[] = [];
    for (const path of openedByPath()) {
      if (!existsSync(path)) {
        missing.push(`${path}: not built`);
        continue;
      }
      const files = statSync(path).isDirectory() ? (readdirSync(path, { recursive: true }) as string[]).map((f) => join(path, f)) : [path];
      for (const f of files) if (!statSync(f).isDirectory() && !packed(f)) missing.push(`${f}: left out by files:`);
    }
    expect(missing).toEqual([]);
    expect(existsSync('out/renderer/index.html')).toBe(true);
    // The matcher is electron-builder's own: it does leave out what the patterns exclude.
    expect(packed('package.json')).toBe(true);
    expect(packed('electron-builder.yml')).toBe(false);
    expect(packed('tsconfig.json')).toBe(false);
  });

  it("unpacks better-sqlite3's native module from the asar (a .node cannot be loaded from inside it)", () => {
    const unpacked = builderFilter(config.asarUnpack);
    const native = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    expect(existsSync(native)).toBe(true);
    expect(unpacked(native)).toBe(true);
    expect(unpacked('node_modules/better-sqlite3/lib/database.js')).toBe(true);
    expect(unpacked('out/main/index.cjs')).toBe(false);
    expect('better-sqlite3' in pkg.dependencies).toBe(true);
  });
});
