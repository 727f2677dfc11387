import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handOf } from '../../shared/protocol/hand';
import type { Move, TableEvent } from '../../shared/protocol/messages';
import { decide } from '../../shared/rules/decide';
import { legalActions } from '../../shared/rules/engine';
import { makeTableRules, type TableRules } from '../../shared/rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../shared/rules/variants';
import { Accounts } from '../accounts';
import type { Db } from '../../shared/node/sqlite';
import { PracticeHost } from '../practice/host';
import { openOperatorDatabase } from '../schema';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { inscriptionParts } from '../trace/inscription';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { cashTableHooks } from './cash';
import { SeatLedger } from './seats';
import { Table, type TableOptions } from './table';
import { ManualTimers } from './timers';
import type { TablePlayer, TableSpec } from './types';

interface Env {
  db: Db;
  wallet: Wallet;
  seats: SeatLedger;
  vault: TraceVault;
  accounts: Accounts;
  timers: ManualTimers;
  errors: unknown[];
  /** The operator's log lines (voided hands). */
  logs: string[];
  cleanup: () => void;
}

const envs: Env[] = [];
afterEach(() => {
  for (const e of envs.splice(0)) e.cleanup();
});

function env(): Env {
  const t = tempDir();
  const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(t.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  const e: Env = {
    db,
    wallet: new Wallet(db),
    seats: new SeatLedger(db),
    vault,
    accounts: new Accounts(db),
    timers: new ManualTimers(),
    errors: [],
    logs: [],
    cleanup: () => {
      vault.close();
      db.close();
      t.cleanup();
    },
  };
  envs.push(e);
  return e;
}

function rulesFor(v: VariantCode, overrides: Partial<TableRules> = {}): TableRules {
  const limit = VARIANTS[v].betting === 'limit';
  if (VARIANTS[v].forcedBets === 'ante-bring-in') return makeTableRules(v, { ante: 10, bringIn: 20, smallBet: 40 }, overrides);
  return makeTableRules(v, limit ? { smallBlind: 20, bigBlind: 40 } : { smallBlind: 50, bigBlind: 100 }, overrides);
}

function table(e: Env, spec: Partial<TableSpec> & { rules: TableRules }, options: Partial<TableOptions> = {}, practice?: PracticeHost): Table {
  const full: TableSpec = {
    tableId: `t-${spec.rules.variant.toLowerCase()}`,
    name: 'Test table',
    money: 'play',
    practice: true,
    seats: Math.min(6, VARIANTS[spec.rules.variant].maxSeats),
    buyIn: { min: 2000, max: 10_000 },
    mode: 'cash',
    ...spec,
  };
  const hooks = cashTableHooks(full, { wallet: e.wallet, seats: e.seats, vault: e.vault, error: (x) => e.errors.push(x), log: (l) => e.logs.push(l) });
  const t = new Table(full, hooks, { timers: e.timers, idOper: '0099', betweenHandsMs: 0, practiceDelayMs: [0, 0], ...options });
  hooks.afterHand = () => practice?.tend(t);
  return t;
}

function person(e: Env, ip: string, chips = 100_000, kind: 'play' | 'real' = 'play'): TablePlayer {
  const g = e.accounts.createGuest({ ip });
  if (!g.ok) throw new Error('guest');
  if (kind === 'play') e.wallet.grantPlay(g.account.id, chips, { idempotencyKey: `g-${g.account.id}` });
  return { accountId: g.account.id, name: g.account.username, practice: false, ip, sessionId: g.session.sessionId };
}

/** Records every event a person receives. */
function listen(t: Table, p: TablePlayer): TableEvent[] {
  const got: TableEvent[] = [];
  t.attach(p.accountId, (frame) => {
    const m = JSON.parse(frame) as { type: string; event?: TableEvent };
    if (m.type === 'table.event') got.push(m.event!);
  });
  return got;
}

function books(e: Env, tables: Table[]): void {
  const audit = e.wallet.audit();
  expect(audit.problems).toEqual([]);
  for (const t of tables) expect(e.wallet.tableHeld(t.tableId)?.held ?? 0).toBe(t.chipsOnTable());
  // Who holds the chips is kept with them (crash recovery): Σ seated stacks = what each table holds.
  expect(e.seats.audit()).toEqual([]);
  const chain = e.vault.verifyChain();
  expect(chain.ok).toBe(true);
}

describe('a table of practice players', () => {
  it.each(VARIANT_CODES)('%s: plays hands, conserves every chip (R-CONSERVE) and writes one POJEU per hand', (v) => {
    const e = env();
    const host = new PracticeHost({ accounts: e.accounts, wallet: e.wallet, timers: e.timers, brain: { samples: 6 } });
    const t = table(e, { rules: rulesFor(v, { rake: { basisPoints: 500, cap: 200, noFlopNoDrop: true } }) }, {}, host);
    host.manage(t, t.spec.seats - 1);
    while (t.handsPlayed < 40) e.timers.runDue(1);
    t.close();
    expect(e.errors).toEqual([]);
    books(e, [t]);
    expect(e.wallet.tableHeld(t.tableId)?.held).toBe(0);
    expect(e.seats.all()).toEqual([]); // every seating closed with its POBILAN
    // Practice players are accounts made through Accounts (reserved prefix, play money only).
    expect(e.accounts.findByUsername('practice-01')).toMatchObject({ guest: true });
    const records = e.vault.byTech(t.tableId);
    const hands = records.filter((r) => r.kind === 'POJEU');
    expect(hands.length).toBeGreaterThanOrEqual(40);
    expect(hands[0].xml).toContain(`<Regle>${v}</Regle>`);
    expect(hands[0].xml).toContain('test="true"'); // play money
    const inscriptions = records.filter((r) => r.kind === 'POINSCRIT').length;
    expect(records.filter((r) => r.kind === 'POBILAN').length).toBe(inscriptions);
  });
});

describe('people at a table', () => {
  it('seats at random within the seats (R-RANDSEAT), checks the buy-in range and refuses a second account from one address (R-NOBOT)', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL') });
    const a = person(e, '203.0.113.1');
    expect(t.join(a, 1999, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'BUY_IN_RANGE', min: 2000, max: 10_000 });
    const r = t.join(a, 5000, { waitForBigBlind: false });
    expect(r).toMatchObject({ ok: true, stack: 5000 });
    expect(t.join(a, 5000, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'ALREADY_SEATED' });
    const b = person(e, '203.0.113.1');
    expect(t.join(b, 5000, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'SAME_ADDRESS', rule: 'R-NOBOT' });
    const c = person(e, '203.0.113.2', 1000);
    expect(t.join(c, 2000, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', rule: 'R-NODEBT' });
    expect(e.wallet.balance(a.accountId, 'play')).toBe(95_000);
    // A 1.3.6.b: the seat's Inscription, made by the one maker (operator/trace/inscription.ts), names the table.
    const joined = e.vault.byTech(t.tableId).find((x) => x.kind === 'POINSCRIT')!;
    expect(inscriptionParts(joined.inscription!)).toMatchObject({ tech: t.tableId });

    // Over many tables, every seat comes up.
    const seats = new Set<number>();
    for (let i = 0; i < 60; i++) {
      const tt = table(e, { rules: rulesFor('THNL'), tableId: `r-${i}` });
      const p = person(e, `198.51.100.${i + 1}`);
      const j = tt.join(p, 2000, { waitForBigBlind: false });
      if (j.ok) seats.add(j.seat);
    }
    expect([...seats].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a guest may not sit at a real-money table', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL'), money: 'real', practice: false });
    const g = person(e, '203.0.113.9', 0, 'real');
    expect(t.join(g, 2000, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'REAL_MONEY_FORBIDDEN' });
  });

  it('the clock checks or folds for an absent player, the time bank runs first, and repeated timeouts sit the player out', () => {
    const e = env();
    const rules = rulesFor('THNL', { actionSeconds: 10, timeBankSeconds: 20 });
    const t = table(e, { rules, betweenHandsMs: 0 } as never, { betweenHandsMs: 0 });
    const a = person(e, '203.0.113.1');
    const b = person(e, '203.0.113.2');
    t.join(a, 5000, { waitForBigBlind: false });
    const evA = listen(t, a);
    t.join(b, 5000, { waitForBigBlind: false });
    listen(t, b);
    e.timers.runDue();
    const turns = () => evA.filter((x): x is Extract<TableEvent, { type: 'turn' }> => x.type === 'turn');
    expect(turns().length).toBe(1);
    const first = turns()[0].turn;
    expect(first.actionMs).toBe(10_000);
    e.timers.advance(10_000); // action time over: the bank runs
    expect(turns()[1].turn).toMatchObject({ seat: first.seat, actionMs: 0, timeBankMs: 20_000 });
    e.timers.advance(20_000); // bank over: timeout
    const acted = evA.filter((x) => x.type === 'action' && x.by === 'clock');
    expect(acted.length).toBe(1);
    // Heads-up pre-flop: the button (small blind) faces the big blind: it folds. Play on until sat out.
    for (let i = 0; i < 40; i++) e.timers.advance(10_000);
    const views = t.players();
    expect(views.some((p) => p.sittingOut)).toBe(true);
    expect(e.errors).toEqual([]);
    books(e, [t]);
  });

  it('a refused move is sent as the one decision path made it; a repeated action id is applied once and answered with the same result', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL') });
    const a = person(e, '203.0.113.1');
    const b = person(e, '203.0.113.2');
    t.join(a, 5000, { waitForBigBlind: false });
    t.join(b, 5000, { waitForBigBlind: false });
    listen(t, a);
    listen(t, b);
    e.timers.runDue();
    const snap = t.snapshot(a.accountId).table;
    const toAct = handOf(snap.hand!).toAct!;
    const actor = toAct === snap.you!.seat ? a : b;
    const other = actor === a ? b : a;
    expect(t.act(other.accountId, 'x1', { type: 'call' })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    // The one decision path's refusal as it is: heads-up, the small blind acts first
    // and faces the big blind, so a check is refused with the rule, the English reason and the call.
    const refused = t.act(actor.accountId, 'c1', { type: 'check' });
    expect(refused).toEqual({ ok: false, code: 'ILLEGAL_ACTION', rule: 'R-TERMS', message: 'a check cannot answer a bet: call 50 or fold', call: 50, replayed: false });
    const { replayed: _, ...asSent } = refused;
    expect(decide(handOf(t.snapshot(actor.accountId).table.hand!), t.seatOf(actor.accountId), { type: 'check' })).toStrictEqual(asSent);
    const first = t.act(actor.accountId, 'x1', { type: 'call' });
    expect(first).toEqual({ ok: true, replayed: false });
    const again = t.act(actor.accountId, 'x1', { type: 'call' });
    expect(again).toEqual({ ok: true, replayed: true });
    expect(t.act(actor.accountId, 'x1', { type: 'fold' })).toMatchObject({ ok: false, code: 'ACTION_ID_REUSED' });
    const bad = t.act(other.accountId, 'y1', { type: 'bet', to: 150 });
    expect(bad).toMatchObject({ ok: false, code: 'ILLEGAL_ACTION', rule: 'R-MINRAISE', min: 200 });
    books(e, [t]);
  });

  it('leaving mid-hand folds at the player\'s turn and cashes out when the hand ends (R-CASH); a top-up waits for the hand to end', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL') });
    const a = person(e, '203.0.113.1');
    const b = person(e, '203.0.113.2');
    const c = person(e, '203.0.113.3');
    for (const p of [a, b, c]) {
      t.join(p, 5000, { waitForBigBlind: false });
      listen(t, p);
    }
    e.timers.runDue();
    expect(t.handInProgress).toBe(true);
    // a and b are in the first hand; c sat down during it.
    expect(t.topUp(c.accountId, 1000)).toEqual({ ok: true, applied: true });
    expect(t.topUp(b.accountId, 1000)).toEqual({ ok: true, applied: false });
    expect(t.snapshot(b.accountId).table.you?.pendingTopUp).toBe(1000);
    expect(t.topUp(b.accountId, 10_000)).toMatchObject({ ok: false, code: 'BUY_IN_RANGE' });
    expect(t.leave(a.accountId)).toEqual({ ok: true, cashedOut: null });
    // Everyone else folds or checks by the clock until the hand ends.
    for (let i = 0; i < 20 && t.isSeated(a.accountId); i++) e.timers.advance(60_000);
    expect(t.isSeated(a.accountId)).toBe(false);
    const records = e.vault.byTech(t.tableId);
    expect(records.map((r) => r.kind)).toContain('POACHAT');
    expect(records.filter((r) => r.kind === 'POBILAN').length).toBe(1);
    t.close();
    books(e, [t]);
    expect(e.wallet.balance(a.accountId, 'play') + e.wallet.balance(b.accountId, 'play') + e.wallet.balance(c.accountId, 'play')).toBe(300_000);
  });
});

