import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { UNTYPED } from '../../scripts/eslint/typed.mjs';

// Each fence of DESIGN.md §2 is enforced by lint: a file breaking it must fail `npm run lint`.
// lintText lints source as if it stood at `filePath` in the project, with the project's config (less
// the rules that need types: a made-up file is in no TypeScript project).
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: UNTYPED });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import fences (DESIGN.md §2)', () => {
  it('shared/ may not import outside shared/', async () => {
    expect(await problems('shared/rules/bad.ts', "export { x } from '../../electron/services/settings';\n")).toEqual([
      expect.stringMatching(/^cercle\/import-fence: shared\/rules\/ may not import electron\/services\/settings/),
    ]);
    expect(await problems('shared/api/bad.ts', "import '../../renderer/src/api';\n")).toHaveLength(1);
  });

  it('shared/ is layered: validate < rules < protocol and history < exchange < api, each importing only below it', async () => {
    // The imports that were there before the layers were fenced, each now refused.
    expect(await problems('shared/protocol/bad.ts', "export { hash53 } from '../exchange/handNumber';\n")).toEqual([
      expect.stringMatching(/^cercle\/import-fence: shared\/protocol\/ may not import shared\/exchange\/handNumber/),
    ]);
    expect(await problems('shared/history/bad.ts', "export type { TournamentPlay } from '../api/tournaments';\n")).toHaveLength(1);
    expect(await problems('shared/exchange/bad.ts', "export type { TournamentPlay } from '../api/tournaments';\n")).toHaveLength(1);
    expect(await problems('shared/rules/bad.ts', "export { versionText } from '../protocol/conditions';\n")).toHaveLength(1);
    expect(await problems('shared/validate/bad.ts', "export type { HandRecord } from '../rules/record';\n")).toHaveLength(1);
    // The wire and the local history side by side: neither imports the other.
    expect(await problems('shared/history/bad.ts', "export { tournamentId } from '../protocol/tournament';\n")).toHaveLength(1);
    expect(await problems('shared/protocol/bad.ts', "export { tournamentRecordSchema } from '../history/tournament-record';\n")).toHaveLength(1);
    // Downward is allowed, at any distance.
    expect(await problems('shared/api/ok.ts', "export { hash53 } from '../validate/hash53';\nexport { tournamentRecordSchema } from '../history/tournament-record';\n")).toEqual([]);
    expect(await problems('shared/exchange/ok.ts', "export { tournamentRecordSchema } from '../history/tournament-record';\n")).toEqual([]);
    expect(await problems('shared/history/ok.ts', "export { tournamentResultShape } from '../rules/tournament/result';\n")).toEqual([]);
  });

  it('shared/ may not import node:* or npm packages', async () => {
    expect(await problems('shared/rules/bad.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n")).toEqual([
      expect.stringMatching(/may not import node module "node:fs"/),
    ]);
    expect(await problems('shared/rules/bad.ts', "import fs from 'fs';\nexport const f = fs;\n")).toHaveLength(1);
    expect(await problems('shared/rules/bad.ts', "import { WebSocket } from 'ws';\nexport const W = WebSocket;\n")).toEqual([
      expect.stringMatching(/may not import npm module "ws"/),
    ]);
  });

  it('shared/ may not use DOM-only or Node-only globals', async () => {
    expect(await problems('shared/rules/bad.ts', 'export const w = window.innerWidth;\n')).toEqual([expect.stringMatching(/no-restricted-globals.*window/)]);
    expect(await problems('shared/rules/bad.ts', 'export const d = document.title;\n')).toHaveLength(1);
    expect(await problems('shared/rules/bad.ts', 'export const e = process.env;\n')).toHaveLength(1);
    expect(await problems('shared/rules/bad.ts', "export const b = Buffer.from('x');\n")).toHaveLength(1);
  });

  it('shared/node/ holds Node code for the services and the operator, imported by neither shared/ nor renderer/', async () => {
    expect(await problems('shared/node/ok.ts', "import { readFileSync } from 'node:fs';\nimport Database from 'better-sqlite3';\nexport const f = [readFileSync, Database, process.pid];\n")).toEqual([]);
    expect(await problems('shared/rules/bad.ts', "export { lockFolder } from '../node/folder-lock';\n")).toEqual([
      expect.stringMatching(/shared\/rules\/ may not import shared\/node\/folder-lock/),
    ]);
    expect(await problems('renderer/src/bad.ts', "export { lockFolder } from '../../shared/node/folder-lock';\n")).toHaveLength(1);
    expect(await problems('operator/ok.ts', "export { lockFolder } from '../shared/node/folder-lock';\n")).toEqual([]);
    expect(await problems('electron/services/ok.ts', "export { lockFolder } from '../../shared/node/folder-lock';\n")).toEqual([]);
  });

  it('renderer/ may not import electron, node:* or electron/', async () => {
    expect(await problems('renderer/src/bad.ts', "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n")).toEqual([
      expect.stringMatching(/renderer\/ may not import electron module "electron"/),
    ]);
    expect(await problems('renderer/src/bad.ts', "import { join } from 'node:path';\nexport const j = join;\n")).toHaveLength(1);
    expect(await problems('renderer/src/bad.ts', "import { SettingsStore } from '../../electron/services/settings';\nexport const s = SettingsStore;\n")).toEqual([
      expect.stringMatching(/renderer\/ may not import electron\/services\/settings/),
    ]);
  });

  it('electron/services/ may not import electron', async () => {
    expect(await problems('electron/services/bad.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([
      expect.stringMatching(/electron\/services\/ may not import electron module "electron"/),
    ]);
    expect(await problems('electron/services/bad.ts', "import { hardenApp } from '../main/security';\nexport const h = hardenApp;\n")).toHaveLength(1);
  });

  it('test harnesses live under tests/support: shipped code may not import them, tests may', async () => {
    expect(await problems('operator/server/bad.ts', "export { TestClient } from '../../tests/support/operator/test-client';\n")).toEqual([
      expect.stringMatching(/operator\/ may not import tests\/support\/operator\/test-client/),
    ]);
    expect(await problems('operator/tables/bad.ts', "export { tempDir } from '../../tests/support/operator/temp-dir';\n")).toHaveLength(1);
    expect(await problems('electron/services/bad.ts', "export { tempDir } from '../../tests/support/operator/temp-dir';\n")).toHaveLength(1);
    expect(await problems('shared/rules/bad.ts', "export { tempDir } from '../../tests/support/operator/temp-dir';\n")).toHaveLength(1);
    expect(await problems('operator/tables/ok.test.ts', "export { tempDir } from '../../tests/support/operator/temp-dir';\n")).toEqual([]);
  });

  it('operator/tables/ may not import operator/practice/ (practice builds on tables)', async () => {
    expect(await problems('operator/tables/bad.ts', "export { PracticeHost } from '../practice/host';\n")).toEqual([
      expect.stringMatching(/operator\/tables\/ may not import operator\/practice\/host/),
    ]);
    expect(await problems('operator/practice/ok.ts', "export type { Table } from '../tables/table';\n")).toEqual([]);
    expect(await problems('operator/server/ok.ts', "export { PracticeHost } from '../practice/host';\n")).toEqual([]);
  });

  it('allowed imports pass', async () => {
    expect(await problems('shared/rules/good.ts', "import { validate } from '../validate';\nexport const v = validate;\n")).toEqual([]);
    expect(await problems('renderer/src/good.ts', "import { calls } from '../../shared/api';\nimport { ref } from 'vue';\nexport const c = [calls, ref];\n")).toEqual([]);
    expect(await problems('electron/services/good.ts', "import { join } from 'node:path';\nimport { calls } from '../../shared/api';\nexport const x = [join, calls];\n")).toEqual([]);
    expect(await problems('electron/main/good.ts', "import { app } from 'electron';\nimport { SettingsStore } from '../services/settings';\nexport const x = [app, SettingsStore];\n")).toEqual([]);
  });
});
