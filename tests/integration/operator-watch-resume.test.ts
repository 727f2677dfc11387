/**
 * Watching a table across a break in the link (`table.watch`, protocol 4), over
 * real TLS on loopback with the socket really dropped: a `resume` of the same session watches its
 * tables again, each with a fresh view as no seat sees it, so the client need not ask; a `table.watch`
 * sent anyway is the same watch (one stream, one place of the 24); the watcher never holds a hidden
 * card (checked against the trace); a watch still ends with its session (a new login, a logout) and
 * with its table (a tournament's table gone meanwhile is told `table.left`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, ServerMessageOf } from '../../shared/protocol/messages';
import { prng } from '../../shared/rules/engine/test-support';
import { readyStructure } from '../../shared/rules/tournament';
import { MAX_WATCHED } from '../../operator/server/watches';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { checkHiding } from '../support/operator/hiding';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { authedOf, until, watchOperatorOptions, WATCH_TABLES } from '../support/operator/wire';
import { tournamentSpec } from '../support/operator/tournament-spec';

// w-01 deals hands (practice players, nobody seated); the others are quiet, enough to reach the limit.
const CASH = WATCH_TABLES;

// A heads-up sit & go with short stacks: a person and a practice player, over in a few hands.
const DUEL = tournamentSpec({ id: 'duel', name: 'Duel', buyIn: 100, fee: 10, seats: 2, maxEntrants: 2, minEntrants: 2, structure: { ...readyStructure('THNL', 'hyper-turbo'), startingStack: 300, lateRegistrationLevels: 0 } });

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;

beforeAll(async () => {
  dir = tempDir();
  op = await startOperator({
    ...watchOperatorOptions(dir.dir, '0098'),
    accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
    tournaments: { specs: [DUEL], practiceFillMs: 40_000 },
  });
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

/** A new connection resuming `token`: the `authed`, then everything up to a pong (frames are sent in order: all the resume sends came before it). */
async function resume(token: string, localAddress: string): Promise<{ c: TestClient; authed: ServerMessage; frames: ServerMessage[] }> {
  const c = await TestClient.connect(op.url, op.pin, { localAddress });
  await c.hello();
  const from = c.received.length;
  const authed = await c.request({ type: 'resume', token, tables: [] });
  await settled(c);
  return { c, authed, frames: c.received.slice(from) };
}

/** Everything the operator sent before now has arrived (a ping's pong comes after it). */
async function settled(c: TestClient): Promise<void> {
  const t = 700_000 + c.received.length;
  const pong = c.waitFor((m) => m.type === 'pong' && m.t === t);
  c.send({ type: 'ping', t });
  await pong;
}

const snapshotsIn = (frames: readonly ServerMessage[]) => frames.filter((m): m is ServerMessageOf<'table.snapshot'> => m.type === 'table.snapshot');
const watching = (accountId: number) => CASH.filter((t) => op.manager.get(t.id)!.isWatching(accountId)).map((t) => t.id);

/** The events of `tableId` after the snapshot `snap` in `received`: numbered on from it, without a gap or a repeat. */
function streamAfter(received: readonly ServerMessage[], snap: ServerMessageOf<'table.snapshot'>): ServerMessageOf<'table.event'>[] {
  const from = received.indexOf(snap);
  const events = received.slice(from + 1).filter((m): m is ServerMessageOf<'table.event'> => m.type === 'table.event' && m.tableId === snap.tableId);
  const next = received.slice(from + 1).find((m) => m.type === 'table.snapshot' && m.tableId === snap.tableId);
  const upTo = next === undefined ? events : events.filter((e) => received.indexOf(e) < received.indexOf(next));
  expect(upTo.map((e) => e.seq)).toEqual(upTo.map((_, i) => snap.seq + 1 + i));
  return upTo;
}

