/**
 * R-BANNED applied at once to every session (SPEC §2b; docs/protection.md "A new ban file"): an
 * operator process serving a real-money player who is signed in, seated at two real-money cash tables
 * (one in a hand, one where no hand can be dealt) and registered to a real-money sit & go; then the
 * operator's own command, `bans replace`, run as a process of its own with a ban file holding that
 * person. The operator learns of the new file without a restart and without the player signing in
 * again: the account is closed ('banned') and the client told; the idle table's stack comes back at
 * once, the other after the hand in progress; the registration is refunded; deposits, joins, top-ups
 * and registrations are refused ACCOUNT_CLOSED; withdrawal and history stay open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import type { OperatorConfig } from '../../operator/config/config';
import { TEST_CARDS } from '../../operator/cashier/provider';
import { BAN_FILE_HEADER, identityHash } from '../../operator/protection/identity';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { killProcess, startOperatorProcess } from './operator-process';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./operator-bans.child.ts', import.meta.url));
const REAL = { variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 2000 } } as const;
const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0183', idCoffre: 1, name: 'Bans' },
  tables: [
    { id: 'cash', name: 'Cash', ...REAL },
    { id: 'cash2', name: 'Cash 2', ...REAL },
  ],
};
const ZOE = { lastName: 'Lefèvre', firstNames: 'Zoé Anne', birthDate: '1990-05-04' };
const YANN = { lastName: 'Morel', firstNames: 'Yann', birthDate: '1985-12-31' };
const HOUR = 3_600_000;

type Msg<K extends ServerMessage['type']> = Extract<ServerMessage, { type: K }>;

/** Resolves once `cond` holds, asked every 20 ms; fails after `timeoutMs` saying what it waited for. */
async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A registered real-money player with every limit set and 10,000 cents deposited. */
async function player(url: string, pin: string, username: string, identity: typeof ZOE, address: string): Promise<{ c: TestClient; id: number }> {
  const c = await TestClient.connect(url, pin, { localAddress: address });
  await c.hello();
  const r = await c.request({ type: 'register', username, password: `${username}-password`, identity });
  expect(r).toMatchObject({ type: 'authed' });
  for (const [limit, value] of [['deposit', 50_000], ['stake', 50_000], ['time', 10 * HOUR]] as const) {
    expect(await c.request({ type: 'protection.setLimit', limit, value })).toMatchObject({ type: 'protection' });
  }
  expect(await c.request({ type: 'cashier.deposit', requestId: `${username}-1`, amount: 10_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' } });
  return { c, id: (r as Msg<'authed'>).account.id };
}

/** `operator bans replace <file> --data <folder>`, the operator's own command, in a process of its own. */
function bansReplace(file: string, dataDir: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/main.ts', 'bans', 'replace', file, '--data', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

describe('a new ban file applies at once to every session (R-BANNED)', () => {
  it('closes the signed-in, seated, registered holder: stood up after the hand in progress, chips back, play and deposits refused, withdrawal and history open', async () => {
    const t = tempDir();
    let child: ChildProcess | undefined;
    try {
      const run = await startOperatorProcess(CHILD, t.dir, CONFIG);
      child = run.child;
      const zoe = await player(run.url, run.pin, 'zoe', ZOE, '127.0.0.1');
      const yann = await player(run.url, run.pin, 'yann', YANN, '127.0.0.2');
      const zp = new AutoPlayer(zoe.c, () => 0.5);
      const yp = new AutoPlayer(yann.c, () => 0.5);
      void yp;

      // A real-money sit & go that waits for six: Zoé's entry (buy-in + fee) is held by it.
      const list = (await zoe.c.request({ type: 'tournament.list' })) as Msg<'tournament.list'>;
      const sng = list.tournaments.find((x) => x.tournamentId.startsWith('sng-real-') && x.state === 'registering')!;
      expect(await zoe.c.request({ type: 'tournament.register', tournamentId: sng.tournamentId, version: sng.version })).toMatchObject({ type: 'tournament.registered' });
      // Alone at cash2: no hand can be dealt there, the stack waits.
      expect(await zoe.c.join('cash2', 1_000)).toMatchObject({ type: 'table.joined' });
      expect(await zoe.c.join('cash', 2_000)).toMatchObject({ type: 'table.joined' });
      expect(await yann.c.join('cash', 2_000)).toMatchObject({ type: 'table.joined' });
      // Zoé stops acting: a hand waits on her at cash, so the ban lands during the hand in progress.
      zp.paused = true;
      await until("Zoé's turn in a hand at cash", () => {
        const s = zp.tables.get('cash');
        return s !== undefined && s.hand !== null && s.seat !== null && s.turn === s.seat;
      });
      const wallet = ((await zoe.c.request({ type: 'balance' })) as Msg<'balance'>).balances.real;
      expect(wallet).toBe(10_000 - 1_100 - 1_000 - 2_000);

      const banFile = join(t.dir, 'national-bans.txt');
      writeFileSync(banFile, `${BAN_FILE_HEADER}\n${identityHash('LEFEVRE', 'zoe anne', '1990-05-04')}\n`);
      const replaced = await bansReplace(banFile, t.dir);
      expect(replaced).toMatchObject({ code: 0 });

      // The operator learns of it with no login, no resume: the account is closed, the client told.
      await until('the account closed', async () => ((await zoe.c.request({ type: 'protection.get' })) as Msg<'protection'>).protection.closed === 'banned');
      await zoe.c.waitFor((m) => m.type === 'account.closed', 10_000, true);
      expect(zoe.c.received.find((m) => m.type === 'account.closed')).toMatchObject({ reason: 'banned' });
      // The idle table's stack is back at once; the registration refunded.
      await until('stood up at cash2', () => zoe.c.received.some((m) => m.type === 'table.left' && m.tableId === 'cash2'));
      expect(zoe.c.received.find((m) => m.type === 'table.left' && m.tableId === 'cash2')).toMatchObject({ cashedOut: 1_000 });
      await until('the entry refunded', async () => ((await zoe.c.request({ type: 'balance' })) as Msg<'balance'>).balances.real === wallet + 1_000 + 1_100);
      // Still in the hand at cash: nothing more may go in (a top-up is a stake).
      expect(zoe.c.received.some((m) => m.type === 'table.left' && m.tableId === 'cash')).toBe(false);
      expect(await zoe.c.request({ type: 'table.topUp', tableId: 'cash', amount: 10 })).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-BANNED' });

      // She plays the hand out, then is stood up with her stack.
      const endsBefore = zoe.c.received.filter((m) => m.type === 'table.event' && m.tableId === 'cash' && m.event.type === 'handEnd').length;
      zp.resume();
      const left = (await zoe.c.waitFor((m) => m.type === 'table.left' && m.tableId === 'cash', 30_000, true)) as Msg<'table.left'>;
      const upTo = zoe.c.received.indexOf(left);
      expect(zoe.c.received.slice(0, upTo).filter((m) => m.type === 'table.event' && m.tableId === 'cash' && m.event.type === 'handEnd').length).toBe(endsBefore + 1);
      const balance = ((await zoe.c.request({ type: 'balance' })) as Msg<'balance'>).balances.real;
      expect(balance).toBe(wallet + 1_000 + 1_100 + left.cashedOut);

      // Closed for play and deposits…
      expect(await zoe.c.request({ type: 'cashier.deposit', requestId: 'zoe-2', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-BANNED' });
      expect(await zoe.c.join('cash', 400)).toMatchObject({ code: 'ACCOUNT_CLOSED' });
      expect(await zoe.c.join('cash2', 400)).toMatchObject({ code: 'ACCOUNT_CLOSED' });
      expect(await zoe.c.request({ type: 'tournament.register', tournamentId: sng.tournamentId, version: sng.version })).toMatchObject({ code: 'ACCOUNT_CLOSED' });
      // …open for history and withdrawal.
      const history = (await zoe.c.request({ type: 'history', cursor: null, limit: 10 })) as Msg<'history'>;
      expect(history.hands.length).toBeGreaterThan(0);
      expect(await zoe.c.request({ type: 'cashier.withdraw', requestId: 'zoe-w', amount: balance, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' }, balances: { real: 0 } });
      // The other player plays on.
      expect(await yann.c.request({ type: 'protection.get' })).toMatchObject({ protection: { closed: null } });
      expect(zoe.c.invalid).toEqual([]);
      await zoe.c.close();
      await yann.c.close();
    } finally {
      if (child) await killProcess(child);
      t.cleanup();
    }
  }, 120_000);
});
