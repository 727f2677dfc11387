// `cercle convert` and `cercle export` (docs/exchange.md): run in-process over temporary files, and
// once through the real entry point to see that the commands are registered.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TournamentRecordView } from '../../../shared/api';
import { canonicalRecord, detectFormat, exportHands, importHands, tournamentNumber, writePokerstarsSummaries, type ExchangeHand } from '../../../shared/exchange';
import { prng, randomRecord } from '../../../shared/history/test-support';
import { HistoryStore } from '../../services/history/store';
import type { CliIo, Command } from '../command';
import { convertCommand } from './convert';
import { HISTORY_FILE, exportCommand } from './export';

const ROOT = resolve(__dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'cercle-exchange-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(cmd: Command, args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    lines: async function* () {},
  };
  const code = await cmd.run(args, io);
  return { code, out, err };
}

const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

function sample(n: number, seed: number): ExchangeHand[] {
  const rng = prng(seed);
  const codes = ['THNL', 'O4JPL', '7SJL', '2T7TD', 'THL'] as const;
  return Array.from({ length: n }, (_, i) => ({
    record: randomRecord(codes[i % codes.length], rng, String(5000 + i)),
    meta: { tableName: `Table ${i}`, endedAt: Date.UTC(2026, 10, 1, 10, i) },
  }));
}

