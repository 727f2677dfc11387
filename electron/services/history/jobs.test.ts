/**
 * The history's jobs in real worker threads on real SQLite files: export a period and import it back
 * (equal records, duplicates counted the second time), a corrupt file (its line, nothing stored), a
 * cancelled import (nothing stored), main's writes held while an import writes and stored after, and
 * the chunked export writing exactly what `exportHands` writes at once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalRecord, EXCHANGE_FILE_MAX_BYTES, exportHands, importHands, type ExchangeFormat } from '../../../shared/exchange';
import { HAND_ID_MAX, PLAYER_NAME_MAX } from '../../../shared/protocol/limits';
import { generateHands } from '../../../shared/history/generate';
import { fillHistory } from './generate';
import { HistoryJobs, type HistoryJobView } from './jobs';
import { HistoryStore } from './store';
import { ChunkedExport, heroSeats, parseInChunks } from './worker';

const END = Date.UTC(2026, 10, 1);

let dir: string;
const open: { close(): void }[] = [];
const jobsList: HistoryJobs[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-jobs-'));
});
afterEach(async () => {
  for (const j of jobsList.splice(0)) await j.close();
  for (const s of open.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

function store(name: string): HistoryStore {
  const s = HistoryStore.open(join(dir, name, 'history.sqlite'), { now: () => END });
  open.push(s);
  return s;
}

function jobs(s: HistoryStore, name: string, events: HistoryJobView[] = []): HistoryJobs {
  const j = new HistoryJobs({ store: s, dataDir: join(dir, name), emit: (v) => events.push(v), now: () => END, progressMs: 0 });
  jobsList.push(j);
  return j;
}

async function finished(j: HistoryJobs, r: { ok: boolean; jobId?: string; reason?: string }): Promise<HistoryJobView> {
  if (!r.ok || r.jobId === undefined) throw new Error(r.reason);
  await j.ended(r.jobId);
  return j.view(r.jobId)!;
}

describe('the chunked export', () => {
  const hands = [...generateHands({ hands: 9, seed: 5, end: END, days: 10 })].map((h) => ({ record: h.record, meta: { tableName: h.meta.tableId, endedAt: h.meta.playedAt, money: h.meta.money } }));
  for (const format of ['pojeu', 'phh', 'pokerstars'] as ExchangeFormat[]) {
    it(`writes ${format} exactly as exportHands, whatever the chunks`, () => {
      for (const n of [0, 1, 2, 3, 5, 6, 9]) {
        for (const chunk of [1, 2, 3]) {
          const file = join(dir, `x-${format}-${n}-${chunk}`);
          const out = new ChunkedExport(format, file, chunk);
          for (const h of hands.slice(0, n)) out.add(h);
          out.finish();
          expect(readFileSync(file, 'utf8'), `${n} hands, chunks of ${chunk}`).toBe(exportHands(format, hands.slice(0, n)));
        }
      }
    });
  }
});

describe('the chunked import', () => {
  const hands = [...generateHands({ hands: 40, seed: 6, end: END, days: 10 })].map((h) => ({ record: h.record, meta: { tableName: h.meta.tableId, endedAt: h.meta.playedAt, money: h.meta.money } }));
  for (const format of ['pojeu', 'phh', 'pokerstars'] as ExchangeFormat[]) {
    it(`reads ${format} a piece at a time as importHands reads it whole: the hands, or the same line`, () => {
      const text = exportHands(format, hands);
      const progress: number[] = [];
      const whole = importHands(format, text);
      const chunked = parseInChunks(format, text, (done) => progress.push(done), () => false, 7);
      expect(chunked).toEqual(whole);
      expect(progress).toEqual([7, 14, 21, 28, 35, 40]);
      // Corrupt one line in several places: the first problem's line is the file's.
      const lines = text.split('\n');
      for (const at of [3, Math.floor(lines.length / 3), Math.floor(lines.length / 2) + 1, lines.length - 4]) {
        const bad = [...lines];
        bad[at] = bad[at].replace(/\d/, (d) => String((Number(d) + 3) % 10)).replace(/^\s*$/, 'garbage');
        const w = importHands(format, bad.join('\n'));
        const c = parseInChunks(format, bad.join('\n'), () => undefined, () => false, 7);
        if (w.ok) expect(c).toMatchObject({ ok: true });
        else expect(c, `line ${at + 1}`).toEqual(w);
      }
      expect(parseInChunks(format, text, () => undefined, () => true, 7)).toBe('cancelled');
    });
  }
});

describe('history jobs in worker threads', () => {
  it('exports a period and imports it into another history: the same hands, then only duplicates', async () => {
    const a = store('a');
    fillHistory(a, { hands: 400, seed: 11, end: END, days: 30 });
    // From the 101st hand on: a period, not the whole history.
    const first = a.page({}, { sort: 'time', dir: 'asc', limit: 101 });
    if (!first.ok) throw new Error(first.reason);
    const from = first.hands[100].playedAt;
    const ja = jobs(a, 'a');
    const events: HistoryJobView[] = [];
    const ex = await finished(ja, ja.exportHands({ from, to: END }, 'pojeu'));
    expect(ex.state).toBe('done');
    expect(ex.total).toBeGreaterThan(200);
    expect(ex.total).toBeLessThanOrEqual(300);
    expect(ex.file).toMatch(/\.xml$/);
    expect(ex.download).toMatch(/^\/download\/[\w-]+\?key=[\w-]+$/);
    const key = new URL(ex.download!, 'http://x').searchParams.get('key')!;
    expect(ja.download(ex.jobId, key)?.path).toBe(ex.file);
    expect(ja.download(ex.jobId, key.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')))).toBeNull();
    const text = readFileSync(ex.file!, 'utf8');

    const b = store('b');
    const jb = jobs(b, 'b', events);
    const up = jb.uploadBegin();
    if (!up.ok) throw new Error(up.reason);
    for (let i = 0, k = 0; i < text.length; i += up.chunkChars, k++) expect(jb.uploadChunk(up.uploadId, k, text.slice(i, i + up.chunkChars)).ok).toBe(true);
    const im = await finished(jb, jb.importUpload(up.uploadId, 'auto'));
    expect(im).toMatchObject({ state: 'done', duplicates: 0, skipped: 0 });
    expect(im.stored).toBe(ex.total);
    expect(b.count()).toBe(ex.total);
    expect(events.some((e) => e.state === 'running' && e.message === 'store'), JSON.stringify(events)).toBe(true);
    // Every hand as it was: record (canonical), time to the second, table, money, hero seat and net.
    let cursor: string | null = null;
    let n = 0;
    do {
      const p = a.page({ from, to: END }, { sort: 'time', dir: 'asc', limit: 100, cursor });
      if (!p.ok) throw new Error(p.reason);
      for (const s of p.hands) {
        const x = a.getHand(s.handId);
        const y = b.getHand(s.handId);
        if (!x.ok || !y.ok) throw new Error(`hand ${s.handId}`);
        expect(canonicalRecord(y.record)).toEqual(canonicalRecord(x.record));
        expect({ ...y.summary, playedAt: 0 }).toEqual({ ...x.summary, playedAt: 0 });
        expect(Math.floor(y.summary.playedAt / 1000)).toBe(Math.floor(x.summary.playedAt / 1000));
        n++;
      }
      cursor = p.next;
    } while (cursor !== null);
    expect(n).toBe(ex.total);

    // Again: nothing new.
    writeFileSync(join(dir, 'again.xml'), text);
    const again = await finished(jb, jb.importFile(join(dir, 'again.xml'), 'pojeu'));
    expect(again).toMatchObject({ state: 'done', stored: 0, duplicates: ex.total });
  }, 60_000);

  it('exports one hand on its own: the file holds that hand alone; an unknown id exports none', async () => {
    const a = store('a');
    fillHistory(a, { hands: 60, seed: 12, end: END, days: 5 });
    const p = a.page({}, { sort: 'time', dir: 'asc', limit: 30 });
    if (!p.ok) throw new Error(p.reason);
    const id = p.hands[17].handId;
    const ja = jobs(a, 'a');
    // The filter is not used when a hand is named.
    const ex = await finished(ja, ja.exportHands({ result: 'won' }, 'pojeu', id));
    expect(ex).toMatchObject({ state: 'done', done: 1, total: 1 });
    const read = importHands('pojeu', readFileSync(ex.file!, 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.hands.map((h) => h.record.handId)).toEqual([id]);
    const stored = a.getHand(id);
    if (!stored.ok) throw new Error(stored.reason);
    expect(canonicalRecord(read.hands[0].record)).toEqual(canonicalRecord(stored.record));
    const none = await finished(ja, ja.exportHands({}, 'phh', 'no-such-hand'));
    expect(none).toMatchObject({ state: 'done', done: 0, total: 0 });
    expect(importHands('phh', readFileSync(none.file!, 'utf8'))).toEqual({ ok: true, hands: [] });
  }, 60_000);

  it('a corrupt file reports its line and stores nothing', async () => {
    const a = store('a');
    fillHistory(a, { hands: 30, seed: 3, end: END, days: 5 });
    const ja = jobs(a, 'a');
    const ex = await finished(ja, ja.exportHands({}, 'pokerstars'));
    const lines = readFileSync(ex.file!, 'utf8').split('\n');
    // A bad action near the end: every hand before it is good, and still none is stored.
    const bad = lines.findLastIndex((l) => / calls \d+$/.test(l));
    lines[bad] = lines[bad].replace(/calls \d+$/, 'calls 999999999');
    writeFileSync(join(dir, 'bad.txt'), lines.join('\n'));
    const b = store('b');
    const jb = jobs(b, 'b');
    const im = await finished(jb, jb.importFile(join(dir, 'bad.txt'), 'auto'));
    expect(im.state).toBe('failed');
    expect(im.line).toBe(bad + 1);
    expect(im.message).toBeTruthy();
    expect(b.count()).toBe(0);
  }, 60_000);

  it('a file over the limits every later call checks is refused with its line, nothing stored', async () => {
    const a = store('a');
    fillHistory(a, { hands: 30, seed: 5, end: END, days: 5 });
    const ja = jobs(a, 'a');
    const b = store('b');
    const jb = jobs(b, 'b');

    // A POJEU Pool of 300 characters (before: stored, then historyPage and historyHand failed on it).
    // Without Cercle's extension (Info), as another operator's file: the Pool is the hand's id.
    const xml = readFileSync((await finished(ja, ja.exportHands({}, 'pojeu'))).file!, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*<Info>.*<\/Info>\s*$/.test(l));
    const poolLine = xml.findIndex((l, i) => i > 40 && /<Pool>[^<]+<\/Pool>/.test(l));
    xml[poolLine] = xml[poolLine].replace(/<Pool>[^<]+<\/Pool>/, `<Pool>${'P'.repeat(300)}</Pool>`);
    writeFileSync(join(dir, 'pool.xml'), xml.join('\n'));
    const pool = await finished(jb, jb.importFile(join(dir, 'pool.xml'), 'auto'));
    expect(pool).toMatchObject({ state: 'failed', line: poolLine + 1 });
    expect(pool.message).toContain(`at most ${HAND_ID_MAX}`);
    expect(b.count()).toBe(0);

    // A player name of 500 characters.
    const text = readFileSync((await finished(ja, ja.exportHands({}, 'pokerstars'))).file!, 'utf8');
    const name = /^Seat \d+: (\S+) \(/m.exec(text)![1];
    const long = text.split(name).join('N'.repeat(500));
    writeFileSync(join(dir, 'name.txt'), long);
    const named = await finished(jb, jb.importFile(join(dir, 'name.txt'), 'auto'));
    expect(named).toMatchObject({ state: 'failed', line: long.slice(0, long.indexOf('N'.repeat(500))).split('\n').length });
    expect(named.message).toContain(`at most ${PLAYER_NAME_MAX}`);
    expect(b.count()).toBe(0);

    // Over the size bound: refused before it is read.
    writeFileSync(join(dir, 'big.txt'), Buffer.alloc(EXCHANGE_FILE_MAX_BYTES + 1, 0x41));
    const big = await finished(jb, jb.importFile(join(dir, 'big.txt'), 'auto'));
    expect(big).toMatchObject({ state: 'failed' });
    expect(big.message).toContain('MiB');
    expect(b.count()).toBe(0);

    // A PHH hand of 100,000 players: what is wrong, not a stack overflow.
    const n = 100_000;
    const phh = [
      'variant = "NT"',
      'ante_trimming_status = true',
      `antes = [${new Array(n).fill(0).join(', ')}]`,
      `blinds_or_straddles = [${[5, 10, ...new Array(n - 2).fill(0)].join(', ')}]`,
      'min_bet = 10',
      `starting_stacks = [${new Array(n).fill(1000).join(', ')}]`,
      'actions = ["d dh p1 AcAd"]',
      `players = [${Array.from({ length: n }, (_, i) => `"p${i}"`).join(', ')}]`,
    ].join('\n');
    expect(importHands('phh', phh)).toEqual({ ok: false, line: 6, message: '100000 players; a hand has at most 10 (R-SEATS)' });
  }, 60_000);

  it('a cancelled import stores nothing; main’s hands are held meanwhile and stored after', async () => {
    const a = store('a');
    fillHistory(a, { hands: 3000, seed: 9, end: END, days: 30 });
    const ja = jobs(a, 'a');
    const ex = await finished(ja, ja.exportHands({}, 'phh'));
    const b = store('b');
    const events: HistoryJobView[] = [];
    const jb = jobs(b, 'b', events);
    const gated = jb.gate.storeView();
    const extra = [...generateHands({ hands: 2, seed: 77, end: END, days: 1, hero: 'other' })];

    // Cancelled while storing: the flag is seen between chunks, the transaction rolls back.
    const r = jb.importFile(ex.file!, 'phh');
    if (!r.ok) throw new Error(r.reason);
    expect(jb.gate.writing).toBe(true);
    expect(gated.addHand(extra[0].meta, extra[0].record)).toEqual({ stored: true, duplicate: false });
    expect(gated.addHand(extra[0].meta, extra[0].record)).toEqual({ stored: false, duplicate: true });
    expect(b.count()).toBe(0); // held, not written
    const until = Date.now() + 30_000;
    while (!events.some((e) => e.message === 'store' && e.done > 0) && Date.now() < until) await new Promise((res) => setTimeout(res, 2));
    expect(jb.cancel(r.jobId).ok).toBe(true);
    await jb.ended(r.jobId);
    expect(jb.view(r.jobId)?.state).toBe('cancelled');
    expect(jb.gate.writing).toBe(false);
    expect(b.count()).toBe(1); // only main's held hand, written when the import ended
    expect(b.getHand(extra[0].record.handId!).ok).toBe(true);

    // Cancelled at once (still reading or parsing): the thread is stopped, nothing is written.
    const r2 = jb.importFile(ex.file!, 'phh');
    if (!r2.ok) throw new Error(r2.reason);
    expect(jb.importFile(ex.file!, 'phh')).toMatchObject({ ok: false });
    expect(jb.cancel(r2.jobId).ok).toBe(true);
    await jb.ended(r2.jobId);
    expect(jb.view(r2.jobId)?.state).toBe('cancelled');
    expect(b.count()).toBe(1);
    expect(gated.addHand(extra[1].meta, extra[1].record)).toEqual({ stored: true, duplicate: false });
    expect(b.count()).toBe(2); // no import: straight to the store
  }, 120_000);

  it('finds the hero of an imported file: the name in most hands, the account’s first', () => {
    const hands = [...generateHands({ hands: 20, seed: 1, end: END, days: 2, hero: 'zoé' })];
    const seats = heroSeats(hands, ['nobody']);
    expect(seats).toEqual(hands.map((h) => h.meta.heroSeat));
  });
});