/** Two people (stacks 5000 and 3000) at a play-money Hold'em table of their own, its first hand dealt. */
function headsUp(e: Env, tableId: string) {
  const full: TableSpec = { tableId, name: tableId, money: 'play', practice: false, seats: 6, buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules: rulesFor('THNL') };
  const hooks = cashTableHooks(full, { wallet: e.wallet, seats: e.seats, vault: e.vault, error: (x) => e.errors.push(x), log: (l) => e.logs.push(l) });
  const t = new Table(full, hooks, { timers: e.timers, idOper: '0099', betweenHandsMs: 0 });
  const a = person(e, '203.0.113.1');
  const b = person(e, '203.0.113.2');
  t.join(a, 5000, { waitForBigBlind: false });
  t.join(b, 3000, { waitForBigBlind: false });
  const events = listen(t, a);
  e.timers.runDue();
  const pool = handOf(t.snapshot(a.accountId).table.hand!).handId!;
  return { t, hooks, a, b, events, pool };
}

describe('top-ups below the minimum buy-in', () => {
  it('a seat below the table minimum must be brought back to it at least; the refusal gives the allowed range', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL') });
    const a = person(e, '203.0.113.1');
    const b = person(e, '203.0.113.2');
    for (const p of [a, b]) {
      t.join(p, 2000, { waitForBigBlind: false });
      listen(t, p);
    }
    e.timers.runDue();
    // Hands by the clock until one seat has lost chips and no hand is running.
    const stackOf = (p: TablePlayer) => { const v = t.snapshot(p.accountId).table; return v.seats[v.you!.seat]!.stack; };
    for (let i = 0; i < 40 && !(!t.handInProgress && Math.min(stackOf(a), stackOf(b)) < 2000); i++) e.timers.advance(60_000);
    const short = stackOf(a) < 2000 ? a : b;
    const stack = stackOf(short);
    expect(stack).toBeLessThan(2000);
    expect(t.topUp(short.accountId, 2000 - stack - 1)).toMatchObject({ ok: false, code: 'BUY_IN_RANGE', min: 2000 - stack, max: 10_000 - stack });
    expect(t.topUp(short.accountId, 2000 - stack)).toMatchObject({ ok: true });
    t.close();
    books(e, [t]);
  });
});