describe('cercle convert', () => {
  const hands = sample(6, 1);
  const pojeu = join(scratch, 'in.xml');
  writeFileSync(pojeu, exportHands('pojeu', hands));

  it('POJEU → PHH → PokerStars text → POJEU: the same hands all the way', async () => {
    const phh = join(scratch, 'c.phhs');
    const ps = join(scratch, 'c.txt');
    const back = join(scratch, 'c.xml');
    expect(await run(convertCommand, ['--to', 'phh', pojeu, phh])).toMatchObject({ code: 0, out: ['6 hands converted from pojeu to phh: ' + phh] });
    expect(detectFormat(readFileSync(phh, 'utf8'))).toBe('phh');
    expect((await run(convertCommand, ['--to', 'pokerstars', phh, ps])).code).toBe(0);
    expect(readFileSync(ps, 'utf8')).toMatch(/^PokerStars Hand #5000: Hold'em No Limit/);
    expect((await run(convertCommand, ['--to', 'pojeu', phh, back])).code).toBe(0);
    const r = importHands('pojeu', readFileSync(back, 'utf8'));
    expect(r.ok && r.hands.map((h) => canonicalRecord(h.record))).toEqual(hands.map((h) => canonicalRecord(h.record)));
  });

  it('a corrupt input: exit 1, the line named, nothing written', async () => {
    const text = readFileSync(pojeu, 'utf8').split('\n');
    const k = text.findIndex((l) => l.includes('<CaveApres>'));
    text[k] = text[k].replace(/<CaveApres>[\d.]+</, '<CaveApres>1.00<');
    const bad = join(scratch, 'bad.xml');
    writeFileSync(bad, text.join('\n'));
    const out = join(scratch, 'never.phh');
    const r = await run(convertCommand, ['--to', 'phh', bad, out]);
    expect(r.code).toBe(1);
    const joueur = text.slice(0, k).map((l) => l.trim()).lastIndexOf('<Joueur>') + 1;
    expect(r.err[0]).toMatch(new RegExp(`bad\\.xml: line ${joueur}: seat \\d+: CaveApres 1\\.00 .*nothing converted`));
    expect(existsSync(out)).toBe(false);
  });

  it('an input over the stated bound (32 MiB) is refused before it is read, nothing written', async () => {
    // 200 MB, sparse: nothing on disk, and nothing should be read of it.
    const big = join(scratch, 'big.txt');
    writeFileSync(big, '');
    truncateSync(big, 200 * 1024 * 1024);
    const out = join(scratch, 'big.phh');
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    const r = await run(convertCommand, ['--to', 'phh', big, out]);
    const grewMiB = Math.round((process.memoryUsage().rss - rss) / 1024 / 1024);
    console.log(`a 200 MB input refused in ${Date.now() - started} ms, memory +${grewMiB} MiB: ${r.err.join(' ')}`);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([`cercle convert: ${big}: the file has 200 MiB; at most 32 MiB are read at once: split it (docs/exchange.md) (nothing converted)`]);
    expect(existsSync(out)).toBe(false);
  });

  it('a hand over the limits the history can hold (a 500-character name): exit 1, its line, nothing written', async () => {
    // Another tool's POJEU (no Cercle extension in Info): the names are the file's.
    const text = readFileSync(pojeu, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*<Info>.*<\/Info>\s*$/.test(l))
      .join('\n');
    const name = /<IDJoueur>([^<]+)<\/IDJoueur>/.exec(text)![1];
    const long = join(scratch, 'long.xml');
    const changed = text.split(`<IDJoueur>${name}</IDJoueur>`).join(`<IDJoueur>${'n'.repeat(500)}</IDJoueur>`);
    writeFileSync(long, changed);
    const out = join(scratch, 'long.phh');
    const r = await run(convertCommand, ['--to', 'phh', long, out]);
    expect(r.code).toBe(1);
    const line = changed.slice(0, changed.indexOf('n'.repeat(500))).split('\n').length;
    expect(r.err[0]).toMatch(new RegExp(`long\\.xml: line ${line}: hand \\d+: the player name at seat \\d+ has 500 characters; at most 64 \\(nothing converted\\)`));
    expect(existsSync(out)).toBe(false);
  });

  it('usage: exit 2 without --to, with an unknown format or a missing file argument; unreadable input: exit 1', async () => {
    expect((await run(convertCommand, [pojeu, 'x'])).code).toBe(2);
    expect((await run(convertCommand, ['--to', 'json', pojeu, 'x'])).code).toBe(2);
    expect((await run(convertCommand, ['--to', 'phh', pojeu])).code).toBe(2);
    expect((await run(convertCommand, ['--to', 'phh', join(scratch, 'nope.xml'), 'x'])).code).toBe(1);
    const junk = join(scratch, 'junk.txt');
    writeFileSync(junk, 'hello\n');
    expect(await run(convertCommand, ['--to', 'phh', junk, 'x'])).toMatchObject({ code: 1, err: [expect.stringMatching(/line 1: not POJEU XML, PHH or PokerStars/)] });
  });
});

describe('cercle export', () => {
  const data = join(scratch, 'data');
  const rng = prng(77);
  // Three days of hands; the period asked for is the middle two.
  const stored = [
    { day: local(2026, 3, 9), code: 'THNL' },
    { day: local(2026, 3, 10, 0), code: 'O4HPL' },
    { day: local(2026, 3, 10, 23), code: '7SHL' },
    { day: local(2026, 3, 11, 9), code: '2T7TD' },
    { day: local(2026, 3, 12, 1), code: 'THL' },
  ] as const;
  const records = stored.map((s, i) => randomRecord(s.code, rng, `H-${i}`));
  const store = HistoryStore.open(join(data, HISTORY_FILE));
  stored.forEach((s, i) => {
    const r = store.addHand({ playedAt: s.day, tableId: `T${i}`, money: 'play', heroSeat: records[i].seats[0].seat }, records[i]);
    if (!r.stored) throw new Error(JSON.stringify(r));
  });
  store.close();

  for (const format of ['pojeu', 'phh', 'pokerstars'] as const) {
    it(`--format ${format}: the hands of the period, oldest first, that read back to the stored records`, async () => {
      const out = join(scratch, `period.${format}`);
      const r = await run(exportCommand, ['--from', '2026-03-10', '--to', '2026-03-11', '--format', format, '--data', data, out]);
      expect(r).toMatchObject({ code: 0, out: [`3 hands exported (${format}): ${out}`] });
      const back = importHands(format, readFileSync(out, 'utf8'));
      if (!back.ok) throw new Error(back.message);
      // Play-money hands: every format says so (POJEU and PHH in the extension, PokerStars text by its
      // "(Play Money)" marker); POJEU also writes whole chips.
      const money = { money: 'play' };
      expect(back.hands.map((h) => h.meta)).toEqual([1, 2, 3].map((i) => ({ tableName: `T${i}`, endedAt: Math.floor(stored[i].day / 1000) * 1000, ...money })));
      if (format === 'pojeu') expect(readFileSync(out, 'utf8')).not.toMatch(/<CaveAvant>\d+\.\d\d</);
      if (format !== 'pokerstars') expect(back.hands.map((h) => canonicalRecord(h.record))).toEqual([1, 2, 3].map((i) => canonicalRecord(records[i])));
      else expect(back.hands.map((h) => h.record.actions.length)).toEqual([1, 2, 3].map((i) => canonicalRecord(records[i]).actions.length));
    });
  }

  it('--format pokerstars-summary: the tournaments that ended in the period; a tournament hand is written with its tournament', async () => {
    const tdata = join(scratch, 'tdata');
    const st = HistoryStore.open(join(tdata, HISTORY_FILE));
    const t: TournamentRecordView = { tournamentId: 'sng-thnl-6-1', name: 'SNG', variant: 'THNL', money: 'real', format: 'sit-and-go', kinds: '', buyIn: 450, fee: 50, entries: 6, registeredAt: local(2026, 3, 10, 10), startedAt: local(2026, 3, 10, 11), endedAt: local(2026, 3, 10, 13), place: 1, prize: 2700, bounties: 0, rebuys: 0, addOns: 0, reEntries: 0, spent: 500, hands: 0 };
    expect(st.putTournament(t)).toEqual({ ok: true });
    expect(st.putTournament({ ...t, tournamentId: 'sng-thnl-6-2', registeredAt: local(2026, 3, 8, 10), startedAt: local(2026, 3, 8, 11), endedAt: local(2026, 3, 8, 13) })).toEqual({ ok: true });
    const rec = randomRecord('THNL', rng, 'TH-1');
    const hero = rec.seats.find((x) => x.dealtIn)!;
    expect(st.addHand({ playedAt: local(2026, 3, 10, 12), tableId: 'sng-thnl-6-1-t1', money: 'real', heroSeat: hero.seat, tournament: { tournamentId: t.tournamentId, level: 1 } }, rec)).toMatchObject({ stored: true });
    st.close();
    const out = join(scratch, 'summaries.txt');
    expect(await run(exportCommand, ['--from', '2026-03-10', '--to', '2026-03-11', '--format', 'pokerstars-summary', '--data', tdata, out])).toMatchObject({ code: 0, out: [`1 tournament summary exported (pokerstars-summary): ${out}`] });
    expect(readFileSync(out, 'utf8')).toBe(writePokerstarsSummaries([{ tournament: { ...t, hands: 1 }, player: hero.player }]));
    const hands = join(scratch, 'thands.txt');
    expect((await run(exportCommand, ['--from', '2026-03-10', '--to', '2026-03-11', '--format', 'pokerstars', '--data', tdata, hands])).code).toBe(0);
    expect(readFileSync(hands, 'utf8').split('\n')[0]).toMatch(new RegExp(`^PokerStars Hand #\\d+: Tournament #${tournamentNumber(t.tournamentId)}, €4\\.50\\+€0\\.50 EUR Hold'em No Limit - Level II `));
  });

  it('an empty period writes an empty file; no history, bad dates and a missing format are refused', async () => {
    const out = join(scratch, 'empty.txt');
    expect((await run(exportCommand, ['--from', '2025-01-01', '--to', '2025-01-02', '--format', 'pokerstars', '--data', data, out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect((await run(exportCommand, ['--from', '2026-03-10', '--to', '2026-03-11', '--format', 'phh', '--data', join(scratch, 'none'), out])).code).toBe(1);
    expect((await run(exportCommand, ['--from', '2026-02-30', '--to', '2026-03-11', '--format', 'phh', '--data', data, out])).code).toBe(2);
    expect((await run(exportCommand, ['--from', '2026-03-12', '--to', '2026-03-11', '--format', 'phh', '--data', data, out])).code).toBe(2);
    expect((await run(exportCommand, ['--from', '2026-03-10', '--to', '2026-03-11', '--data', data, out])).code).toBe(2);
  });

  it('runs from the command line as `cercle export` and `cercle convert`', () => {
    const out = join(scratch, 'cli.txt');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/cercle.ts', 'export', '--from', '2026-03-09', '--to', '2026-03-12', '--format', 'pokerstars', '--data', data, out], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^5 hands exported \(pokerstars\)/);
    const c = spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/cercle.ts', 'convert', '--to', 'pojeu', out, join(scratch, 'cli.xml')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(c.status).toBe(0);
    expect(readFileSync(join(scratch, 'cli.xml'), 'utf8')).toMatch(/<Evenements>/);
  });
});
