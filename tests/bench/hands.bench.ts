/**
 * Full hands per second under random legal play, every rule enforced, on one core (DESIGN.md §5:
 * ≥ 100,000 six-max no-limit hold'em hands/s). Each hand: `startHand`, seeded random dealing, every
 * deal as an action, `legalActions` before every decision, `apply` for everything, showdown
 * evaluation and settlement. `hands-nlhe6max:cercle` is the bar; `hands-<code>:cercle` for each
 * variant. What the bench itself does per hand (random choices, drawing cards) is kept small so
 * that the figure measures the engine.
 */
import type { Card } from '../../shared/rules/cards';
import { apply, legalActions, reshuffleCards, startHand } from '../../shared/rules/engine';
import type { Action, HandConfig, HandState, LegalActions } from '../../shared/rules/engine';
import { makeTableRules } from '../../shared/rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../shared/rules/variants';
import { opsPerSecond, type BenchResult } from './types';

// xorshift32: fast and seeded; good enough to deal for a benchmark. The 32-bit output is scaled to
// 0..n-1 by a multiplication: `(seed >>> 0) % n` would be a floating-point remainder (a uint32 above
// 2^31 is not a small integer for V8), a library call that cost more than the engine's own dealing.
let seed = 0x9e3779b9;
function rnd(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) * n * 2.3283064365386963e-10) | 0; // × 2^-32
}

// The dealer's deck. Cards are drawn as they are dealt (Fisher-Yates one step at a time: each card
// is uniform among those not yet dealt), so a hand pays only for the cards it deals (17 in six-max
// hold'em) rather than for a full 52-card shuffle. The deck is a permutation of the 52 cards whatever
// order the previous hand left it in, so it needs no reset between hands (except after a Triple Draw
// reshuffle, which leaves only the stub in it).
const deck: Card[] = [];
for (let c = 0; c < 52; c++) deck.push(c);
let size = 52;
let pos = 0;

function draw(): Card {
  const j = pos + rnd(size - pos);
  const c = deck[j];
  deck[j] = deck[pos];
  deck[pos++] = c;
  return c;
}

function deal(state: HandState, legal: LegalActions): Action {
  const req = legal.deal!;
  if (req.reshuffle) {
    // R-DEAL: the rest of the stub plus the engine's named discards become the new stub (drawn from
    // at random like the rest, so no shuffle is needed).
    const extra = reshuffleCards(state);
    let k = 0;
    for (let i = pos; i < size; i++) deck[k++] = deck[i];
    for (const c of extra) if (c !== null) deck[k++] = c;
    size = k;
    pos = 0;
    return { type: 'reshuffle' };
  }
  const n = req.count;
  const cards = new Array<Card>(n);
  for (let i = 0; i < n; i++) cards[i] = draw();
  return { type: 'deal', seat: req.seat, cards };
}

function decide(state: HandState, legal: LegalActions): Action {
  const seat = legal.seat as number;
  if (legal.next === 'show') return legal.muck && rnd(4) === 0 ? { type: 'muck', seat } : { type: 'show', seat };
  if (legal.next === 'draw') {
    const hole = state.seats[seat].hole;
    const k = rnd(4);
    return { type: 'draw', seat, discards: hole.slice(0, k) };
  }
  const x = rnd(100);
  if (legal.bringIn !== null) return legal.bet !== null && x < 30 ? { type: 'bet', seat, to: legal.bet.min } : { type: 'bringIn', seat };
  const b = legal.bet;
  if (b !== null && x < 18) {
    const to = b.exact || x < 8 ? b.min : x < 10 ? b.max : b.min + rnd(b.max - b.min + 1);
    return { type: 'bet', seat, to };
  }
  if (legal.fold && x < 45) return { type: 'fold', seat };
  if (legal.call !== null) return { type: 'call', seat };
  return { type: 'check', seat };
}

function configFor(code: VariantCode, players: number): HandConfig {
  const v = VARIANTS[code];
  const stud = v.forcedBets === 'ante-bring-in';
  const rules = makeTableRules(code, stud ? { ante: 5, bringIn: 10, smallBet: 20 } : { smallBlind: 10, bigBlind: 20 });
  const seats = Array.from({ length: players }, (_, i) => ({ player: `p${i}`, stack: 2000 }));
  const dealtIn = seats.map((_, i) => i);
  return {
    rules,
    seats,
    plan: {
      button: stud ? null : players - 1,
      smallBlind: stud ? null : 0,
      bigBlind: stud ? null : 1,
      extraBigBlinds: [],
      deadSmallBlinds: [],
      dealtIn,
    },
  };
}

function playHand(config: HandConfig): number {
  let s = startHand(config);
  if (size !== 52) {
    // After a reshuffle the deck holds only the last stub: bring back the 52 cards.
    for (let c = 0; c < 52; c++) deck[c] = c;
    size = 52;
  }
  pos = 0;
  for (;;) {
    const legal = legalActions(s);
    if (legal.next === 'done') break;
    const r = apply(s, legal.next === 'deal' ? deal(s, legal) : decide(s, legal));
    if (!r.ok) throw new Error(`${r.rule}: ${r.message}`);
    s = r.state;
  }
  return s.result!.rake + 1; // one hand (the rake term keeps the result observable)
}

export default function run(): BenchResult[] {
  const out: BenchResult[] = [];
  const nlhe = configFor('THNL', 6);
  process.stderr.write('  hands-nlhe6max\n');
  out.push({ name: 'hands-nlhe6max:cercle', unit: 'hands/s', value: opsPerSecond(() => (playHand(nlhe), 1), 2000) });
  for (const code of VARIANT_CODES) {
    const cfg = configFor(code, Math.min(6, VARIANTS[code].maxSeats));
    process.stderr.write(`  hands-${code}\n`);
    out.push({ name: `hands-${code}:cercle`, unit: 'hands/s', value: opsPerSecond(() => (playHand(cfg), 1), 700) });
  }
  return out;
}
