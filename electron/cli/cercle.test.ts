// The `cercle` command line, run as a child process exactly as a user runs it.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CORPUS = 'tests/fixtures/phh';
const FT_HAND = `${CORPUS}/FT/pokerkit-regenerated/wsop/2023/43/5/01-39-18.phh`;
const scratch = mkdtempSync(join(tmpdir(), 'cercle-cli-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cercle(args: string[], input?: string): { code: number | null; out: string[]; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/cercle.ts', ...args], {
    cwd: ROOT,
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  const out = r.stdout.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return { code: r.status, out, err: r.stderr };
}

describe('cercle --help', () => {
  it('lists the commands and says that skipped hands do not fail', () => {
    const r = cercle(['--help']);
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    expect(text).toMatch(/^Usage: cercle <command>/);
    expect(text).toMatch(/replay\s+replay PHH hand histories/);
    expect(text).toMatch(/rank\s+rank a poker hand/);
    expect(text).toMatch(/skip <file>\[#n\]: <reason>\s+not replayed, NOT counted as failed/);
  });

  it('refuses an unknown command with exit code 2', () => {
    const r = cercle(['deal']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command 'deal'/);
  });
});

describe('cercle replay', () => {
  it('replays the whole vendored corpus: one line per hand, skips not counted, the one incomplete record failed', () => {
    const r = cercle(['replay', CORPUS]);
    // The 2019 WSOP hand's record omits the button's pre-flop fold (docs/phh.md): refused, exit 1.
    expect(r.code).toBe(1);
    expect(r.out[r.out.length - 1]).toBe('103 passed, 1 failed');
    const lines = r.out.slice(0, -1);
    expect(lines).toHaveLength(113);
    expect(lines.filter((l) => l.startsWith('ok '))).toHaveLength(103);
    expect(lines.filter((l) => l.startsWith('skip '))).toHaveLength(9);
    expect(lines.filter((l) => l.startsWith('fail '))).toEqual([
      `fail ${CORPUS}/NT/phh-dataset/data/wsop/2019/42/3/00-01-07.phh: action 14 'p1 cc': R-ACTORDER: it is seat 7's turn (R-ONEHAND: a player acts only from their seat, in turn)`,
    ]);
    expect(lines).toContain(`ok ${FT_HAND}`);
    expect(lines).toContain(`ok ${CORPUS}/NT/phh-dataset/data/handhq/PS-2009-07-01_2009-07-23_25NLH_OBFU/0.25/ps NLH handhq_1-OBFUSCATED.phhs#3`);
    expect(lines).toContain(
      `skip ${CORPUS}/N2L1D/pokerkit-regenerated/wsop/2023/43/5/01-53-52.phh: N2L1D (No-limit deuce-to-seven lowball single draw) is not a decree variant (D art. 7): parsed only`,
    );
    expect(lines).toContain(`ok ${CORPUS}/PO/pokerkit-regenerated/wsop/2023/43/5/01-18-22.phh`);
  });

  it('fails a hand whose finishing stacks are wrong, naming the players, exit 1', () => {
    const file = join(scratch, 'wrong-stacks.phh');
    const text = readFileSync(join(ROOT, FT_HAND), 'utf8');
    // Recorded: [3075000, 11925000, 7750000, 3150000, 3800000]; give player 2 a chip too many.
    writeFileSync(file, text.replace('finishing_stacks = [3075000, 11925000,', 'finishing_stacks = [3075000, 11925001,'));
    const r = cercle(['replay', file]);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([`fail ${file}: final stacks differ from finishing_stacks (p2 expected 11925001, got 11925000)`, '0 passed, 1 failed']);
  });

  it('fails a hand whose action the engine refuses, with the action and the rule', () => {
    const file = join(scratch, 'refused.phh');
    const text = readFileSync(join(ROOT, FT_HAND), 'utf8');
    expect(text).toContain("'p4 cbr 400000'");
    // A limit raise of the wrong size (R-LIMIT).
    writeFileSync(file, text.replace("'p4 cbr 400000'", "'p4 cbr 450000'"));
    const index = JSON.parse(text.match(/^actions = (\[.*\])$/m)![1].replace(/'/g, '"')).indexOf('p4 cbr 400000') + 1;
    const r = cercle(['replay', file]);
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(new RegExp(`^fail ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: action ${index} 'p4 cbr 450000': R-LIMIT: `));
    expect(r.out[1]).toBe('0 passed, 1 failed');
  });

  it('fails a malformed file with its line, and goes on with the others', () => {
    const bad = join(scratch, 'malformed.phh');
    writeFileSync(bad, 'variant = "NT"\nantes = [0, 0\nmin_bet = 2\n');
    const good = join(scratch, 'good.phh');
    copyFileSync(join(ROOT, FT_HAND), good);
    const r = cercle(['replay', bad, good]);
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(new RegExp(`^fail ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 3: `));
    expect(r.out.slice(1)).toEqual([`ok ${good}`, '1 passed, 1 failed']);
  });

  it('needs a path, and refuses one that does not exist (exit 2)', () => {
    expect(cercle(['replay']).code).toBe(2);
    const missing = cercle(['replay', join(scratch, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read/);
  });
});

describe('cercle rank', () => {
  it('prints the category and the five cards that play', () => {
    const r = cercle(['rank', '--board', 'Jc 3d 5c 4h Jh', 'Ac2d']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['straight: 5c 4h 3d 2d Ac (straight, five high)']);
    const omaha = cercle(['rank', '--game', 'omaha-high', '--board', '4s5c2h5h9c', '6d9s7d8h']);
    // Two private cards only: no straight for 6-7-8-9 (R-HIGH, D art. 7 II).
    expect(omaha.out[0]).toMatch(/^two-pair: /);
  });

  it('reads hands on standard input and prints one JSON object per line, higher value better', () => {
    const r = cercle(['rank', '--game', '27-decree'], '7h5c4d3s2c\n\n8h6c4d3s2c | \nAsKsQsJsTs\n');
    expect(r.code).toBe(0);
    const rows = r.out.map((l) => JSON.parse(l) as { category: string; value: number; cards: string[] });
    expect(rows.map((x) => x.category)).toEqual(['7-5-low', '8-6-low', 'A-K-low']);
    expect(rows[0].value).toBeGreaterThan(rows[1].value);
    expect(rows[1].value).toBeGreaterThan(rows[2].value);
    expect(rows[0].cards).toEqual(['7h', '5c', '4d', '3s', '2c']);
  });

  it('names the bad input line on stderr and exits 2', () => {
    const r = cercle(['rank'], 'AsKsQsJsTs\nAsKsQsJs Xx\n');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^cercle rank: line 2: /);
    expect(r.out).toHaveLength(1);
    const unknownGame = cercle(['rank', '--game', 'badugi', 'AsKsQsJsTs']);
    expect(unknownGame.code).toBe(2);
    expect(unknownGame.err).toMatch(/unknown game 'badugi'/);
    const duplicate = cercle(['rank', 'AsAsQsJsTs']);
    expect(duplicate.code).toBe(2);
    expect(duplicate.err).toMatch(/appears twice/);
  });
});
