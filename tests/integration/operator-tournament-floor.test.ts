/**
 * The tournament machine running real tables (R-TOURN-RUN; docs/tournaments.md, "The tournament
 * machine … and its runner"): the runner books each event in the operator's SQLite (wallet, trace
 * outbox, saved state), the floor driver applies its effects to operator `Table`s where practice
 * players make every decision, and the tables' hands come back as events. Played to the winner: a
 * 30-player freezeout on 9-seat tables (tables broken and balanced, hand-for-hand at the bubble), a
 * heads-up rebuy sit & go, a 6-max stud sit & go (no blinds). The clock runs hundreds of times faster.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Accounts } from '../../operator/accounts';
import { PracticeBrain } from '../../operator/practice/strategy';
import { openOperatorDatabase } from '../../operator/schema';
import { scaledTimers } from '../../operator/tables/timers';
import { FloorDriver } from '../../operator/tournaments/floor-driver';
import { MachineStore } from '../../operator/tournaments/machine-store';
import { placesProblem } from '../../operator/tournaments/places';
import { TournamentRunner } from '../../operator/tournaments/runner';
import { crossCheck } from '../../operator/trace/crosscheck';
import { TraceOutbox } from '../../operator/trace/outbox';
import { TraceVault } from '../../operator/trace/vault';
import { Wallet } from '../../operator/wallet';
import { chipsIssued, entrantIds, entrantOf, type MachineSpec, type MachineState, type Notice, type SeatWhy } from '../../shared/rules/tournament/machine';
import { payout } from '../../shared/rules/tournament/payouts';
import { readyStructure, type TournamentStructure } from '../../shared/rules/tournament/structure';
import type { VariantCode } from '../../shared/rules/variants';
import type { Brain } from '../../operator/tables/types';
import { tempDir } from '../support/operator/temp-dir';

interface Played {
  state: MachineState;
  hands: number;
  ms: number;
  seatWhys: Set<SeatWhy>;
  notices: Notice[];
  tablesOpened: number;
  poachats: number;
  /** The field was at its money bubble with more than one table after a hand. */
  sawBubble: boolean;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Waits for `done` (polled), failing after `ms` of wall time or at the first problem reported. */
