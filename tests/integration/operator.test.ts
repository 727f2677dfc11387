/**
 * The operator over real TLS on loopback, with several real WebSocket clients pinning its key:
 * the handshake and its refusals, money conserved to the cent over many hands with rake, a client
 * flooding the operator with bad frames while the others play, a repeated action id.
 */
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import { legalActions } from '../../shared/rules/engine';
import { prng } from '../../shared/rules/engine/test-support';
import { tablesOf } from '../../operator/config/config';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { scaledTimers } from '../../operator/tables/timers';
import { tempDir } from '../support/operator/temp-dir';
import { rulesVersion } from '../../shared/protocol/conditions';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';

const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };

function lobby() {
  return tablesOf({
    version: 1,
    operator: { idOper: '0099', idCoffre: 1, name: 'Test' },
    tables: [
      {
        id: 'cash-thnl',
        name: 'Cash',
        variant: 'THNL',
        money: 'real',
        stakes: { smallBlind: 5, bigBlind: 10 },
        seats: 6,
        buyIn: { min: 400, max: 2000 },
        rake: { basisPoints: 500, cap: 30, noFlopNoDrop: true },
        actionSeconds: 120, // 6 s of wall time at 20x: a loaded machine never times the test's own action out
      },
      { id: 'play-o4jl', name: 'Play', variant: 'O4JL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 } },
    ],
  });
}

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;

beforeAll(async () => {
  dir = tempDir();
  op = await startOperator({
    dataDir: dir.dir,
    lobby: lobby(),
    timers: scaledTimers(20),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0], disconnectGraceMs: 120_000 },
    accounts: { scrypt: FAST_SCRYPT },
    rateLimit: { perSecond: 100_000, burst: 100_000, abuse: 1_000_000 },
    trustProxy: true,
    durability: 'normal',
    log: () => undefined,
  });
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: op.port, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('handshake and session', () => {
  it('answers /health over TLS', async () => {
    const h = await get('/health');
    expect(h.status).toBe(200);
    expect(JSON.parse(h.body)).toMatchObject({ status: 'ok', protocol: PROTOCOL_VERSION, tables: 2 });
    expect((await get('/admin')).status).toBe(404);
  });

  it('refuses a wrong pin', async () => {
    await expect(TestClient.connect(op.url, 'sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')).rejects.toThrow(/pin mismatch/);
  });

  it('requires hello first, refuses an old client with UPDATE_REQUIRED, then authenticates, resumes and logs out', async () => {
    const early = await TestClient.connect(op.url, op.pin);
    const r0 = await early.request({ type: 'guest' });
    expect(r0).toMatchObject({ type: 'error', code: 'HELLO_REQUIRED' });
    expect(await early.hello('0.0.9')).toMatchObject({ type: 'error', code: 'UPDATE_REQUIRED', minVersion: '0.1.0' });
    await early.waitFor(() => false, 2000).catch(() => undefined);
    expect(early.ws.readyState).toBeGreaterThanOrEqual(2); // closing or closed

    const c = await TestClient.connect(op.url, op.pin, { forwardedFor: '198.51.100.10' });
    expect(await c.hello()).toMatchObject({ type: 'welcome', protocol: PROTOCOL_VERSION });
    expect(await c.request({ type: 'lobby.subscribe' })).toMatchObject({ type: 'error', code: 'AUTH_REQUIRED' });
    const authed = (await c.request({ type: 'guest' })) as Extract<ServerMessage, { type: 'authed' }>;
    expect(authed).toMatchObject({ type: 'authed', account: { guest: true }, balances: { real: 0, play: 100_000 }, seated: [] });
    expect(authed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await c.request({ type: 'guest' })).toMatchObject({ type: 'error', code: 'ALREADY_AUTHENTICATED' });
    const l = await c.request({ type: 'lobby.subscribe' });
    expect(l.type).toBe('lobby');
    if (l.type === 'lobby') {
      expect(l.tables.map((t) => t.tableId)).toEqual(['cash-thnl', 'play-o4jl']);
      expect(l.tables[0]).toMatchObject({ money: 'real', variant: 'THNL', seatsMax: 6, rules: { rake: { basisPoints: 500 }, actionSeconds: 120 } });
    }
    // A guest plays for play money only.
    expect(await c.join('cash-thnl', 500)).toMatchObject({
      type: 'error',
      code: 'REAL_MONEY_FORBIDDEN',
    });
    expect(await c.join('nowhere', 500)).toMatchObject({ code: 'UNKNOWN_TABLE' });

    // Another connection with the token takes over the session.
    const d = await TestClient.connect(op.url, op.pin, { forwardedFor: '198.51.100.10' });
    await d.hello();
    const replaced = c.waitFor((m) => m.type === 'error' && m.code === 'SESSION_REPLACED');
    expect(await d.request({ type: 'resume', token: authed.token!, tables: [] })).toMatchObject({ type: 'authed', token: null, account: { id: authed.account.id } });
    await replaced;
    expect(await d.request({ type: 'logout' })).toMatchObject({ type: 'ok' });
    expect(await d.request({ type: 'balance' })).toMatchObject({ type: 'error', code: 'AUTH_REQUIRED' });
    expect(await d.request({ type: 'resume', token: authed.token!, tables: [] })).toMatchObject({ type: 'error', code: 'INVALID_SESSION' });
    await d.close();
    expect(c.invalid).toEqual([]);
  });

  it('registers and logs in; a wrong password is INVALID_CREDENTIALS', async () => {
    const c = await TestClient.connect(op.url, op.pin);
    await c.hello();
    expect(await c.request({ type: 'register', username: 'Zoe', password: 'zoe' })).toMatchObject({ code: 'WEAK_PASSWORD' });
    expect(await c.request({ type: 'register', username: 'Zoe', password: 'long enough pass' })).toMatchObject({ type: 'authed', account: { username: 'Zoe', guest: false } });
    const d = await TestClient.connect(op.url, op.pin);
    await d.hello();
    expect(await d.request({ type: 'login', username: 'zoe', password: 'wrong password' })).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await d.request({ type: 'login', username: 'zoe', password: 'long enough pass' })).toMatchObject({ type: 'authed' });
    await Promise.all([c.close(), d.close()]);
  });

  // A nickname chosen after sign-in; a name never changes while seated (seats and hands name players by it).
  it('renames a guest: checked on the wire, unique in any case, never a reserved prefix, never while seated', async () => {
    const anon = await TestClient.connect(op.url, op.pin);
    await anon.hello();
    expect(await anon.request({ type: 'account.rename', username: 'Nobody' })).toMatchObject({ type: 'error', code: 'AUTH_REQUIRED' });
    await anon.close();
    const c = await TestClient.guest(op.url, op.pin);
    const d = await TestClient.guest(op.url, op.pin);
    expect(await c.request({ type: 'account.rename', username: 42 } as never)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    expect(await c.request({ type: 'account.rename', username: 'x'.repeat(65) })).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    expect(await c.request({ type: 'account.rename', username: 'guest-00000000' })).toMatchObject({ type: 'error', code: 'INVALID_USERNAME' });
    expect(await c.request({ type: 'account.rename', username: 'Practice_Zoé' })).toMatchObject({ type: 'error', code: 'INVALID_USERNAME' });
    const renamed = await c.request({ type: 'account.rename', username: 'Zoé_Lefèvre' });
    expect(renamed).toMatchObject({ type: 'account', account: { username: 'Zoé_Lefèvre', guest: true } });
    expect(await d.request({ type: 'account.rename', username: 'ZOÉ_LEFÈVRE' })).toMatchObject({ type: 'error', code: 'USERNAME_TAKEN' });

    const snapshot = c.waitFor((m) => m.type === 'table.snapshot');
    expect(await c.join('play-o4jl', 400)).toMatchObject({ type: 'table.joined' });
    const snap = await snapshot;
    if (snap.type !== 'table.snapshot') throw new Error(snap.type);
    expect(snap.table.seats.flatMap((x) => (x ? [x.name] : []))).toContain('Zoé_Lefèvre');
    expect(await c.request({ type: 'account.rename', username: 'Zoé_2' })).toMatchObject({ type: 'error', code: 'NAME_WHILE_SEATED' });
    expect(op.accounts.findByUsername('zoé_lefèvre')?.username).toBe('Zoé_Lefèvre');
    // Seated nowhere again, the name may change.
    expect(await c.request({ type: 'table.leave', tableId: 'play-o4jl' })).toMatchObject({ type: 'table.left' });
    expect(await c.request({ type: 'account.rename', username: 'Zoé_2' })).toMatchObject({ type: 'account', account: { username: 'Zoé_2' } });
    await Promise.all([c.close(), d.close()]);
  });
});

describe('play for money', () => {
  it('many hands at a raked real-money table: every cent accounted for; a flood of bad frames changes nothing', async () => {
    const names = ['alice', 'bruno', 'chloe'];
    const players: AutoPlayer[] = [];
    for (let i = 0; i < names.length; i++) {
      const c = await TestClient.connect(op.url, op.pin, { forwardedFor: `203.0.113.${i + 1}` });
      await c.hello();
      const r = await c.request({ type: 'register', username: names[i], password: `${names[i]}-password` });
      expect(r.type).toBe('authed');
      if (r.type !== 'authed') return;
      op.wallet.deposit(r.account.id, 1_000_000, { idempotencyKey: `dep-${names[i]}` }); // 10,000.00 €
      // R-LIMITS, R-TIMELIMIT: no stake before the player sets both limits.
      op.protection.setLimit(r.account.id, 'stake', 1_000_000);
      op.protection.setLimit(r.account.id, 'time', 24 * 3_600_000);
      const p = new AutoPlayer(c, prng(1000 + i));
      p.rebuy = 2000;
      players.push(p);
    }
    // R-NOBOT: a second account from alice's address is refused at her table.
    const twin = await TestClient.connect(op.url, op.pin, { forwardedFor: '203.0.113.1' });
    await twin.hello();
    const tr = await twin.request({ type: 'register', username: 'twin', password: 'twin-password' });
    if (tr.type === 'authed') {
      op.wallet.deposit(tr.account.id, 1000, { idempotencyKey: 'dep-twin' });
      op.protection.setLimit(tr.account.id, 'stake', 1_000_000);
      op.protection.setLimit(tr.account.id, 'time', 24 * 3_600_000);
    }

    for (const p of players) {
      const j = await p.client.join('cash-thnl', 2000);
      expect(j).toMatchObject({ type: 'table.joined', tableId: 'cash-thnl', stack: 2000 });
    }
    expect(await twin.join('cash-thnl', 500)).toMatchObject({ code: 'SAME_ADDRESS', rule: 'R-NOBOT' });
    expect(await players[0].client.join('cash-thnl', 500)).toMatchObject({ code: 'ALREADY_SEATED' });

    // Meanwhile a client floods the operator with bad, oversized, out-of-order and replayed frames.
    const flooder = await TestClient.guest(op.url, op.pin, { forwardedFor: '192.0.2.99' });
    const bad: (string | Buffer)[] = [
      '{not json',
      '[]',
      '{"type":"launchMissiles","rid":1}',
      JSON.stringify({ type: 'login', rid: 2, username: 'a', password: 'x'.repeat(9000) }),
      Buffer.from([1, 2, 3]),
      JSON.stringify({ type: 'hello', protocol: 1, client: '0.1.0' }),
      JSON.stringify({ type: 'guest', rid: 3 }),
      JSON.stringify({ type: 'table.action', rid: 4, tableId: 'cash-thnl', actionId: 'x', move: { type: 'fold' } }),
      JSON.stringify({ type: 'table.action', rid: 5, tableId: 'cash-thnl', actionId: 'x', move: { type: 'bet', to: -5 } }),
      JSON.stringify({ type: 'table.leave', rid: 6, tableId: 'cash-thnl' }),
      JSON.stringify({ type: 'table.topUp', rid: 7, tableId: 'cash-thnl', amount: 1e20 }),
      JSON.stringify({ type: 'history', rid: 8, cursor: 'not-a-cursor', limit: 5 }),
      JSON.stringify({ type: 'table.join', rid: 9, tableId: 'cash-thnl', buyIn: 500, waitForBigBlind: false, seat: 0 }),
    ];
    let errors = 0;
    let answered = 0;
    flooder.onMessage = (m) => {
      answered++;
      if (m.type === 'error' || (m.type === 'table.actionResult' && !m.ok)) errors++;
    };
    const total = 3000;
    for (let sent = 0; sent < total; ) {
      const batch = Math.min(250, total - sent);
      for (let k = 0; k < batch; k++) flooder.sendRaw(bad[(sent + k) % bad.length]);
      sent += batch;
      const want = sent;
      await new Promise<void>((resolve, reject) => {
        const t0 = Date.now();
        const tick = () => (answered >= want ? resolve() : Date.now() - t0 > 20_000 ? reject(new Error(`${answered} answers of ${want}`)) : setTimeout(tick, 5));
        tick();
      });
    }
    expect(errors).toBe(total); // every bad frame answered with an error, none crashed anything

    // A repeated action id is applied once and answered with the same result.
    const a = players[0];
    a.paused = true;
    const myTurn = () => {
      const t = a.tables.get('cash-thnl');
      return !!t?.hand && !t.busy && t.turn === t.seat && t.hand.phase === 'bet';
    };
    const until = Date.now() + 20_000;
    while (!myTurn() && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(myTurn(), JSON.stringify(op.manager.get('cash-thnl')!.players())).toBe(true);
    const move = legalActions(a.tables.get('cash-thnl')!.hand!).check ? ({ type: 'check' } as const) : ({ type: 'call' } as const);
    const first = await a.client.request({ type: 'table.action', tableId: 'cash-thnl', actionId: 'dup-1', move });
    const second = await a.client.request({ type: 'table.action', tableId: 'cash-thnl', actionId: 'dup-1', move });
    expect(first).toMatchObject({ ok: true });
    expect(first).toMatchObject({ type: 'table.actionResult', actionId: 'dup-1', replayed: false });
    expect(second).toMatchObject({ type: 'table.actionResult', actionId: 'dup-1', replayed: true, ok: (first as { ok: boolean }).ok });
    a.resume();

    // Play on.
    const table = op.manager.get('cash-thnl')!;
    const start = table.handsPlayed;
    while (table.handsPlayed < start + 200) {
      await new Promise((r) => setTimeout(r, 20));
    }
    // Everybody leaves; a player in a hand leaves when it ends.
    await Promise.all(
      players.map(async (p) => {
        const left = p.client.waitFor((m) => m.type === 'table.left', 30_000);
        await p.client.request({ type: 'table.leave', tableId: 'cash-thnl' });
        await left;
      }),
    );

    for (const p of players) {
      expect(p.client.invalid).toEqual([]);
      expect(p.problems).toEqual([]);
    }
    const audit = op.wallet.audit();
    expect(audit.problems).toEqual([]);
    expect(op.wallet.tableHeld('cash-thnl')?.held).toBe(0);
    const rake = op.wallet.rakeCollected('real');
    expect(rake).toBeGreaterThan(0);
    let wallets = 0;
    for (const n of names) wallets += op.wallet.balance(op.accounts.findByUsername(n)!.id, 'real');
    expect(wallets + rake).toBe(3_000_000); // to the cent
    const records = op.vault.byTech('cash-thnl');
    expect(records.filter((r) => r.kind === 'POJEU').length).toBe(table.handsPlayed);
    expect(records.filter((r) => r.kind === 'POINSCRIT').length).toBe(3);
    expect(records.filter((r) => r.kind === 'POBILAN').length).toBe(3);
    expect(op.vault.verifyChain().ok).toBe(true);

    // R-HISTORY: each player's hands, newest first, paged.
    const h1 = await players[1].client.request({ type: 'history', cursor: null, limit: 10 });
    expect(h1.type).toBe('history');
    if (h1.type === 'history') {
      expect(h1.hands.length).toBe(10);
      expect(h1.next).not.toBeNull();
      const h2 = await players[1].client.request({ type: 'history', cursor: h1.next, limit: 10 });
      if (h2.type === 'history') expect(h2.hands[0].endedAt).toBeLessThanOrEqual(h1.hands[9].endedAt);
    }
    await Promise.all([...players.map((p) => p.client.close()), flooder.close(), twin.close()]);
  });
});

describe('R-INFO enforced by the operator (D art. 8 II 3°)', () => {
  it('refuses a join whose rules version is not the table\'s current one (RULES_CHANGED), and seats the player on the version it serves now', async () => {
    const t = tempDir();
    try {
      const base = { dataDir: t.dir, lobby: lobby(), accounts: { scrypt: FAST_SCRYPT }, durability: 'normal' as const, log: () => undefined };
      // The player reads the lobby of an operator whose disconnection grace is 2 minutes...
      const first = await startOperator({ ...base, table: { disconnectGraceMs: 120_000 } });
      const c1 = await TestClient.guest(first.url, first.pin);
      const seen = await c1.request({ type: 'lobby.subscribe' });
      if (seen.type !== 'lobby') throw new Error(seen.type);
      expect(seen.conditions.fr.join(' ')).toContain('2 minutes');
      expect(seen.conditions.en.join(' ')).toContain('2 minutes');
      const table = seen.tables.find((x) => x.tableId === 'play-o4jl')!;
      const confirmed = rulesVersion(table, seen.conditions.version);
      await c1.close();
      await first.close();
      // ...which restarts with a grace of 30 seconds: the conditions the player confirmed are no longer the operator's.
      const second = await startOperator({ ...base, table: { disconnectGraceMs: 30_000 } });
      try {
        // A client of protocol 1 (a join without a rules version), 2 (the hand as the engine's state,
        // before HandView), 3 (before the tournament standing and table.watch),
        // 4 (a finish without its tie, T 8-16) or 5 (before the account.closed push) is told to update,
        // as any older client.
        expect(PROTOCOL_VERSION).toBe(6);
        for (const protocol of [1, 2, 3, 4, 5]) {
          const old = await TestClient.connect(second.url, second.pin);
          const answer = old.waitFor((m) => m.type === 'error');
          old.send({ type: 'hello', protocol, client: '0.1.0' });
          expect(await answer).toMatchObject({ code: 'UPDATE_REQUIRED' });
          await old.close();
        }
        const c2 = await TestClient.guest(second.url, second.pin);
        expect(await c2.join('play-o4jl', 400, { rulesVersion: confirmed })).toMatchObject({ type: 'error', code: 'RULES_CHANGED', rule: 'R-INFO', tableId: 'play-o4jl' });
        // Rules as no lobby showed them (a stake the player did not see) are refused too.
        expect(await c2.join('play-o4jl', 400, { rulesVersion: rulesVersion({ ...table, rules: { ...table.rules, bigBlind: 40 } }, seen.conditions.version) })).toMatchObject({ code: 'RULES_CHANGED' });
        expect(second.manager.get('play-o4jl')!.seatsTaken).toBe(0);
        // Read again, the conditions say 30 seconds; confirmed, the join goes through.
        const now = await c2.request({ type: 'lobby.subscribe' });
        if (now.type !== 'lobby') throw new Error(now.type);
        expect(now.conditions.en.join(' ')).toContain('30 seconds');
        expect(now.conditions.version).not.toBe(seen.conditions.version);
        expect(await c2.join('play-o4jl', 400, { rulesVersion: rulesVersion(now.tables.find((x) => x.tableId === 'play-o4jl')!, now.conditions.version) })).toMatchObject({ type: 'table.joined' });
        await c2.close();
      } finally {
        await second.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