/** The person whose turn it is at `t`, among `people`. */
function actor(t: Table, people: TablePlayer[]): TablePlayer {
  const view = t.snapshot(people[0].accountId).table.hand;
  const hand = view ? handOf(view) : null;
  const seat = hand ? legalActions(hand).seat : null;
  if (seat === null) throw new Error('no one to act');
  const p = people.find((x) => t.seatOf(x.accountId) === seat);
  if (!p) throw new Error(`seat ${seat} is no one's here`);
  return p;
}

/** The move a calling station makes: check, else call, else fold. */
function passive(t: Table, p: TablePlayer): Move {
  const legal = legalActions(handOf(t.snapshot(p.accountId).table.hand!));
  if (legal.next === 'show') return { type: 'show' };
  if (legal.check) return { type: 'check' };
  if (legal.call !== null) return { type: 'call' };
  return { type: 'fold' };
}

/** The opening tag of a stored record: its kind and flags (A 1.3.6.c: supervision, test). */
function openingTag(xml: string): string {
  return xml.split('\n')[0];
}

describe('a voided hand: neither a POJEU nor a POANNUL, the reason in the operator\'s log (A 1.3.6.c.6)', () => {
  it('a table stopped mid-hand: every stake back on its cave, no record of the hand, the log says why; stacks cashed out at their start-of-hand values with POBILANs flagged supervision', () => {
    const e = env();
    const t = table(e, { rules: rulesFor('THNL', { rake: { basisPoints: 500, cap: 200, noFlopNoDrop: false } }) });
    const people = ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map((ip) => person(e, ip));
    for (const p of people) {
      t.join(p, 5000, { waitForBigBlind: false });
      listen(t, p);
    }
    const events = listen(t, people[0]);
    e.timers.runDue();
    // A first hand, played to the end, moves chips between the players and takes its rake.
    let n = 0;
    while (t.handsPlayed < 1) {
      const p = actor(t, people);
      t.act(p.accountId, `h1-${n++}`, passive(t, p));
    }
    const atStart = new Map(t.players().map((p) => [p.accountId, p.stack]));
    expect([...atStart.values()].sort()).not.toEqual([5000, 5000, 5000]);
    const wallets = new Map(people.map((p) => [p.accountId, e.wallet.balance(p.accountId, 'play')]));
    e.timers.runDue(); // the second hand starts
    expect(t.handInProgress).toBe(true);
    // Chips go in: a raise and a call.
    const raiser = actor(t, people);
    const legal = legalActions(handOf(t.snapshot(raiser.accountId).table.hand!));
    expect(t.act(raiser.accountId, 'r', { type: 'bet', to: legal.bet!.min })).toMatchObject({ ok: true });
    const caller = actor(t, people);
    expect(t.act(caller.accountId, 'c', { type: 'call' })).toMatchObject({ ok: true });
    const hand = handOf(t.snapshot(raiser.accountId).table.hand!);
    const pool = hand.handId!;
    const inHand = people.filter((p) => !['empty', 'out'].includes(hand.seats[t.seatOf(p.accountId)!].status));
    expect(inHand.length).toBeGreaterThanOrEqual(2);

    t.close();
    expect(e.errors).toEqual([]);
    expect(events.some((x) => x.type === 'handCancelled')).toBe(true);
    // Each player leaves with the stack they had when the hand began: the stakes came back, no rake.
    for (const p of people) expect(e.wallet.balance(p.accountId, 'play')).toBe(wallets.get(p.accountId)! + atStart.get(p.accountId)!);
    books(e, [t]);
    expect(e.wallet.tableHeld(t.tableId)?.held).toBe(0);
    expect(e.seats.all()).toEqual([]);

    const records = e.vault.byTech(t.tableId);
    // No POJEU (the hand has no outcome) and no POANNUL: the players' inscriptions were not cancelled,
    // each is closed by its POBILAN, and POANNUL would cancel "tous les évènements qui lui sont liés".
    expect(e.vault.byPool(pool)).toEqual([]);
    expect(records.map((r) => r.kind)).not.toContain('POANNUL');
    const line = e.logs.find((l) => l.includes(`hand ${pool} voided`));
    expect(line).toContain('(the table stopped): no POJEU, no POANNUL');
    for (const p of inHand) expect(line).toContain(`${p.accountId} (`);
    for (const p of [raiser, caller]) expect(line).toContain(`${p.accountId} (${records.find((r) => r.kind === 'POINSCRIT' && r.xml.includes(`<IDJoueur>${p.accountId}<`))!.inscription}): stake ${legal.bet!.min} back, cave ${atStart.get(p.accountId)}`);
    for (const p of people) {
      const mine = records.filter((r) => r.kind !== 'POJEU' && r.xml.includes(`<IDJoueur>${p.accountId}</IDJoueur>`));
      expect(mine.map((r) => r.kind)).toEqual(['POINSCRIT', 'POBILAN']);
      // The player joined (their action); the table's stop cashed them out (the operator's: supervision).
      expect(openingTag(mine[0].xml)).toBe('<POINSCRIT test="true">');
      expect(openingTag(mine[1].xml)).toBe('<POBILAN supervision="true" test="true">');
    }
  });

  it('a fault while settling voids the hand: no record of it, the log says why, stacks as at its start, and the table plays on', () => {
    const e = env();
    const { t, hooks, a, b, events, pool } = headsUp(e, 't-fault');
    const settle = hooks.money.settle;
    let failures = 1;
    hooks.money.settle = (handId, rake, stacks, positions) => {
      if (failures-- > 0) throw new Error('disk I/O error'); // the settlement's write fails once
      settle(handId, rake, stacks, positions);
    };
    const folder = actor(t, [a, b]);
    t.act(folder.accountId, 'f', { type: 'fold' }); // the hand ends: its settlement fails
    expect(e.errors.map((x) => (x as Error).message)).toEqual(['disk I/O error']);
    expect(events.some((x) => x.type === 'handCancelled')).toBe(true);
    expect(t.players().map((p) => p.stack).sort()).toEqual([3000, 5000]);
    expect(e.vault.byPool(pool)).toEqual([]);
    expect(e.logs.filter((l) => l.includes(`hand ${pool} voided (a fault): no POJEU, no POANNUL`))).toHaveLength(1);
    books(e, [t]);
    // The table goes on with the next hand, which settles normally.
    e.timers.runDue();
    expect(t.handInProgress).toBe(true);
    const next = actor(t, [a, b]);
    t.act(next.accountId, 'f2', { type: 'fold' });
    expect(t.handsPlayed).toBe(1);
    expect(t.players().reduce((x, p) => x + p.stack, 0)).toBe(8000);
    books(e, [t]);
    t.close();
    books(e, [t]);
  });

  it('a hand whose POJEU cannot be written is not settled: voided, stacks as at its start, no POANNUL', () => {
    const e = env();
    const { t, hooks, a, b, events, pool } = headsUp(e, 't-pojeu');
    const hand = hooks.trace.hand;
    let failures = 1;
    hooks.trace.hand = (data) => {
      if (failures-- > 0) throw new Error('the POJEU could not be written'); // once
      hand(data);
    };
    const raiser = actor(t, [a, b]);
    expect(t.act(raiser.accountId, 'r', { type: 'bet', to: legalActions(handOf(t.snapshot(raiser.accountId).table.hand!)).bet!.min })).toMatchObject({ ok: true });
    t.act(actor(t, [a, b]).accountId, 'f', { type: 'fold' }); // the hand ends; its POJEU fails
    expect(e.errors.map((x) => (x as Error).message)).toEqual(['the POJEU could not be written']);
    expect(events.some((x) => x.type === 'handCancelled')).toBe(true);
    // Not settled: nobody won the blinds nor the raise; the seats hold the start-of-hand stacks.
    expect(t.players().map((p) => p.stack).sort()).toEqual([3000, 5000]);
    expect(t.handsPlayed).toBe(0);
    expect(e.vault.byPool(pool)).toEqual([]);
    expect(e.vault.byTech('t-pojeu').map((r) => r.kind)).toEqual(['POINSCRIT', 'POINSCRIT']);
    books(e, [t]);
  });
});

