/**
 * Property tests over random legal play (seeded), in every variant and table-rule combination:
 * chips plus rake are conserved (R-CONSERVE), no stack goes negative (R-NODEBT), every action that
 * `legalActions` offers is accepted, actions it does not offer are refused with a rule id, every
 * hand ends, a player's view driven by the redacted actions ends the hand the same way, and `apply`
 * never changes the state it is given (accepted or refused).
 */
import { describe, expect, it } from 'vitest';
import { recordOf } from '../record';
import { houseRulesOf, makeTableRules, type TableRules } from '../tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../variants';
import { legalActions } from './legal';
import { apply, startHand } from './machine';
import { Dealer, dealerAction, prng, randInt, randomPlayerAction } from './test-support';
import type { Action, HandConfig, HandState, LegalActions } from './types';
import { actionFor, viewFor } from './view';

type Rng = () => number;

/**
 * Table rules for hand number `h`: the bits of `h` walk through every combination of the readings
 * (minimum raise, cap, 2-7, rake, Stud open pair), the stakes are random.
 */
function rulesFor(code: VariantCode, rng: Rng, h: number): TableRules {
  const v = VARIANTS[code];
  const stud = v.forcedBets === 'ante-bring-in';
  const pick = <T,>(xs: T[]): T => xs[randInt(rng, xs.length)];
  const stakes = stud
    ? { ante: pick([0, 1, 5]), bringIn: pick([5, 10, 20]), smallBet: 20, bigBet: 40 }
    : { smallBlind: pick([5, 10]), bigBlind: 20, ante: pick([0, 0, 3]) };
  const limit = v.betting === 'limit';
  const bit = (k: number): boolean => ((h >> k) & 1) === 1;
  return makeTableRules(code, stakes, {
    minRaise: bit(0) ? 'double' : 'increment',
    cap: limit ? (bit(1) ? null : pick([4, 2])) : null,
    capHeadsUp: limit && !bit(1) && rng() < 0.3,
    lowball27: bit(2) ? 'international' : 'decree',
    rake: bit(3) ? { basisPoints: pick([250, 500, 1000]), cap: pick([null, 5, 60]), noFlopNoDrop: rng() < 0.8 } : undefined,
    studOpenPairBigBet: bit(4),
    // Stud: decree tables (every hand shown, an ante) and recorded hands' house rules, both walked.
    houseRules: stud ? houseRulesOf([...(stakes.ante === 0 ? ['stud-no-ante' as const] : []), ...(bit(5) ? ['stud-muck' as const] : [])]) : undefined,
  });
}

function randomConfig(code: VariantCode, rng: Rng, h: number): HandConfig {
  const v = VARIANTS[code];
  const rules = rulesFor(code, rng, h);
  const stud = v.forcedBets === 'ante-bring-in';
  const n = 2 + randInt(rng, v.maxSeats - 1);
  const seats: HandConfig['seats'] = [];
  for (let i = 0; i < n; i++) {
    const stack = rng() < 0.5 ? 1 + randInt(rng, 300) : 1000 + randInt(rng, 4000);
    seats.push(rng() < 0.15 ? null : { player: `p${i}`, stack });
  }
  let occupied = seats.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
  while (occupied.length < 2) {
    const i = occupied.length === 0 ? 0 : (occupied[0] + 1) % n;
    seats[i] = { player: `p${i}`, stack: 500 };
    occupied = seats.map((s, k) => (s ? k : -1)).filter((k) => k >= 0);
  }
  let playing = occupied.filter(() => rng() > 0.1);
  if (playing.length < 2) playing = occupied;
  if (stud) {
    return { rules, seats, plan: { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: playing } };
  }
  const button = randInt(rng, n);
  const dealtIn = [...playing.filter((i) => i > button), ...playing.filter((i) => i <= button)];
  let smallBlind: number | null;
  let bigBlind: number;
  const extraBigBlinds: number[] = [];
  const deadSmallBlinds: number[] = [];
  if (dealtIn.length === 2) {
    // T 6-19: heads-up the button posts the small blind.
    smallBlind = dealtIn.includes(button) ? button : dealtIn[0];
    bigBlind = dealtIn.find((s) => s !== smallBlind) as number;
  } else {
    smallBlind = rng() < 0.1 ? null : dealtIn[0];
    bigBlind = dealtIn[1];
    for (const s of dealtIn.slice(2)) {
      if (rng() < 0.1) {
        extraBigBlinds.push(s);
        if (rng() < 0.5) deadSmallBlinds.push(s);
      }
    }
  }
  return { rules, seats, plan: { button, smallBlind, bigBlind, extraBigBlinds, deadSmallBlinds, dealtIn } };
}

