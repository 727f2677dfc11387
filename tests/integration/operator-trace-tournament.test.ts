/**
 * A trace the regulator can verify alone (R-TRACE, A 1.3.6; docs/trace.md), over a data folder that
 * had tournament play: a real operator plays a sit & go, an MTT with rebuys and add-ons, and an MTT
 * with re-entries and bounties (one registration cancelled before the start, so a POANNUL), to their
 * winners; then `trace verify` passes on the folder (in this process and as a real `node` process),
 * and fails after any one record of each kind present is edited, reordered, deleted or cut off the
 * end (the signed heads the operator keeps catch the last: docs/trace.md "Heads").
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyStructure } from '../../shared/rules/tournament';
import { runCli } from '../../operator/cli';
import type { OperatorConfig } from '../../operator/config/config';
import { practiceAccount } from '../../operator/practice/host';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { scaledTimers } from '../../operator/tables/timers';
import type { TablePlayer } from '../../operator/tables/types';
import type { LiveTournament as Tournament } from '../../operator/tournaments/live';
import { seeded, Shover, tournamentSpec } from '../support/operator/tournament-env';
import { tempDir } from '../support/operator/temp-dir';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPEED = 40;
const timers = scaledTimers(SPEED);
const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0099', idCoffre: 1, name: 'Trace' },
  tables: [{ id: 'p1', name: 'P1', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 0 }],
};

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const config = join(dir, '..', 'lobby.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  const lines: string[] = [];
  const code = await runCli([...args, '--config', config], { out: (l) => lines.push(l), err: (l) => lines.push(l), stopSignal: () => Promise.resolve() });
  return { code, out: lines.join('\n') };
}

let t: { dir: string; cleanup: () => void };
let data: string;
let op: RunningOperator;
let n = 0;

/** A practice player with play chips and a seeded shover's brain, registered to `tournament`. */
function enter(tournament: Tournament, opts: { auto?: boolean } = {}): TablePlayer {
  const a = practiceAccount(op.accounts, 100 + n++);
  const p: TablePlayer = { accountId: a.id, name: a.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
  op.wallet.grantPlay(a.id, 100_000, { idempotencyKey: `grant:trace:${a.id}` });
  const r = tournament.register(p, tournament.version, { brain: new Shover(seeded(a.id), 0.5), auto: opts.auto });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return p;
}

beforeAll(async () => {
  t = tempDir();
  data = join(t.dir, 'data');
  const quick = { ...readyStructure('THNL', 'hyper-turbo', { rebuys: { price: 1000, fee: 100 } }), levelMinutes: 1, lateRegistrationLevels: 2 };
  const rebuy = { ...quick, rebuy: { ...quick.rebuy!, untilLevel: 2, max: 2 } };
  const knockout = { ...readyStructure('THNL', 'hyper-turbo', { reEntries: 2 }), levelMinutes: 1, lateRegistrationLevels: 2 };
  const startAt = timers.now() + 1500 * SPEED;
  op = await startOperator({
    dataDir: data,
    lobby: { config: { ...CONFIG, tables: [] }, tables: [] },
    timers,
    table: { betweenHandsMs: 200, practiceDelayMs: [5, 20] },
    durability: 'normal',
    log: () => undefined,
    tournaments: {
      practiceFillMs: null,
      specs: [
        tournamentSpec({ id: 'sng-trace', name: 'SNG', seats: 2, maxEntrants: 2, minEntrants: 2, bounty: 200 }),
        tournamentSpec({ id: 'mtt-rebuy', name: 'Rebuy', format: 'scheduled', seats: 6, maxEntrants: 12, minEntrants: 2, startAt, structure: rebuy }),
        tournamentSpec({ id: 'mtt-ko', name: 'KO', format: 'scheduled', seats: 6, maxEntrants: 12, minEntrants: 2, startAt, bounty: 300, structure: knockout }),
      ],
    },
  });
  const sng = op.tournaments.get('sng-trace-1')!;
  const mttRebuy = op.tournaments.get('mtt-rebuy')!;
  const ko = op.tournaments.get('mtt-ko')!;
  for (let i = 0; i < 6; i++) enter(mttRebuy, { auto: true });
  const ko1 = [0, 1, 2, 3, 4, 5].map(() => enter(ko));
  // R-TOURN-LEAVE: a registration cancelled before the start, refunded with its POANNUL.
  expect(ko.unregister(ko1[5].accountId)).toMatchObject({ ok: true });
  enter(sng);
  enter(sng);
  const reEntered = new Set<number>();
  const addOns = new Set<number>();
  await until(
    () => {
      // Re-entries (T/M) of busted players while registration is open; the add-on offered to each.
      if (ko.state === 'running') {
        for (const e of ko.all()) {
          if (e.out && e.place === null && e.reEntries === 0 && ko.register(e.player, ko.version, { brain: new Shover(seeded(e.player.accountId + 7), 0.5) }).ok) reEntered.add(e.player.accountId);
        }
      }
      if (mttRebuy.state === 'running') for (const e of mttRebuy.all()) if (!e.addOn && !e.out && mttRebuy.addOn(e.player.accountId).ok) addOns.add(e.player.accountId);
      return [sng, mttRebuy, ko].every((x) => x.state === 'finished');
    },
    150_000,
    () => [sng, mttRebuy, ko].map((x) => `${x.spec.id} ${x.state} ${x.remaining}`).join(', '),
  );
  expect(reEntered.size).toBeGreaterThan(0);
  await op.close();
}, 200_000);

afterAll(() => t.cleanup());

/** The kinds of records in the vault, and their IDEvt in order. */
function recordsByKind(dir: string): Map<string, number[]> {
  const db = new Database(join(dir, 'trace.sqlite'), { readonly: true });
  try {
    const m = new Map<string, number[]>();
    for (const r of db.prepare('SELECT id_evt, kind FROM records ORDER BY id_evt').all() as { id_evt: number; kind: string }[]) m.set(r.kind, [...(m.get(r.kind) ?? []), r.id_evt]);
    return m;
  } finally {
    db.close();
  }
}

/** A copy of the data folder whose vault `change` rewrites as whoever holds the file could (the append-only triggers dropped). */
function tampered(name: string, change: (db: Database.Database) => void): string {
  const copy = join(t.dir, name);
  cpSync(data, copy, { recursive: true });
  const db = new Database(join(copy, 'trace.sqlite'));
  db.exec('DROP TRIGGER records_no_update; DROP TRIGGER records_no_delete;');
  change(db);
  db.close();
  return copy;
}

describe('trace verify over a folder that had tournament play (R-TRACE, A 1.3.6)', () => {
  it('passes: every tournament movement has its record, and the chain is whole up to the signed head', async () => {
    const kinds = recordsByKind(data);
    for (const k of ['POINSCRIT', 'POJEU', 'POBILAN', 'POACHAT', 'POGAIN', 'POANNUL']) expect(kinds.has(k), k).toBe(true);
    const v = await cli(data, 'trace', 'verify', '--data', data);
    expect(v.out).toMatch(/trace chain intact/);
    expect(v.out).toMatch(/ledger cross-check/);
    expect(v.code).toBe(0);
  });

  it('passes as a real process (node operator/main.ts trace verify)', () => {
    const config = join(t.dir, 'lobby.json');
    writeFileSync(config, JSON.stringify(CONFIG));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'operator/main.ts', 'trace', 'verify', '--data', data, '--config', config], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/trace chain intact: \d+ records/);
    expect(r.status).toBe(0);
  });

  it('fails after any one record of each kind is edited, reordered, deleted or cut off the end', async () => {
    const kinds = recordsByKind(data);
    const last = Math.max(...[...kinds.values()].flat());
    let i = 0;
    for (const [kind, ids] of kinds) {
      // A record of the kind that is neither the first nor the last (so there is one on each side).
      const id = ids.find((x) => x > 1 && x < last) ?? ids[0];
      const tail = ids[ids.length - 1];
      const cases: [string, (db: Database.Database) => void][] = [
        ['edited', (db) => db.prepare("UPDATE records SET xml = replace(xml, '</Tech>', ' </Tech>') WHERE id_evt = ?").run(id)],
        [
          'reordered',
          (db) => {
            const cols = 'kind, date_evt, tech, inscription, pool, xml, prev_hash, hash';
            const other = id < last ? id + 1 : id - 1;
            db.exec(`CREATE TEMP TABLE swap AS SELECT id_evt, ${cols} FROM records WHERE id_evt IN (${id}, ${other})`);
            db.prepare('DELETE FROM records WHERE id_evt IN (?, ?)').run(id, other);
            db.prepare(`INSERT INTO records(id_evt, ${cols}) SELECT CASE id_evt WHEN ? THEN ? ELSE ? END, ${cols} FROM swap`).run(id, other, id);
          },
        ],
        ['deleted', (db) => db.prepare('DELETE FROM records WHERE id_evt = ?').run(id)],
        ['cut off the end', (db) => db.prepare('DELETE FROM records WHERE id_evt >= ?').run(tail)],
      ];
      // The vault handed over alone (no ledger to cross-check): the signed heads still catch the cut.
      const dir = tampered(`t${i++}`, (db) => db.prepare('DELETE FROM records WHERE id_evt >= ?').run(tail));
      rmSync(join(dir, 'operator.sqlite'));
      rmSync(join(dir, 'history.sqlite'));
      const v = await cli(dir, 'trace', 'verify', '--data', dir);
      expect(v.code, `${kind} cut off the end, the vault alone: ${v.out}`).toBe(1);
      expect(v.out).toMatch(/cut off the end/);
      for (const [what, change] of cases) {
        const dir = tampered(`t${i++}`, change);
        const v = await cli(dir, 'trace', 'verify', '--data', dir);
        expect(v.code, `${kind} ${what}: ${v.out}`).toBe(1);
      }
    }
  }, 120_000);
});