describe('the supervision flag: records written without the player\'s action (A 1.3.6.c)', () => {
  it('a hand the players play themselves has no flag; a hand the clock acts in has it; a leave asked for has none; a leave after the disconnection grace has it', () => {
    const e = env();
    const { t, a, b, pool } = headsUp(e, 't-supervision');
    // Hand 1: the players act themselves.
    t.act(actor(t, [a, b]).accountId, 'f1', { type: 'fold' });
    expect(t.handsPlayed).toBe(1);
    const first = e.vault.byPool(pool);
    expect(first.map((r) => openingTag(r.xml))).toEqual(['<POJEU test="true">']);
    // Hand 2: nobody acts; the clock folds or checks for the player (a time-out).
    e.timers.runDue();
    const second = handOf(t.snapshot(a.accountId).table.hand!).handId!;
    while (t.handsPlayed < 2) e.timers.advance(1000);
    expect(e.vault.byPool(second).map((r) => openingTag(r.xml))).toEqual(['<POJEU supervision="true" test="true">']);
    // a leaves by asking (no flag); b's connection drops and the grace period runs out (the operator's).
    e.timers.runDue();
    expect(t.leave(a.accountId)).toMatchObject({ ok: true });
    t.detach(b.accountId);
    for (let i = 0; i < 400 && t.isSeated(b.accountId); i++) e.timers.advance(1000);
    expect(t.isSeated(a.accountId) || t.isSeated(b.accountId)).toBe(false);
    const bilan = (p: TablePlayer) => e.vault.byTech('t-supervision').find((r) => r.kind === 'POBILAN' && r.xml.includes(`<IDJoueur>${p.accountId}</IDJoueur>`))!;
    expect(openingTag(bilan(a).xml)).toBe('<POBILAN test="true">');
    expect(openingTag(bilan(b).xml)).toBe('<POBILAN supervision="true" test="true">');
    for (const p of [a, b]) expect(openingTag(e.vault.byTech('t-supervision').find((r) => r.kind === 'POINSCRIT' && r.xml.includes(`<IDJoueur>${p.accountId}</IDJoueur>`))!.xml)).toBe('<POINSCRIT test="true">');
    expect(e.errors).toEqual([]);
    books(e, [t]);
  });

  it('the records of the operator\'s practice players carry the flag (they never act as a person)', () => {
    const e = env();
    const host = new PracticeHost({ accounts: e.accounts, wallet: e.wallet, timers: e.timers, brain: { samples: 6 } });
    const t = table(e, { rules: rulesFor('THNL') }, {}, host);
    host.manage(t, 2);
    while (t.handsPlayed < 2) e.timers.runDue(1);
    t.close();
    const own = e.vault.byTech(t.tableId).filter((r) => r.kind !== 'POJEU');
    expect(own.length).toBeGreaterThanOrEqual(4);
    for (const r of own) expect(openingTag(r.xml)).toMatch(/^<PO[A-Z]+ supervision="true" test="true">$/);
  });
});