/**
 * Freezes a state and everything it reaches, so that any write into it (even of the same value)
 * throws: `apply` must build new objects, never change those of the state it was given, which earlier
 * and later states share (copy-on-write).
 */
function deepFreeze(x: unknown): void {
  if (x === null || typeof x !== 'object' || Object.isFrozen(x)) return;
  Object.freeze(x);
  for (const v of Object.values(x)) deepFreeze(v);
}

function chips(s: HandState): number {
  let t = 0;
  for (const p of s.seats) t += p.stack + p.committed;
  return t;
}

/** Actions `legalActions` offers, each of which must be accepted. */
function offered(s: HandState, l: LegalActions, rng: Rng): Action[] {
  const seat = l.seat as number;
  const out: Action[] = [];
  if (l.fold) out.push({ type: 'fold', seat });
  if (l.check) out.push({ type: 'check', seat });
  if (l.call !== null) out.push({ type: 'call', seat });
  if (l.bringIn !== null) out.push({ type: 'bringIn', seat });
  if (l.bet) {
    out.push({ type: 'bet', seat, to: l.bet.min }, { type: 'bet', seat, to: l.bet.max });
    if (!l.bet.exact && l.bet.max > l.bet.min) out.push({ type: 'bet', seat, to: l.bet.min + randInt(rng, l.bet.max - l.bet.min + 1) });
  }
  if (l.draw) {
    const hole = s.seats[seat].hole;
    out.push({ type: 'draw', seat, discards: [] }, { type: 'draw', seat, discards: hole.slice(0, l.draw.max) });
  }
  if (l.show) out.push({ type: 'show', seat });
  if (l.muck) out.push({ type: 'muck', seat });
  return out;
}

/** Actions `legalActions` does not offer, each of which must be refused with a rule id. */
function notOffered(s: HandState, l: LegalActions): Action[] {
  const out: Action[] = [];
  const n = s.seats.length;
  const seat = l.seat;
  const other = seat === null ? 0 : (seat + 1) % n;
  out.push({ type: 'check', seat: other }, { type: 'fold', seat: other }, { type: 'bet', seat: other, to: 1_000_000 });
  if (l.deal === null) out.push({ type: 'deal', seat: null, cards: [0] }, { type: 'deal', seat: other, cards: [1] });
  if (l.deal === null || !l.deal.reshuffle) out.push({ type: 'reshuffle' });
  if (seat === null) return out;
  if (!l.fold) out.push({ type: 'fold', seat });
  if (!l.check) out.push({ type: 'check', seat });
  if (l.call === null) out.push({ type: 'call', seat });
  if (l.bringIn === null) out.push({ type: 'bringIn', seat });
  if (!l.show) out.push({ type: 'show', seat });
  if (!l.muck) out.push({ type: 'muck', seat });
  if (l.draw === null) out.push({ type: 'draw', seat, discards: [] });
  else out.push({ type: 'draw', seat, discards: [...s.seats[seat].hole, 0] });
  if (l.bet === null) {
    out.push({ type: 'bet', seat, to: s.currentBet + 1_000 }, { type: 'bet', seat, to: s.seats[seat].bet + s.seats[seat].stack });
  } else {
    out.push({ type: 'bet', seat, to: l.bet.max + 1 }, { type: 'bet', seat, to: l.bet.min - 1 }, { type: 'bet', seat, to: l.bet.min + 0.5 });
    if (l.bet.exact && l.bet.max - l.bet.min > 1) out.push({ type: 'bet', seat, to: l.bet.min + 1 });
  }
  return out;
}

interface Stats {
  showdowns: number;
  allInShowdowns: number;
  sidePots: number;
  splits: number;
  raked: number;
  reshuffles: number;
}

