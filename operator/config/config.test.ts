import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIANT_CODES } from '../../shared/rules/variants';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { ConfigError, DEFAULT_CONFIG_PATH, loadConfig, practiceLobby, tablesOf } from './config';

const base = { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'T' } };
const entry = { id: 'a', name: 'A', variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 1000 } };

describe('the lobby configuration', () => {
  it('the checked-in default has real-money cash tables of all 11 variants at several stakes, and practice tables', () => {
    const { config, tables } = loadConfig(DEFAULT_CONFIG_PATH);
    expect(config.operator.idOper).toMatch(/^\d+$/);
    for (const v of VARIANT_CODES) {
      const real = tables.filter((t) => t.spec.rules.variant === v && t.spec.money === 'real');
      expect(new Set(real.map((t) => t.spec.rules.bigBlind || t.spec.rules.smallBet)).size, v).toBeGreaterThanOrEqual(2);
      expect(real.every((t) => t.practicePlayers === 0 && !t.spec.practice)).toBe(true);
      expect(tables.some((t) => t.spec.rules.variant === v && t.spec.money === 'play' && t.practicePlayers > 0)).toBe(true);
    }
    expect(new Set(tables.map((t) => t.spec.tableId)).size).toBe(tables.length);
  });

  it('expands `count` into numbered tables and applies rule overrides', () => {
    const { tables } = tablesOf({ ...base, tables: [{ ...entry, count: 3, minRaise: 'double', rake: { basisPoints: 250, cap: 50, noFlopNoDrop: true } }] });
    expect(tables.map((t) => t.spec.tableId)).toEqual(['a-1', 'a-2', 'a-3']);
    expect(tables[0].spec.rules).toMatchObject({ minRaise: 'double', rake: { basisPoints: 250, cap: 50 }, smallBlind: 5, bigBlind: 10 });
  });

  it.each([
    [{ ...entry, seats: 11 }, /seats: outside 2..10/],
    [{ ...entry, variant: '7SHL', seats: 8, stakes: { ante: 5, bringIn: 10, smallBet: 20 } }, /R-SEATS: 7SHL is played at most 7/],
    [{ ...entry, stakes: { smallBlind: 20, bigBlind: 10 } }, /R-FORCED: the small blind may not exceed the big blind \(smallBlind\)/],
    [{ ...entry, variant: 'THL', stakes: { smallBlind: 5, bigBlind: 10, smallBet: 20 } }, /R-LIMIT/],
    [{ ...entry, practicePlayers: 2 }, /practice players sit at play-money tables only/],
    [{ ...entry, buyIn: { min: 1000, max: 400 } }, /buyIn.min 1000 is more than buyIn.max 400/],
    [{ ...entry, colour: 'green' }, /unexpected field "colour"/],
    // D art. 7 III: "les joueurs engagent un ante".
    [{ ...entry, variant: '7SHL', seats: 7, stakes: { ante: 0, bringIn: 10, smallBet: 20 } }, /R-FORCED: D art. 7 III.*\(ante\)/],
    [{ ...entry, variant: '7SLL', seats: 7, stakes: { bringIn: 10, smallBet: 20 } }, /R-FORCED: D art. 7 III.*\(ante\)/],
  ])('refuses a bad entry with a message naming it (%#)', (bad, message) => {
    expect(() => tablesOf({ ...base, tables: [bad] }, 'lobby.json')).toThrow(message);
    expect(() => tablesOf({ ...base, tables: [bad] }, 'lobby.json')).toThrow(ConfigError);
  });

  it('refuses twice the same table id, and a file that is not JSON', () => {
    expect(() => tablesOf({ ...base, tables: [entry, entry] })).toThrow(/table id a is used twice/);
    const t = tempDir();
    try {
      const f = join(t.dir, 'x.json');
      writeFileSync(f, '{ nope');
      expect(() => loadConfig(f)).toThrow(/is not JSON/);
      expect(() => loadConfig(join(t.dir, 'missing.json'))).toThrow(/cannot read/);
    } finally {
      t.cleanup();
    }
  });

  it('every Stud table of the default and embedded lobbies has an ante (D art. 7 III)', () => {
    const stud = [...loadConfig(DEFAULT_CONFIG_PATH).tables, ...practiceLobby().tables].filter((t) => t.spec.rules.bringIn > 0);
    expect(new Set(stud.map((t) => t.spec.rules.variant))).toEqual(new Set(['7SHL', '7SJL', '7SLL']));
    for (const t of stud) expect(t.spec.rules.ante, t.spec.tableId).toBeGreaterThanOrEqual(1);
  });

  it('the embedded lobby has one practice table of every variant', () => {
    const { tables } = practiceLobby();
    expect(tables.map((t) => t.spec.rules.variant).sort()).toEqual([...VARIANT_CODES].sort());
    expect(tables.every((t) => t.spec.money === 'play' && t.spec.practice && t.practicePlayers > 0)).toBe(true);
  });
});