describe('watching a table without a seat (table.watch)', () => {
  it('the snapshot and a stream of its own as no seat sees it; a seat taken ends it; unwatch ends it; the table closing tells the watcher', () => {
    const e = env();
    const host = new PracticeHost({ accounts: e.accounts, wallet: e.wallet, timers: e.timers, brain: { samples: 2 } });
    const t = table(e, { rules: rulesFor('THNL') }, {}, host);
    host.manage(t, 3);
    const w = person(e, '203.0.113.9');
    const frames: { type: string; seq?: number; event?: TableEvent }[] = [];
    const snap = t.watch(w.accountId, (f) => frames.push(JSON.parse(f) as (typeof frames)[number]));
    expect(snap).toMatchObject({ seq: 0, table: { you: null, tournament: null } });
    while (t.handsPlayed < 3) e.timers.runDue(1);
    const events = frames.filter((f) => f.type === 'table.event');
    // Numbered 1, 2, 3, … from the snapshot's 0, without gaps.
    expect(events.map((f) => f.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.some((f) => f.event?.type === 'handEnd')).toBe(true);
    // No seat's down card: every hole card of another seat is hidden (null) until shown.
    let dealt = 0;
    for (const f of events) {
      const a = f.event?.type === 'action' ? f.event.action : null;
      if (a?.type !== 'deal' || a.seat === null) continue;
      dealt++;
      expect(a.cards.every((c) => c === null)).toBe(true);
    }
    expect(dealt).toBeGreaterThan(0);
    expect(t.isSeated(w.accountId)).toBe(false);
    // A seat taken here: the seat's stream from now on, the watch over.
    expect(t.join(w, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    expect(t.isWatching(w.accountId)).toBe(false);
    expect(t.watch(w.accountId, () => undefined)).toBeNull();
    expect(t.leave(w.accountId)).toMatchObject({ ok: true });
    while (t.handInProgress) e.timers.runDue(1);
    // Watching again, then unwatch: nothing more arrives.
    const again: string[] = [];
    expect(t.watch(w.accountId, (f) => again.push(f))).not.toBeNull();
    expect(t.unwatch(w.accountId)).toBe(true);
    expect(t.unwatch(w.accountId)).toBe(false);
    const played = t.handsPlayed;
    while (t.handsPlayed < played + 2) e.timers.runDue(1);
    expect(again).toEqual([]);
    // The table closes: its watchers are told it is gone for them.
    const last: string[] = [];
    t.watch(w.accountId, (f) => last.push(f));
    t.close();
    expect(JSON.parse(last.at(-1)!)).toEqual({ type: 'table.left', rid: null, tableId: t.tableId, cashedOut: 0 });
    expect(t.isWatching(w.accountId)).toBe(false);
    expect(e.errors).toEqual([]);
  });
});