describe('watching across a resume', () => {
  it('a resumed session watches its tables again without asking: a fresh view each, then the stream, never a hidden card; a re-watch is the same watch', async () => {
    const c = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.11' });
    const { account, token } = authedOf(c);
    const watched = CASH.slice(0, MAX_WATCHED).map((t) => t.id);
    for (const id of watched) expect(await c.request({ type: 'table.watch', tableId: id })).toMatchObject({ type: 'ok' });
    await c.waitFor((m) => m.type === 'table.event' && m.tableId === 'w-01' && m.event.type === 'handEnd', 10_000);

    // The line drops (no closing handshake); the operator sees it and stops sending to it.
    c.cut();
    await until('the drop seen', () => !op.context.byAccount.has(account.id));
    expect(watching(account.id)).toEqual([]);
    const w01 = op.manager.get('w-01')!;
    const played = w01.handsPlayed;
    await until('a hand at w-01 while away', () => w01.handsPlayed >= played + 1);

    // Resumed: each table watched again, a fresh snapshot as no seat sees it (`rid: null`, `you: null`),
    // and no `table.watch` was sent.
    const back = await resume(token!, '127.0.0.11');
    expect(back.authed).toMatchObject({ type: 'authed', seated: [] });
    const snaps = snapshotsIn(back.frames);
    expect(snaps.map((s) => s.tableId).sort()).toEqual(watched);
    for (const s of snaps) expect(s).toMatchObject({ rid: null, seq: 0, table: { you: null, tournament: null } });
    expect(snaps.find((s) => s.tableId === 'w-01')!.table.handNo).toBeGreaterThan(0);
    expect(watching(account.id)).toEqual(watched);

    // The stream goes on from that snapshot: whole hands, numbered on from it.
    const fresh = snaps.find((s) => s.tableId === 'w-01')!;
    await back.c.waitFor((m) => m.type === 'table.event' && m.tableId === 'w-01' && m.event.type === 'handEnd', 10_000);
    expect(streamAfter(back.c.received, fresh).length).toBeGreaterThan(0);

    // The client's own re-watch (an older habit) is the same watch: `ok`, one fresh snapshot, one stream
    // (no event twice), one place of the 24: the 25th table is still refused.
    for (const id of watched) expect(await back.c.request({ type: 'table.watch', tableId: id })).toMatchObject({ type: 'ok' });
    expect(await back.c.request({ type: 'table.watch', tableId: CASH[MAX_WATCHED].id })).toMatchObject({ type: 'error', code: 'WATCH_LIMIT' });
    const again = snapshotsIn(back.c.received).filter((s) => s.tableId === 'w-01');
    expect(again).toHaveLength(2);
    await back.c.waitFor((m) => m.type === 'table.event' && m.tableId === 'w-01' && m.event.type === 'handEnd' && back.c.received.indexOf(m) > back.c.received.indexOf(again[1]), 10_000);
    expect(streamAfter(back.c.received, again[1]).length).toBeGreaterThan(0);

    // The operator has not seen the drop yet (a half-open socket): the resume takes the watches over.
    const third = await resume(token!, '127.0.0.11');
    expect(snapshotsIn(third.frames).map((s) => s.tableId).sort()).toEqual(watched);
    expect(back.c.received.some((m) => m.type === 'error' && m.code === 'SESSION_REPLACED')).toBe(true);
    await third.c.waitFor((m) => m.type === 'table.event' && m.tableId === 'w-01' && m.event.type === 'handEnd', 10_000);

    // The watcher held no seat, and no frame of any of its connections carried a hidden card.
    expect(op.manager.tablesOf(account.id)).toEqual([]);
    let checked = 0;
    for (const x of [c, back.c, third.c]) {
      expect(x.invalid).toEqual([]);
      checked += checkHiding(op.vault, x.received).cards;
    }
    expect(checked).toBeGreaterThan(50);
    await third.c.close();
  }, 60_000);

  it('a watch still ends with its session and its table: a new login, a logout, a tournament table gone meanwhile', async () => {
    // A new session (a login after the drop) starts without the old one's watches, and forgets them.
    const a = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.12' });
    await a.hello();
    const reg = (await a.request({ type: 'register', username: 'wanda', password: 'wanda password' })) as ServerMessageOf<'authed'>;
    expect(await a.request({ type: 'table.watch', tableId: 'w-01' })).toMatchObject({ type: 'ok' });
    a.cut();
    await until('the drop seen', () => !op.context.byAccount.has(reg.account.id));
    const login = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.12' });
    await login.hello();
    const from = login.received.length;
    expect(await login.request({ type: 'login', username: 'wanda', password: 'wanda password' })).toMatchObject({ type: 'authed' });
    await settled(login);
    expect(snapshotsIn(login.received.slice(from))).toEqual([]);
    expect(watching(reg.account.id)).toEqual([]);
    await login.close();
    await until('closed', () => !op.context.byAccount.has(reg.account.id));
    const old = await resume(reg.token!, '127.0.0.12');
    expect(old.authed).toMatchObject({ type: 'authed' });
    expect(snapshotsIn(old.frames)).toEqual([]);

    // A logout ends the watches with the session.
    expect(await old.c.request({ type: 'table.watch', tableId: 'w-02' })).toMatchObject({ type: 'ok' });
    expect(await old.c.request({ type: 'logout' })).toMatchObject({ type: 'ok' });
    expect(watching(reg.account.id)).toEqual([]);
    old.c.cut();
    expect((await resume(reg.token!, '127.0.0.12')).authed).toMatchObject({ type: 'error', code: 'INVALID_SESSION' });

    // A tournament's table watched, gone while the watcher was away (the duel ended): the resume says so.
    const p = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.13' });
    const player = new AutoPlayer(p, prng(5));
    // Paused until the watch is taken: a duel can end in its first hand, before the watcher asks (met once).
    player.paused = true;
    const duel = op.tournaments.get('duel-1')!;
    expect(await p.request({ type: 'tournament.register', tournamentId: 'duel-1', version: duel.version })).toMatchObject({ type: 'tournament.registered' });
    await until('the duel running', () => duel.state === 'running', 30_000);
    const tableId = duel.liveTables()[0].tableId;
    const w = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.14' });
    const { account, token } = authedOf(w);
    expect(await w.request({ type: 'table.watch', tableId })).toMatchObject({ type: 'ok' });
    player.resume();
    w.cut();
    await until('the drop seen', () => !op.context.byAccount.has(account.id));
    await until('the duel over', () => duel.state === 'finished' && op.tournaments.table(tableId) === undefined, 30_000);
    const back = await resume(token!, '127.0.0.14');
    expect(back.frames.filter((m) => 'tableId' in m && m.tableId === tableId)).toEqual([{ type: 'table.left', rid: null, tableId, cashedOut: 0 }]);
    expect(player.problems).toEqual([]);
    await Promise.all([p.close(), back.c.close()]);
  }, 90_000);
});
