/**
 * The client API over the browser host's socket, as the page has it, for the tournament flows: registration
 * and our decisions go through it (as pre-actions would), while what is
 * checked is what the page shows. It keeps every table state pushed, so that a flow can compare the
 * page with the hands' records (chips bought land between two hands).
 */
import type { Page } from '@playwright/test';
import { WebSocket } from 'ws';
import type { TableState, TournamentPlay } from '../../shared/api';
import type { HandRecord } from '../../shared/rules/record';
import { handOf } from '../../shared/protocol/hand';
import { legalActions } from '../../shared/rules/engine';
import { policyMove, type Policy } from '../support/tournament-policy';
import type { RunningHost } from './host';
import { openConnected } from './player';


export interface HostApi {
  call(name: string, args?: unknown): Promise<unknown>;
  /** Every hand record our tables pushed (as `lastHand`), once each, in the order they ended. */
  records(tableId?: string): HandRecord[];
  /** The tournaments' plays pushed to the page (`tournament` events), latest per tournament. */
  play(tournamentId: string): TournamentPlay | null;
  close(): void;
}

/** Connects to the host's API with the page's token; our seat at every table plays `policy` at once. */
export async function hostApi(host: RunningHost, token: string, policy: Policy = 'passive'): Promise<HostApi> {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/api?token=${token}`, { origin: host.origin });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  let id = 0;
  const waiting = new Map<number, (m: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  const call = (name: string, args: unknown = {}): Promise<unknown> =>
    new Promise((r, j) => {
      const n = ++id;
      waiting.set(n, (m) => (m.ok ? r(m.value) : j(new Error(m.error?.message))));
      ws.send(JSON.stringify({ id: n, call: name, args }));
    });
  const sent = new Set<string>();
  const records: { tableId: string; record: HandRecord }[] = [];
  const seenHands = new Set<string>();
  const plays = new Map<string, TournamentPlay>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as { id?: number; ok: boolean; value?: unknown; event?: string; payload?: unknown };
    if (typeof m.id === 'number') return waiting.get(m.id)?.(m);
    if (m.event === 'tournament') {
      const p = m.payload as TournamentPlay;
      plays.set(p.tournamentId, p);
      return;
    }
    if (m.event !== 'table') return;
    const s = m.payload as TableState;
    if (s.lastHand && !seenHands.has(s.lastHand.handId)) {
      seenHands.add(s.lastHand.handId);
      records.push({ tableId: s.tableId, record: s.lastHand.record });
    }
    const v = s.view;
    if (!v?.hand || !v.you || v.turn?.seat !== v.you.seat || s.pending !== null) return;
    const legal = legalActions(handOf(v.hand));
    const key = `${s.tableId}:${v.hand.handId}:${v.hand.actions.length}`;
    if (legal.seat !== v.you.seat || sent.has(key) || legal.next === 'deal' || legal.next === 'done') return;
    sent.add(key);
    const move = policyMove(legal, policy);
    void call('act', { tableId: s.tableId, actionId: `e2e-${key}`, move }).catch(() => undefined);
  });
  return {
    call,
    records: (tableId) => records.filter((r) => tableId === undefined || r.tableId === tableId).map((r) => r.record),
    play: (tournamentId) => plays.get(tournamentId) ?? null,
    close: () => ws.close(),
  };
}

/** The page open and connected; the client API beside it, playing our seats with `policy`. */
export async function signedInWithApi(page: Page, host: RunningHost, policy: Policy = 'passive'): Promise<HostApi> {
  await openConnected(page, host.url);
  return hostApi(host, await page.evaluate<string>("sessionStorage.getItem('cercle.hostToken')"), policy);
}