describe('an export verifies alone, its count and both ends sealed (R-TRACE)', () => {
  it('passes whole, with the published key; fails with its first or last record cut off and nombre lowered', async () => {
    const file = join(t.dir, 'export.xml');
    const made = await cli(data, 'trace', 'export', '--data', data, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z', '--out', file);
    expect(made.code, made.out).toBe(0);
    const key = join(data, 'trace-public-key.pem');
    const whole = await cli(t.dir, 'trace', 'verify', '--file', file, '--key', key);
    expect(whole.out).toMatch(/export intact: \d+ records/);
    expect(whole.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const n = Number(/nombre="(\d+)"/.exec(text)![1]);
    const links = [...text.matchAll(/<Maillon\b[^>]*>\n[\s\S]*?\n<\/Maillon>\n/g)].map((m) => m[0]);
    expect(links).toHaveLength(n);
    const cuts: [string, string][] = [
      ['first', text.replace(links[0], '')],
      ['last', text.replace(links[n - 1], '')],
    ];
    for (const [which, cut] of cuts) {
      const f = join(t.dir, `cut-${which}.xml`);
      writeFileSync(f, cut.replace(`nombre="${n}"`, `nombre="${n - 1}"`));
      const v = await cli(t.dir, 'trace', 'verify', '--file', f);
      expect(v.code, `${which} cut: ${v.out}`).toBe(1);
    }
  });
});

describe('a verifier opens evidence read-only and never creates it (R-TRACE)', () => {
  it('a missing folder, or a folder without a vault, is an error and stays as it was', async () => {
    const missing = join(t.dir, 'no-such-folder');
    for (const args of [
      ['trace', 'verify', '--data', missing],
      ['trace', 'export', '--data', missing, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z'],
      ['report', '--data', missing],
    ]) {
      const r = await cli(t.dir, ...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.out).toMatch(/no data folder/);
      expect(existsSync(missing)).toBe(false);
    }
    const empty = join(t.dir, 'empty-folder');
    mkdirSync(empty);
    const r = await cli(t.dir, 'trace', 'verify', '--data', empty);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no trace vault/);
    expect(readdirSync(empty)).toEqual([]);
  });
});