function playChecked(config: HandConfig, rng: Rng, probe: boolean, stats: Stats): void {
  let s = startHand(config);
  const start = chips(s);
  const viewer = probe ? config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)] : -1;
  let view = probe ? viewFor(s, viewer) : null;
  const dealer = new Dealer(rng);
  for (let step = 0; ; step++) {
    if (step > 2_000) throw new Error('the hand did not end');
    const l = legalActions(s);
    if (l.next === 'done') break;
    // States are values: nothing below may change `s` (checked after the step).
    const before = probe ? JSON.stringify(s) : '';
    if (probe) deepFreeze(s);
    if (probe && l.next !== 'deal') {
      for (const a of offered(s, l, rng)) {
        const r = apply(s, a);
        if (!r.ok) throw new Error(`offered ${JSON.stringify(a)} refused: ${r.rule} ${r.message}`);
      }
      for (const a of notOffered(s, l)) {
        const r = apply(s, a);
        if (r.ok) throw new Error(`not offered ${JSON.stringify(a)} accepted in ${JSON.stringify(l)}`);
        expect(r.rule).toMatch(/^R-[A-Z0-9]+$/);
      }
    }
    const a = l.next === 'deal' ? dealerAction(s, l, dealer, rng, true) : randomPlayerAction(s, l, rng);
    if (a.type === 'reshuffle') stats.reshuffles++;
    const r = apply(s, a);
    if (view && r.ok && r.state.phase === 'done') {
      const rv = apply(view, actionFor(s, a, viewer));
      if (!rv.ok) throw new Error(`view refused ${JSON.stringify(actionFor(s, a, viewer))}: ${rv.rule} ${rv.message}`);
    }
    if (!r.ok) throw new Error(`refused ${JSON.stringify(a)}: ${r.rule} ${r.message}`);
    if (probe && JSON.stringify(s) !== before) throw new Error(`apply changed the state it was given (${a.type})`);
    if (view) {
      const rv = apply(view, actionFor(s, a, viewer));
      if (!rv.ok) throw new Error(`view refused ${JSON.stringify(actionFor(s, a, viewer))}: ${rv.rule} ${rv.message}`);
      view = rv.state;
    }
    s = r.state;
    for (const p of s.seats) {
      if (p.stack < 0 || p.bet < 0 || !Number.isInteger(p.stack)) throw new Error(`negative or fractional stack ${JSON.stringify(p)}`);
    }
    if (s.phase !== 'done' && chips(s) !== start) throw new Error('chips not conserved during the hand');
  }
  const result = s.result!;
  let after = result.rake;
  for (const p of s.seats) after += p.stack;
  const before = s.stacksBefore.reduce((a, b) => a + b, 0);
  expect(after).toBe(before);
  expect(result.net.reduce((a, b) => a + b, 0) + result.rake).toBe(0);
  for (const pot of result.pots) expect(pot.shares.reduce((a, x) => a + x.amount, 0)).toBe(pot.amount - pot.rake);
  expect(Number.isInteger(result.rake) && result.rake >= 0).toBe(true);
  const rec = recordOf(s);
  expect(rec.seats.reduce((a, x) => a + x.net, 0) + rec.rake).toBe(0);
  if (view) {
    expect(view.phase).toBe('done');
    expect(view.seats.map((p) => p.stack)).toEqual(s.seats.map((p) => p.stack));
    expect(view.result?.pots).toEqual(result.pots);
  }
  if (result.showdown) stats.showdowns++;
  if (s.allInShowdown) stats.allInShowdowns++;
  if (result.pots.length > 1) stats.sidePots++;
  if (result.pots.some((p) => p.shares.length > 1)) stats.splits++;
  if (result.rake > 0) stats.raked++;
}

describe('random legal play in every variant (R-CONSERVE, R-NODEBT)', () => {
  for (const [i, code] of VARIANT_CODES.entries()) {
    it(`${code}: chips conserved, no negative stack, offered actions accepted, others refused, every hand ends`, () => {
      const rng = prng(1000 + i);
      const stats: Stats = { showdowns: 0, allInShowdowns: 0, sidePots: 0, splits: 0, raked: 0, reshuffles: 0 };
      for (let h = 0; h < 2500; h++) playChecked(randomConfig(code, rng, h), rng, h < 320, stats);
      // (No count of hands here: playChecked counts every hand it is given or throws, so such an
      // assertion could not fail. The figures below are what random play must reach.)
      // The random play reaches the interesting cases.
      expect(stats.showdowns).toBeGreaterThan(100);
      expect(stats.allInShowdowns).toBeGreaterThan(20);
      expect(stats.sidePots).toBeGreaterThan(10);
      expect(stats.raked).toBeGreaterThan(50);
      if (code === '2T7TD') expect(stats.reshuffles).toBeGreaterThan(0);
    });
  }
});
