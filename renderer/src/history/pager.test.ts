import { describe, expect, it } from 'vitest';
import type { CallArgs, CallResult, HandSummaryView } from '../../../shared/api/contract';
import { HistoryPager } from './pager';

function hand(i: number): HandSummaryView {
  return { handId: `h${i}`, playedAt: 1000 + i, tableId: 't', variant: 'THNL', stakes: 100, money: 'play', heroSeat: 0, net: i, rake: 0, showdown: false, allIn: false, pot: 10, cards: [], tournament: null };
}

/** A store of `n` hands, pages of ids in order; records every request. */
function fakeApi(n: number) {
  const calls: CallArgs<'historyPage'>[] = [];
  const pending: (() => void)[] = [];
  let hold = false;
  const api = {
    calls,
    hold(on: boolean) {
      hold = on;
    },
    release() {
      while (pending.length) pending.shift()!();
    },
    historyPage(a: CallArgs<'historyPage'>): Promise<CallResult<'historyPage'>> {
      calls.push(a);
      const from = a.cursor === null ? 0 : Number(a.cursor);
      const hands = Array.from({ length: Math.max(0, Math.min(a.limit, n - from)) }, (_, k) => hand(from + k));
      const next = from + a.limit < n ? String(from + a.limit) : null;
      const r = { ok: true, hands, next };
      return hold ? new Promise((res) => pending.push(() => res(r))) : Promise.resolve(r);
    },
  };
  return api;
}

describe('HistoryPager', () => {
  it('pages with the cursor until the end', async () => {
    const api = fakeApi(25);
    let changes = 0;
    const p = new HistoryPager(api, () => changes++, 10);
    await p.reset({ filter: { variant: '7SHL' }, sort: 'time', dir: 'desc' });
    expect(p.rows.map((h) => h.handId)).toEqual(Array.from({ length: 10 }, (_, i) => `h${i}`));
    expect(p.hasMore).toBe(true);
    await p.more();
    await p.more();
    expect(p.rows).toHaveLength(25);
    expect(p.hasMore).toBe(false);
    await p.more();
    expect(api.calls.map((c) => c.cursor)).toEqual([null, '10', '20']);
    expect(api.calls[0]).toMatchObject({ filter: { variant: '7SHL' }, sort: 'time', dir: 'desc', limit: 10 });
    expect(changes).toBeGreaterThan(0);
  });

  it('asks once while a page is loading', async () => {
    const api = fakeApi(25);
    const p = new HistoryPager(api, undefined, 10);
    await p.reset({ filter: {}, sort: 'net', dir: 'asc' });
    api.hold(true);
    const a = p.more();
    const b = p.more();
    expect(p.loading).toBe(true);
    api.release();
    await Promise.all([a, b]);
    expect(api.calls).toHaveLength(2);
    expect(p.loading).toBe(false);
  });

  it('drops the answer to a query replaced meanwhile', async () => {
    const api = fakeApi(25);
    const p = new HistoryPager(api, undefined, 10);
    api.hold(true);
    const old = p.reset({ filter: { variant: 'THNL' }, sort: 'time', dir: 'desc' });
    const fresh = p.reset({ filter: { variant: '7SHL' }, sort: 'time', dir: 'desc' });
    api.release();
    await Promise.all([old, fresh]);
    expect(p.rows).toHaveLength(10);
    expect(api.calls.map((c) => c.filter.variant)).toEqual(['THNL', '7SHL']);
  });

  it('keeps the store\'s refusal', async () => {
    const p = new HistoryPager({ historyPage: () => Promise.resolve({ ok: false, reason: 'bad cursor', hands: [], next: null }) }, undefined, 10);
    await p.reset({ filter: {}, sort: 'time', dir: 'desc' });
    expect(p.error).toBe('bad cursor');
    expect(p.hasMore).toBe(false);
    const q = new HistoryPager({ historyPage: () => Promise.reject(new Error('offline')) }, undefined, 10);
    await q.reset({ filter: {}, sort: 'time', dir: 'desc' });
    expect(q.error).toBe('offline');
  });
});

describe('HistoryPager with a hand sent twice', () => {
  it('shows it once', async () => {
    const page = (cursor: string | null) => ({ ok: true, hands: cursor === null ? [hand(1), hand(2)] : [hand(2), hand(3)], next: cursor === null ? 'c' : null });
    const p = new HistoryPager({ historyPage: (a) => Promise.resolve(page(a.cursor)) }, undefined, 2);
    await p.reset({ filter: {}, sort: 'time', dir: 'desc' });
    await p.more();
    expect(p.rows.map((h) => h.handId)).toEqual(['h1', 'h2', 'h3']);
  });
});