async function until(done: () => boolean, ms: number, problems: readonly unknown[]): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (problems.length > 0) throw problems[0] instanceof Error ? problems[0] : new Error(String(problems[0]));
    if (Date.now() > end) throw new Error(`not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A tournament of `players` practice players through machine + runner + floor driver on real parts,
 * played to its end; every check that needs the run (chips after every hand, the trace, the ledger).
 */
async function play(spec: MachineSpec, players: number, speed: number, afterStart?: (driver: FloorDriver, ids: readonly number[]) => void): Promise<Played> {
  const dir = tempDir('cercle-floor-');
  const db = openOperatorDatabase(join(dir.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(dir.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  const outbox = new TraceOutbox(db, vault);
  const wallet = new Wallet(db);
  const accounts = new Accounts(db);
  const timers = scaledTimers(speed);
  const problems: unknown[] = [];
  const notices: Notice[] = [];
  const seatWhys = new Set<SeatWhy>();
  const brains = new Map<number, Brain>();
  let tablesOpened = 0;
  let sawBubble = false;
  const driver = new FloorDriver({
    db,
    outbox,
    timers,
    idOper: '0099',
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    brainFor: (w) => {
      let b = brains.get(w.accountId);
      if (!b) brains.set(w.accountId, (b = new PracticeBrain({ samples: 8 })));
      return b;
    },
    notice: (n) => notices.push(n),
    error: (e) => problems.push(e),
    handEnded: (no, s) => {
      if (s.poolFinal && s.remaining === s.prizes.length + 1 && driver.tableNumbers().length > 1) sawBubble = true;
      // R-CONSERVE: the chips in play are the chips issued, after every hand.
      let held = 0;
      for (const id of entrantIds(s)) {
        const e = entrantOf(s, id)!;
        held += e.stack + e.pending;
      }
      if (held !== chipsIssued(s) - s.removed) problems.push(new Error(`after a hand at table ${no}: ${held} chips held, ${chipsIssued(s) - s.removed} issued`));
      // The table's players hold what the machine says they hold, where it says they sit.
      const t = driver.table(no);
      for (const p of t?.players() ?? []) {
        const e = entrantOf(s, p.accountId)!;
        if (e.stack !== p.stack || e.table !== no || e.seat !== p.seat) problems.push(new Error(`table ${no}: ${p.name} holds ${p.stack} at ${p.seat}, the machine says ${e.stack} at ${e.table}/${e.seat}`));
      }
    },
  });
  const started = Date.now();
  const runner = TournamentRunner.create(spec, 12345, {
    db,
    wallet,
    outbox,
    store: new MachineStore(db),
    clock: () => timers.now(),
    act: (effects, s) => {
      for (const e of effects) {
        if (e.kind === 'seat') seatWhys.add(e.why);
        if (e.kind === 'openTable') tablesOpened++;
      }
      driver.act(effects, s);
    },
  });
  driver.attach(runner);
  cleanups.push(() => {
    driver.close();
    outbox.close();
    vault.close();
    db.close();
    dir.cleanup();
  });

  const ids: number[] = [];
  for (let n = 0; n < players; n++) {
    const a = accounts.createPracticeAccount(`practice-f${n}`);
    if (!a.ok) throw new Error(a.code);
    ids.push(a.account.id);
    wallet.grantPlay(a.account.id, 100_000, { idempotencyKey: `floor:${n}` });
    const who = { accountId: a.account.id, name: a.account.username, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
    const r = driver.send({ type: 'register', who, inscription: `${spec.id}.${n}`, auto: true });
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  }
  if (spec.format === 'scheduled') expect(driver.send({ type: 'start' }).ok).toBe(true);
  afterStart?.(driver, ids);

  // A hand dealt on a break or out of its hand-for-hand round is refused by the machine: the driver
  // reports it as a problem, and the run fails here.
  await until(() => runner.state.phase === 'finished', 20_000, problems);
  const ms = Date.now() - started;
  expect(problems).toEqual([]);
  const s = runner.state;

  // Each player ranked once, places 1..n (ties sharing, T 8-16).
  const finished = notices.flatMap((n) => (n.type === 'finished' ? [n] : []));
  expect(finished).toHaveLength(players);
  expect(new Set(finished.map((f) => f.accountId)).size).toBe(players);
  expect(placesProblem(finished.map((f) => f.place))).toBeNull();
  // The prizes are the pool, paid as payout() says (a tied group shares the prizes of its places).
  const st = spec.structure;
  const pool = s.entries * spec.buyIn + s.rebuyCount * (st.rebuy?.price ?? 0) + s.addOnCount * (st.addOn?.price ?? 0);
  const prizes = payout(pool, players, st.payouts);
  expect(finished.reduce((a, f) => a + f.prize, 0)).toBe(pool);
  const byPlace = new Map<number, number[]>();
  for (const f of finished) byPlace.set(f.place, [...(byPlace.get(f.place) ?? []), f.prize]);
  for (const [place, got] of byPlace) {
    const due = prizes.slice(place - 1, place - 1 + got.length).reduce((a, x) => a + x, 0);
    expect(got.reduce((a, x) => a + x, 0)).toBe(due);
  }
  // Money: the ledger balances, the tournament's fund is empty.
  expect(wallet.audit().ok).toBe(true);
  expect(wallet.tableHeld(runner.fundId)?.held).toBe(0);
  // The trace: every record in the vault, the chain whole, every movement and hand with its record.
  while (outbox.pending() > 0) outbox.flush();
  expect(vault.verifyChain().ok).toBe(true);
  expect(crossCheck(db, vault, null, outbox.pendingRecords()).missing).toEqual([]);
  const kinds = vault.summaries().map((r) => r.kind);
  expect(kinds.filter((k) => k === 'POJEU')).toHaveLength(driver.hands);
  expect(kinds.filter((k) => k === 'POBILAN')).toHaveLength(players);
  expect(driver.tableNumbers()).toEqual([]);
  return { state: s, hands: driver.hands, ms, seatWhys, notices, tablesOpened, poachats: kinds.filter((k) => k === 'POACHAT').length, sawBubble };
}

function machineSpec(id: string, variant: VariantCode, over: Partial<MachineSpec>, structure: Partial<TournamentStructure> = {}, rebuys = false): MachineSpec {
  return {
    id,
    name: `Floor ${id}`,
    variant,
    money: 'play',
    buyIn: 1000,
    fee: 100,
    format: 'sit-and-go',
    seats: 6,
    maxEntrants: 6,
    minEntrants: 6,
    ...over,
    structure: { ...readyStructure(variant, 'hyper-turbo', rebuys ? { rebuys: { price: 1000, fee: 100 } } : {}), lateRegistrationLevels: 0, ...structure },
  };
}

describe('the tournament machine at real tables (runner + floor driver)', () => {
  it('a 30-player no-limit hold’em freezeout on 9 seats: tables break and balance, hand-for-hand at the bubble, played to its winner', async () => {
    // A break after every level (the tables wait for the clock), levels of 3 minutes in 0.3 s; 12 places
    // paid, so the bubble (13 left) comes with two tables playing hand-for-hand.
    const deep = { name: 'deep', fixed: [], paidPerMille: 400, minCashTenths: 15 };
    const spec = machineSpec('floor-mtt', 'THNL', { format: 'scheduled', seats: 9, maxEntrants: 30, minEntrants: 2 }, { breaks: { everyLevels: 1, minutes: 1 }, payouts: deep });
    const r = await play(spec, 30, 600);
    expect(r.tablesOpened).toBe(4);
    expect(r.seatWhys).toContain('start');
    expect(r.seatWhys).toContain('broken');
    expect(r.seatWhys).toContain('final');
    // At the bubble with two tables left, hand-for-hand (a hand busting two players from 14 skips it).
    const hfh = r.notices.some((n) => n.type === 'handForHand' && n.on);
    expect(hfh).toBe(r.sawBubble);
    expect(r.notices.some((n) => n.type === 'clock' && n.onBreak)).toBe(true);
    console.log(`floor MTT: 30 players, ${r.hands} hands in ${r.ms} ms; seats ${[...r.seatWhys].join(',')}; hand-for-hand ${hfh}`);
  }, 30_000);

  it('a heads-up rebuy sit & go: busted practice players rebuy in the period, then the last bust ends it', async () => {
    const spec = machineSpec('floor-hu', 'THNL', { seats: 2, maxEntrants: 2, minEntrants: 2 }, {}, true);
    const r = await play(spec, 2, 600);
    expect(r.state.entries).toBe(2);
    // T 5-4: both practice players take the add-on at the end of the rebuy period; each purchase has its POACHAT.
    expect(r.state.addOnCount).toBe(2);
    expect(r.poachats).toBe(r.state.rebuyCount + r.state.addOnCount);
    console.log(`floor heads-up rebuy: ${r.hands} hands, ${r.state.rebuyCount} rebuys, ${r.state.addOnCount} add-ons in ${r.ms} ms`);
  }, 30_000);

  it('a 6-max seven-card stud sit & go (antes and bring-in, no blinds), one player absent, played to its winner', async () => {
    const spec = machineSpec('floor-stud', '7SHL', {});
    // One player absent from the start (T 2-15): sitting out at the table, dealt in and folded.
    let absentSat = false;
    const r = await play(spec, 6, 600, (driver, ids) => {
      expect(driver.send({ type: 'absent', accountId: ids[0], absent: true }).ok).toBe(true);
      absentSat = driver.table(driver.tableNumbers()[0])!.players().some((p) => p.accountId === ids[0] && p.sittingOut);
    });
    expect(absentSat).toBe(true);
    expect(r.tablesOpened).toBe(1);
    console.log(`floor stud: 6 players, ${r.hands} hands in ${r.ms} ms`);
  }, 30_000);
});
