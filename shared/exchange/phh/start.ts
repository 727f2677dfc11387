// What a PHH file says, as the one driver of a recorded hand (shared/exchange/core.ts driveSteps)
// takes it: the table rules and start of hand its header implies, its amounts in whole units, and
// its actions as driver steps. `cercle replay` (replay.ts) and the PHH import (record.ts) both read a
// file through here (there were two readers and two drivers).
//
// PHH positions: player 1 is dealt first, the last player has the button (standard, "Position");
// heads-up, the blinds are reversed (player 2, on the button, posts the small blind). In Stud the
// three first cards of `d dh` are two down and one up (pokerkit's third street: down, down, up);
// later cards follow the streets (up, up, up, down), as our variant table has them.

import { cardFromText, type Card } from '../../rules/cards';
import type { HandConfig, HandPlan } from '../../rules/engine';
import { houseRulesOf, makeTableRules, validateTableRules, type ReplayHouseRule, type TableRules } from '../../rules/tableRules';
import { VARIANTS, type VariantCode } from '../../rules/variants';
import type { Step } from '../core';
import type { PhhAction } from './actions';
import { readBlinds } from './blinds';
import type { PhhHand } from './phh';
import { PHH_VARIANTS } from './variants';

/** Differences between a PHH source's house rules and ours that keep a hand from being replayed. */
export type HouseRule = 'straddle';

export interface StartOptions {
  /**
   * Table rules to impose over what the header implies (for instance `{ cap: 5 }`). The result is
   * validated like any table rules.
   */
  readonly rules?: Partial<TableRules>;
}

/** Why the header gives no start: a failure naming the rule, or a documented house rule (a skip). */
export type StartRefusal = { readonly ok: false; readonly reason: string; readonly rule?: string; readonly houseRule?: HouseRule };

/** WSOP limit events cap a round at one bet and four raises (corpus README; WSOP rules). */
export const WSOP_LIMIT_CAP = 5;

function fail(reason: string, more: { rule?: string } = {}): StartRefusal {
  return { ok: false, reason, ...more };
}

function skip(reason: string, houseRule: HouseRule): StartRefusal {
  return { ok: false, reason, houseRule };
}

// ---- amounts ----

/** Digits after the decimal point of a number as JavaScript writes it (0.1 → 1, 1e-7 → 7). */
function decimalsOf(x: number): number {
  const text = String(x);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) {
    const mantissa = text.slice(0, text.indexOf('e'));
    return Number(exp[1]) + (mantissa.split('.')[1]?.length ?? 0);
  }
  return text.split('.')[1]?.length ?? 0;
}

const MAX_DECIMALS = 6;

/**
 * PHH amounts may be decimals (dollars and cents). The engine counts integers (R-CONSERVE), so
 * every amount of the hand is multiplied by the same power of ten: the smallest that makes them
 * all whole.
 */
export function amountScale(hand: PhhHand, actions: readonly PhhAction[]): number | string {
  const values: number[] = [
    ...hand.antes,
    ...(hand.blinds_or_straddles ?? []),
    ...hand.starting_stacks,
    ...(hand.finishing_stacks ?? []),
  ];
  for (const k of ['bring_in', 'small_bet', 'big_bet', 'min_bet'] as const) {
    const v = hand[k];
    if (v !== undefined) values.push(v);
  }
  for (const a of actions) if (a.type === 'complete-bet-raise') values.push(a.amount);
  let decimals = 0;
  for (const v of values) decimals = Math.max(decimals, decimalsOf(v));
  if (decimals > MAX_DECIMALS) return `amounts with more than ${MAX_DECIMALS} decimals cannot be counted in whole units`;
  return 10 ** decimals;
}

export function units(x: number, scale: number): number {
  return Math.round(x * scale);
}

// ---- header → table rules and plan ----

export interface Start {
  readonly config: HandConfig;
  readonly notes: string[];
}

function isWsop(hand: PhhHand): boolean {
  return /World Series of Poker|\bWSOP\b/i.test(hand.event ?? '');
}

