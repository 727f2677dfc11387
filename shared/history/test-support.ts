/**
 * Random finished hands for the codec and store tests (odd tables that exercise every rule; the
 * realistic histories of the benchmark and `cercle generate` come from generate.ts): seeded random legal play
 * by the engine (shared/rules/engine/test-support.ts) on random tables of every variant, with the
 * table-rule readings, dead blinds, big-blind antes, rake and short stacks mixed in; as the operator
 * sees them, or as one seat sees them (`recordOf(viewFor(…))`: others' cards unknown unless shown,
 * which is what a client stores). Not part of the package's API.
 */
import { apply, legalActions, startHand, viewFor, type HandConfig } from '../rules/engine';
import { Dealer, dealerAction, prng, randInt, randomPlayerAction } from '../rules/engine/test-support';
import { recordOf, type HandRecord } from '../rules/record';
import { houseRulesOf, makeTableRules, type TableRules } from '../rules/tableRules';
import { VARIANTS, type VariantCode } from '../rules/variants';

export { prng, randInt };

type Rng = () => number;

/** Table rules with random readings and stakes (every combination reached over many hands). */
export function randomRules(code: VariantCode, rng: Rng): TableRules {
  const v = VARIANTS[code];
  const stud = v.forcedBets === 'ante-bring-in';
  const pick = <T>(xs: readonly T[]): T => xs[randInt(rng, xs.length)];
  const limit = v.betting === 'limit';
  const stakes = stud
    ? { ante: pick([0, 1, 5]), bringIn: pick([5, 10, 20]), smallBet: 20, bigBet: pick([40, 40, 60]) }
    : { smallBlind: pick([5, 10, 20]), bigBlind: 20, ante: pick([0, 0, 0, 3]) };
  return makeTableRules(code, stakes, {
    minRaise: rng() < 0.2 ? 'double' : 'increment',
    cap: limit ? pick([4, 4, 2, null]) : null,
    capHeadsUp: limit && rng() < 0.2,
    lowball27: rng() < 0.3 ? 'international' : 'decree',
    rake: rng() < 0.5 ? { basisPoints: pick([250, 500, 1000]), cap: pick([null, 5, 60]), noFlopNoDrop: rng() < 0.8 } : undefined,
    studOpenPairBigBet: rng() < 0.7,
    anteBy: !stud && stakes.ante > 0 && rng() < 0.3 ? 'big-blind' : undefined,
    actionSeconds: rng() < 0.1 ? 20 : undefined,
    // A recorded Stud hand dealt without an ante replays by its house rule (D art. 7 III has one).
    // Some recorded Stud games let a loser muck: both readings of the showdown are walked.
    houseRules: stud ? houseRulesOf([...(stakes.ante === 0 ? ['stud-no-ante' as const] : []), ...(rng() < 0.5 ? ['stud-muck' as const] : [])]) : undefined,
  });
}

/** A random table and hand plan: empty seats, sitting-out players, a missing small blind, dead blinds. */
export function randomConfig(code: VariantCode, rng: Rng, options: { maxSeats?: number; rules?: TableRules; names?: readonly string[] } = {}): HandConfig {
  const v = VARIANTS[code];
  const rules = options.rules ?? randomRules(code, rng);
  const stud = v.forcedBets === 'ante-bring-in';
  const max = Math.min(v.maxSeats, options.maxSeats ?? v.maxSeats);
  const n = 2 + randInt(rng, max - 1);
  const name = (i: number): string => (options.names ? options.names[randInt(rng, options.names.length)] + `#${i}` : `p${i}`);
  const seats: HandConfig['seats'] = [];
  for (let i = 0; i < n; i++) {
    const stack = rng() < 0.3 ? 1 + randInt(rng, 300) : 1000 + randInt(rng, 4000);
    seats.push(rng() < 0.15 ? null : { player: name(i), stack });
  }
  let occupied = seats.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
  while (occupied.length < 2) {
    const i = occupied.length === 0 ? 0 : (occupied[0] + 1) % n;
    seats[i] = { player: name(i), stack: 500 };
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
 * Plays `config` to the end with random legal actions (deals split at random, Triple Draw
 * reshuffles included) and returns the record: the operator's (`viewer` undefined) or one seat's.
 */
export function playRecord(config: HandConfig, rng: Rng, viewer?: number | null): HandRecord {
  let s = startHand(config);
  const dealer = new Dealer(rng);
  for (let steps = 0; steps < 10_000; steps++) {
    const legal = legalActions(s);
    if (legal.next === 'done') return recordOf(viewer === undefined ? s : viewFor(s, viewer));
    const a = legal.next === 'deal' ? dealerAction(s, legal, dealer, rng, true) : randomPlayerAction(s, legal, rng);
    const r = apply(s, a);
    if (!r.ok) throw new Error(`refused ${JSON.stringify(a)}: ${r.rule} ${r.message}`);
    s = r.state;
  }
  throw new Error('the hand did not end in 10,000 steps');
}

/** A random hand of `code`: half of them as a seated player sees them. */
export function randomRecord(code: VariantCode, rng: Rng, handId: string | null = null): HandRecord {
  const config: HandConfig = { ...randomConfig(code, rng), ...(handId === null ? {} : { handId }) };
  const view = rng() < 0.5 ? config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)] : undefined;
  return playRecord(config, rng, view);
}