export function phhStart(hand: PhhHand, variant: VariantCode, scale: number, options: StartOptions = {}): Start | StartRefusal {
  const v = VARIANTS[variant];
  const n = hand.starting_stacks.length;
  const notes: string[] = [];
  if (n > v.maxSeats) return fail(`${n} players: ${variant} is played at most ${v.maxSeats} to a table (R-SEATS)`);
  if (hand.starting_stacks.some((s) => !Number.isFinite(s))) return fail('a starting stack is unknown (inf): the hand cannot be counted');
  const stacks = hand.starting_stacks.map((s) => units(s, scale));
  const antes = hand.antes.map((a) => units(a, scale));

  // Antes: the decree's antes are paid by every player (D art. 3, R-FORCED). A record where one
  // player alone antes plays a big-blind ante (table rule anteBy 'big-blind'), checked below against
  // the big blind's seat.
  const anteSeats = antes.flatMap((a, i) => (a > 0 ? [i] : []));
  const bigBlindAnte = antes.some((a) => a !== antes[0]) && anteSeats.length === 1 && v.forcedBets === 'blinds';
  const ante = bigBlindAnte ? antes[anteSeats[0]] : antes[0];
  if (antes.some((a) => a !== antes[0]) && !bigBlindAnte) {
    return fail(`antes ${JSON.stringify(hand.antes)} are neither paid by every player (R-FORCED) nor by the big blind alone`);
  }

  let plan: HandPlan;
  let smallBlind = 0;
  let bigBlind = 0;
  if (v.forcedBets === 'ante-bring-in') {
    plan = { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: range(n) };
  } else {
    const blinds = readBlinds((hand.blinds_or_straddles ?? []).map((b) => units(b, scale)), n);
    if (!blinds.ok) {
      if (blinds.reason === 'heads-up') return fail(`heads-up blinds ${JSON.stringify(hand.blinds_or_straddles)} are not a small and a big blind`);
      return skip(`blinds or straddles ${JSON.stringify(hand.blinds_or_straddles)}: straddles are not a decree forced bet (R-FORCED)`, 'straddle');
    }
    const sbSeat = blinds.smallBlindSeat;
    const bbSeat = blinds.bigBlindSeat;
    smallBlind = blinds.smallBlind;
    bigBlind = blinds.bigBlind;
    if (sbSeat === null) notes.push('no small blind this hand (dead small blind seat)');
    const extra: number[] = [];
    for (const p of blinds.posts) {
      if (p.amount !== bigBlind) return fail(`player ${p.seat + 1} posts ${p.amount / scale}, not a big blind`);
      extra.push(p.seat);
    }
    if (extra.length > 0) notes.push(`player(s) ${extra.map((i) => i + 1).join(', ')} post a big blind out of position`);
    plan = { button: n - 1, smallBlind: sbSeat, bigBlind: bbSeat, extraBigBlinds: extra, deadSmallBlinds: [], dealtIn: range(n) };
  }

  const info = PHH_VARIANTS[hand.variant as keyof typeof PHH_VARIANTS];
  const stakes =
    info.betting === 'limit'
      ? { smallBlind, bigBlind, ante, bringIn: units(hand.bring_in ?? 0, scale), smallBet: units(hand.small_bet!, scale), bigBet: units(hand.big_bet!, scale) }
      : { smallBlind, bigBlind, ante };
  if (info.betting === 'min-bet' && units(hand.min_bet!, scale) !== bigBlind) {
    return fail(`min_bet ${hand.min_bet} differs from the big blind ${bigBlind / scale}: R-MINRAISE takes the big blind as the minimum bet`);
  }
  const overrides: { -readonly [K in keyof TableRules]?: TableRules[K] } = {
    // PHH sources play a tournament's rules: no open-pair big bet on 4th street (R-LIMIT), and
    // pokerkit has none.
    studOpenPairBigBet: false,
  };
  if (v.betting === 'limit' && isWsop(hand)) {
    overrides.cap = WSOP_LIMIT_CAP;
    notes.push(`WSOP limit cap: 1 bet + ${WSOP_LIMIT_CAP - 1} raises`);
  }
  if (bigBlindAnte) {
    if (plan.bigBlind !== anteSeats[0]) return fail(`player ${anteSeats[0] + 1} antes alone but is not the big blind`);
    overrides.anteBy = 'big-blind';
    notes.push('big-blind ante: the big blind antes for the table (table rule anteBy big-blind)');
  }
  if (v.forcedBets === 'ante-bring-in') {
    // Live Stud games let a loser muck and some deal without an ante; the decree has every hand shown
    // and an ante (D art. 7 III). Such records replay with the replay-only house rules (docs/phh.md).
    const houseRules: ReplayHouseRule[] = [];
    if (ante === 0) {
      houseRules.push('stud-no-ante');
      notes.push('Stud without an ante (replay-only house rule stud-no-ante; the decree has one, D art. 7 III)');
    }
    if (hand.actions.some((line) => /^p\d+ sm\s*(#.*)?$/.test(line.trim()))) {
      houseRules.push('stud-muck');
      notes.push('a loser mucks at the Stud showdown (replay-only house rule stud-muck; the decree has every hand shown, D art. 7 III)');
    }
    overrides.houseRules = houseRulesOf(houseRules);
  }
  if (variant === '2T7TD') {
    // PHH's F2L3D is deuce-to-seven as played internationally (WSOP): straights and flushes count.
    overrides.lowball27 = 'international';
    notes.push("2-7 read the international way (R-27 table rule 'international')");
  }
  const rules = makeTableRules(variant, stakes, { ...overrides, ...options.rules });
  const check = validateTableRules(rules);
  if (!check.ok) return fail(`table rules from the header: ${check.reason}`, { rule: check.rule });
  const config: HandConfig = {
    rules,
    seats: stacks.map((stack, i) => ({ player: hand.players?.[i] ?? `p${i + 1}`, stack })),
    plan,
    ...(hand.hand !== undefined ? { handId: String(hand.hand) } : {}),
  };
  return { config, notes };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

// ---- actions ----

function cardsOf(texts: readonly string[]): (Card | null)[] {
  return texts.map((t) => (t === '??' ? null : cardFromText(t)));
}

/**
 * Stud records sometimes hide a face-up card (the broadcast did not show a player who folded at
 * once: `d dh p1 ??????`). Everyone at the table saw it, so the engine needs a card there. The
 * replayer deals a stand-in that cannot change who brings in: a card the record never names, the
 * highest free ones in high games (the lowest up-card brings in), the lowest free ones in Razz
 * (the highest up-card brings in, ace low; R-FORCED). Should such a player stay in and the
 * stand-in change who acts first, the engine refuses the next action and the replay fails.
 */
export function standIns(actions: readonly PhhAction[], razz: boolean): Card[] {
  const named = new Set<Card>();
  for (const a of actions) {
    const cards = 'cards' in a && Array.isArray(a.cards) ? a.cards : [];
    for (const t of cards) {
      const c = cardFromText(t);
      if (c !== null) named.add(c);
    }
  }
  const free: Card[] = [];
  for (let c = 51; c >= 0; c--) if (!named.has(c)) free.push(c);
  if (!razz) return free;
  // Razz ranks aces lowest, then deuces...: aces (48-51) first, then 2, 3, ...
  const lowRank = (c: Card): number => ((c >> 2) + 2 === 14 ? 1 : (c >> 2) + 2);
  return free.sort((x, y) => lowRank(x) - lowRank(y) || x - y);
}


/**
 * The driver's steps for a PHH hand's actions. `seatOf` maps a PHH player to the seat (the extension
 * may place players on other seats), `lineOf` an action's index to what a failure names (the file's
 * line for the import, the index for `cercle replay`).
 */
export function phhSteps(actions: readonly PhhAction[], scale: number, seatOf: (player: number) => number, lineOf: (index: number) => number): Step[] {
  const steps: Step[] = [];
  for (const [i, a] of actions.entries()) {
    const line = lineOf(i);
    switch (a.type) {
      case 'no-op':
        break;
      case 'deal-board':
        steps.push({ k: 'deal', seat: null, cards: cardsOf(a.cards), line });
        break;
      case 'deal-hole':
        steps.push({ k: 'deal', seat: seatOf(a.playerIndex), cards: cardsOf(a.cards), line });
        break;
      case 'bring-in':
        steps.push({ k: 'bringIn', seat: seatOf(a.playerIndex), line });
        break;
      case 'fold':
        steps.push({ k: 'fold', seat: seatOf(a.playerIndex), line });
        break;
      case 'check-call':
        // PHH's `cc` is a check when nothing is owed, else a call (standard, "Checking/Calling").
        steps.push({ k: 'cc', seat: seatOf(a.playerIndex), line });
        break;
      case 'complete-bet-raise':
        steps.push({ k: 'bet', seat: seatOf(a.playerIndex), to: units(a.amount, scale), line });
        break;
      case 'discard':
        steps.push({ k: 'draw', seat: seatOf(a.playerIndex), discards: cardsOf(a.cards), line });
        break;
      case 'show-muck':
        if (a.cards === null) steps.push({ k: 'muck', seat: seatOf(a.playerIndex), line });
        else {
          // `sm ????` for cards dealt known: they speak anyway (T 8-8); for cards never given the
          // driver stops there (the showdown cannot be settled from the record).
          const cards = a.cards === 'dealt' ? null : cardsOf(a.cards);
          steps.push({ k: 'show', seat: seatOf(a.playerIndex), cards: cards === null || cards.some((c) => c === null) ? null : cards, line });
        }
        break;
    }
  }
  return steps;
}
