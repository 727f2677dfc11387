/**
 * What the three exchange formats share (docs/exchange.md): the hand with its metadata, the Cercle
 * extension that carries what a format has no field for, and the driver that rebuilds a HandRecord
 * by replaying what a file says through the rules engine. Pure: no Node modules, no DOM.
 *
 * Import never trusts a file's arithmetic: the hand is played again by the engine (pots, side pots,
 * uncalled returns, winners, rake shares, hand descriptions are the engine's), and what the file
 * states (final stacks, winnings, rake) is then checked against it.
 */
import type { Card } from '../rules/cards';
import { apply, legalActions, startHand, type Action, type HandConfig, type HandPlan, type HandState, type LegalActions } from '../rules/engine';
import { dealtInOrder, recordOf, startOfRecord, type HandRecord } from '../rules/record';
import { validateTableRules, withHouseRule, type TableRules } from '../rules/tableRules';
import { VARIANTS, type RoundName } from '../rules/variants';

/** What the client knows about a hand besides its record. */
export interface ExchangeMeta {
  /** Table name (PokerStars `Table '…'`, POJEU `Tech`). */
  tableName?: string;
  /** When the hand ended, ms since the epoch, to the second (PokerStars date, POJEU `DateEvt`, PHH time). */
  endedAt?: number;
  /** Real money (units are cents) or play money (chips): POJEU writes euros or whole chips. */
  money?: 'real' | 'play';
  /**
   * A tournament's hand: stacks and bets are tournament chips. PokerStars text
   * writes its tournament header (number, buy-in + fee, level), POJEU its Tech (as the operator's
   * trace does, A 1.3.6.b) and PHH its `event` and `level`; each reads it back (docs/exchange.md).
   */
  tournament?: ExchangeTournament;
}

/** The tournament of a hand as the formats carry it: `money` and amounts of the entry, not of the chips. */
export interface ExchangeTournament {
  /** The tournament's id (shared/protocol/tournament.ts `tournamentId`). */
  tournamentId: string;
  /** The level the hand was dealt at, 0-based (PokerStars `Level I` is 0, PHH `level = 1` too). */
  level: number;
  /** The entry: buy-in (to the prize pool) and fee (to the operator), in cents for real money, chips for play money. */
  buyIn: number;
  fee: number;
  name?: string;
  /** What the entry was paid in. */
  money?: 'real' | 'play';
}

/** Tournament ids as the protocol has them (shared/protocol/tournament.ts). */
export const TOURNAMENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,59}$/;
/** The highest level a hand may carry (shared/protocol/messages.ts handTournamentSchema). */
export const TOURNAMENT_LEVEL_MAX = 1000;

/** What is wrong with a tournament as a file gives it, or null. */
export function tournamentProblem(t: unknown): string | null {
  const x = t as Partial<ExchangeTournament> | null;
  if (x === null || typeof x !== 'object') return 'the tournament is not an object';
  if (typeof x.tournamentId !== 'string' || !TOURNAMENT_ID.test(x.tournamentId)) return 'the tournament id is not 1 to 60 letters, digits, - or _';
  if (!isInt(x.level) || x.level < 0 || x.level > TOURNAMENT_LEVEL_MAX) return `the tournament level is not 0 to ${TOURNAMENT_LEVEL_MAX}`;
  if (!isInt(x.buyIn) || x.buyIn < 0 || !isInt(x.fee) || x.fee < 0) return "the tournament's buy-in and fee are not whole amounts";
  if (!(x.name === undefined || (typeof x.name === 'string' && x.name.length >= 1 && x.name.length <= 60))) return "the tournament's name is not 1 to 60 characters";
  if (!(x.money === undefined || x.money === 'real' || x.money === 'play')) return "the tournament's money is neither 'real' nor 'play'";
  return null;
}

/** The tournament with its fields in one order (files compare equal whatever order they were written in). */
export function tournamentOf(t: ExchangeTournament): ExchangeTournament {
  return {
    tournamentId: t.tournamentId,
    level: t.level,
    buyIn: t.buyIn,
    fee: t.fee,
    ...(t.name !== undefined ? { name: t.name } : {}),
    ...(t.money !== undefined ? { money: t.money } : {}),
  };
}

export interface ExchangeHand {
  record: HandRecord;
  meta: ExchangeMeta;
}

export type ImportResult = { ok: true; hands: ExchangeHand[] } | { ok: false; line: number; message: string };

/** `rule`: the requirement an engine refusal names (R-ACTORDER, R-MINRAISE…), `reason` its text alone. */
export type Fail = { ok: false; line: number; message: string; rule?: string; reason?: string };
export const fail = (line: number, message: string, rule?: string, reason?: string): Fail =>
  rule === undefined ? { ok: false, line, message } : { ok: false, line, message, rule, reason: reason ?? message };

/** The record's hand plan (button, blinds, dead and extra blinds, who was dealt in): shared/rules/record.ts. */
export function planOf(record: HandRecord): HandPlan {
  return startOfRecord(record).plan;
}

export { dealtInOrder };

/**
 * The Cercle extension (JSON, version 1): the table rules, the table size, the hand plan and the
 * seated players who were not dealt in. POJEU writes it in `Info`, PHH in the user field `_cercle`;
 * PokerStars text has no place for it (docs/exchange.md, "What a format cannot carry").
 */
export interface CercleExt {
  v: 1;
  rules: TableRules;
  tableSize: number;
  plan: HandPlan;
  /** Every occupied seat with its player and stack before the hand. */
  seats: { seat: number; player: string; stack: number }[];
  handId: string | null;
  /** The money kind: POJEU `Info` and PHH `_cercle` both carry it; absent in older files. */
  money?: 'real' | 'play';
  /** A tournament's hand: absent for a cash hand (older files too). */
  tournament?: ExchangeTournament;
  /** POJEU of a tournament hand: the table's name (Tech is then the tournament's id, as in the operator's trace). */
  table?: string;
}

export function extOf(record: HandRecord): CercleExt {
  return {
    v: 1,
    rules: record.rules,
    tableSize: record.tableSize,
    plan: planOf(record),
    seats: record.seats.map((s) => ({ seat: s.seat, player: s.player, stack: s.stackBefore })),
    handId: record.handId,
  };
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
const isSeatList = (x: unknown): x is number[] => Array.isArray(x) && x.every(isInt);

/** Reads the extension; a string says what is wrong. */
export function parseExt(text: string): CercleExt | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'the Cercle extension is not JSON';
  }
  const e = v as Partial<CercleExt> | null;
  if (e === null || typeof e !== 'object' || e.v !== 1) return 'the Cercle extension is not version 1';
  if (!e.rules || typeof e.rules !== 'object') return 'the Cercle extension has no rules';
  const check = validateTableRules(e.rules);
  if (!check.ok) return `the Cercle extension's rules: ${check.reason}`;
  if (!isInt(e.tableSize) || e.tableSize < 2 || e.tableSize > VARIANTS[e.rules.variant].maxSeats) return 'the Cercle extension has a bad table size';
  const p = e.plan;
  if (
    !p ||
    !(p.button === null || isInt(p.button)) ||
    !(p.smallBlind === null || isInt(p.smallBlind)) ||
    !(p.bigBlind === null || isInt(p.bigBlind)) ||
    !isSeatList(p.extraBigBlinds) ||
    !isSeatList(p.deadSmallBlinds) ||
    !isSeatList(p.dealtIn)
  ) {
    return 'the Cercle extension has a bad hand plan';
  }
  if (!Array.isArray(e.seats) || !e.seats.every((s) => s && isInt(s.seat) && typeof s.player === 'string' && isInt(s.stack))) {
    return 'the Cercle extension has bad seats';
  }
  if (!(e.handId === null || typeof e.handId === 'string')) return 'the Cercle extension has a bad hand id';
  if (!(e.money === undefined || e.money === 'real' || e.money === 'play')) return "the Cercle extension's money is neither 'real' nor 'play'";
  if (e.tournament !== undefined) {
    const bad = tournamentProblem(e.tournament);
    if (bad !== null) return `the Cercle extension's tournament: ${bad}`;
  }
  if (!(e.table === undefined || (typeof e.table === 'string' && e.table.length > 0))) return "the Cercle extension's table is not a name";
  return e as CercleExt;
}

/** The engine configuration of a hand from the extension. */
export function configOfExt(e: CercleExt): HandConfig {
  const seats: HandConfig['seats'] = Array.from({ length: e.tableSize }, () => null);
  for (const s of e.seats) if (s.seat >= 0 && s.seat < e.tableSize) seats[s.seat] = { player: s.player, stack: s.stack };
  return { rules: e.rules, seats, plan: e.plan, ...(e.handId === null ? {} : { handId: e.handId }) };
}

// ---------------------------------------------------------------------------------------------
// The replay driver

/** One thing a file says happened, in file order, with the line that says it. */
export type Step = { line: number; round?: RoundName } & (
  | { k: 'deal'; seat: number | null; cards: (Card | null)[] }
  | { k: 'reshuffle' }
  /** `said`: the chips the file says a call or bring-in put in, checked against the engine's. */
  | { k: 'fold' | 'check' | 'call' | 'bringIn' | 'muck' | 'cc'; seat: number; said?: number }
  | { k: 'bet'; seat: number; to: number }
  /** Chips put in by this action (POJEU `Valeur`): a call, a bet or a raise, read from the state. */
  /** `as`: what the file calls it (POJEU `call`, `bet`/`raise`; `allin` either). */
  | { k: 'add'; seat: number; amount: number; as?: 'call' | 'bet' }
  | { k: 'draw'; seat: number; discards: (Card | null)[] }
  /** `cards` null: the cards the state knows; else the cards shown (a POJEU Reveal lists the down cards only). */
  | { k: 'show'; seat: number; cards: (Card | null)[] | null; downOnly?: boolean }
);

const isDealish = (s: Step): boolean => s.k === 'deal' || s.k === 'reshuffle';
const isShowish = (s: Step): boolean => s.k === 'show' || s.k === 'muck';
const isBetting = (s: Step): boolean => s.k === 'fold' || s.k === 'check' || s.k === 'call' || s.k === 'bet' || s.k === 'add' || s.k === 'bringIn' || s.k === 'cc';

function betAction(state: HandState, legal: LegalActions, st: Extract<Step, { k: 'add' }>): Action {
  const p = state.seats[st.seat];
  if (st.amount === 0) return { type: 'check', seat: st.seat };
  if (legal.call !== null && st.amount === legal.call) return { type: 'call', seat: st.seat };
  if (legal.bringIn !== null && st.amount === legal.bringIn && legal.bet?.min !== p.bet + st.amount) return { type: 'bringIn', seat: st.seat };
  return { type: 'bet', seat: st.seat, to: p.bet + st.amount };
}

function actionOf(state: HandState, legal: LegalActions, st: Step): Action | string {
  if (st.k === 'add' && st.as !== undefined) {
    const a = betAction(state, legal, st);
    const isCall = a.type === 'call' || a.type === 'check';
    if (st.as === 'call' && !isCall) return `a call of ${st.amount} does not match the ${legal.call ?? 0} to call`;
    if (st.as === 'bet' && isCall) return `a bet or raise of ${st.amount} is only a call`;
    return a;
  }
  switch (st.k) {
    case 'fold':
    case 'check':
    case 'call':
      return { type: st.k, seat: st.seat };
    case 'bringIn':
      return { type: 'bringIn', seat: st.seat };
    case 'cc':
      return { type: state.seats[st.seat].bet < state.currentBet ? 'call' : 'check', seat: st.seat };
    case 'bet':
      return { type: 'bet', seat: st.seat, to: st.to };
    case 'add':
      return betAction(state, legal, st);
    case 'draw':
      return { type: 'draw', seat: st.seat, discards: st.discards };
    default:
      return `expected a betting action of seat ${(legal.seat ?? 0) + 1}`;
  }
}

function showAction(state: HandState, st: Extract<Step, { k: 'show' }>): Action | string {
  const seat = state.seats[st.seat];
  const hole = seat.hole;
  if (st.cards === null) return { type: 'show', seat: st.seat };
  if (!hole.some((c) => c === null)) {
    // Known cards: what the file shows must be them (a POJEU Reveal lists the face-down ones).
    const expected = st.downOnly ? hole.filter((_, k) => !seat.up[k]) : hole;
    const sorted = (xs: readonly (Card | null)[]) => [...xs].sort((a, b) => (a ?? -1) - (b ?? -1)).join();
    if (sorted(expected) !== sorted(st.cards)) return `seat ${st.seat + 1} shows cards that are not the hand's`;
    return { type: 'show', seat: st.seat };
  }
  let cards: (Card | null)[];
  if (st.downOnly) {
    const given = st.cards.slice();
    cards = hole.map((c) => (c === null ? (given.shift() ?? null) : c));
  } else cards = st.cards;
  if (cards.some((c) => c === null) || cards.length !== hole.length) return `seat ${st.seat + 1} shows cards that are not all known`;
  return { type: 'show', seat: st.seat, cards: cards as Card[] };
}

export interface DriveOptions {
  /** Line to blame when the file ends before the hand does. */
  lastLine: number;
  /** Cards to deal in place of face-up cards a record hides (PHH without the extension). */
  standIns?: Card[];
  /**
   * Deal a seat's face-down cards unknown when the file does not give them (PokerStars text lists
   * only the cards its writer saw). Otherwise every card dealt must be in the file (`??` or a POJEU
   * Draw without Valeur for an unknown one).
   */
  unknownFill?: boolean;
  /**
   * The file may stop before the hand ends (a PHH history, standard "Finishing Stacks"): when it
   * runs out, or reaches a show of cards it does not know (`sm ????` of a seat whose cards were
   * never given: the showdown cannot be settled), the driver returns the state reached.
   */
  partial?: boolean;
}

/** What `driveSteps` reached: the hand's state, and the step it stopped at when the file shows unknown cards. */
export type Driven = { ok: true; state: HandState; stoppedAt: Step | null } | Fail;

/** A show of cards the record does not know: the showdown cannot be settled from the record. */
export const UNKNOWN_SHOWDOWN = 'the record shows cards it does not know (??): the showdown cannot be settled';

/**
 * A recorded Stud hand replays by the house rules it may have been played by (tableRules.ts
 * ReplayHouseRule): dealt without an ante, or with a loser mucking (a seat the file shows no cards for
 * at the showdown). The record keeps only the house rules the hand used (record.ts), so a hand of a
 * decree table, where everyone showed, comes back with none (D art. 7 III).
 */
function recordedConfig(config: HandConfig): HandConfig {
  if (VARIANTS[config.rules.variant].forcedBets !== 'ante-bring-in') return config;
  let rules = withHouseRule(config.rules, 'stud-muck');
  if (rules.ante === 0) rules = withHouseRule(rules, 'stud-no-ante');
  return { ...config, rules };
}

/**
 * Plays `steps` through the engine from `config` and returns the finished hand's record. Deals are
 * served as the engine asks (a file may group cards differently, or list seats in another order);
 * cards a file does not give are dealt unknown (down cards only); a Triple Draw seat the file does
 * not show drawing stands pat; a seat the showdown reaches without a show mucks.
 */
export function drive(config: HandConfig, steps: readonly Step[], o: DriveOptions): { ok: true; state: HandState; record: HandRecord } | Fail {
  const r = driveSteps(config, steps, { ...o, partial: false });
  if (!r.ok) return r;
  return { ok: true, state: r.state, record: recordOf(r.state) };
}

/**
 * The one driver of a recorded hand through the engine: every format's import and
 * `cercle replay` (shared/exchange/phh/replay.ts) call it. `drive` wants the whole hand; with
 * `partial` the state reached is returned when the file stops early.
 */
export function driveSteps(config: HandConfig, steps: readonly Step[], o: DriveOptions): Driven {
  let state: HandState;
  config = recordedConfig(config);
  try {
    state = startHand(config);
  } catch (e) {
    return fail(steps[0]?.line ?? o.lastLine, `the hand cannot start: ${e instanceof Error ? e.message : String(e)}`);
  }
  const queue: Step[] = steps.map((s) => ({ ...s }));
  const roundNow = (): RoundName => VARIANTS[state.variant].streets[state.street]?.round ?? 'reveal';
  const doApply = (a: Action, line: number): Fail | null => {
    const r = apply(state, a);
    if (!r.ok) return fail(line, `${r.rule}: ${r.message}`, r.rule, r.message);
    state = r.state;
    return null;
  };
  for (let guard = 0; guard < 20_000; guard++) {
    const legal = legalActions(state);
    if (legal.next === 'done') break;
    const head = queue[0];
    const line = head?.line ?? o.lastLine;
    // The file stops here (a PHH history may end before the hand does).
    if (o.partial && head === undefined) return { ok: true, state, stoppedAt: null };
    let err: Fail | null;
    // A deal the engine may take now (dealing, or an all-in runout during the showdown).
    const req = legal.deal;
    // All-in runout: a seat due to show does so before the rest of the board (the engine's order;
    // POJEU groups actions by round and cannot tell).
    let showIdx = -1;
    if (legal.next === 'show') {
      for (let k = 0; k < queue.length && (isShowish(queue[k]) || isDealish(queue[k])); k++) {
        const s = queue[k];
        if (isShowish(s) && 'seat' in s && s.seat === legal.seat) {
          showIdx = k;
          break;
        }
      }
    }
    if (req !== null && showIdx < 0 && (legal.next === 'deal' || (head !== undefined && isDealish(head)))) {
      if (head?.k === 'reshuffle') {
        queue.shift();
        err = doApply({ type: 'reshuffle' }, head.line);
        if (err) return err;
        continue;
      }
      // The deal due may come after other seats' draws or deals, never after a betting action or
      // the same seat's next draw.
      let idx = -1;
      for (let k = 0; k < queue.length && !isBetting(queue[k]) && !(queue[k].k === 'draw' && 'seat' in queue[k] && (queue[k] as { seat: number }).seat === req.seat); k++) {
        const s = queue[k];
        if (s.k === 'deal' && s.seat === req.seat && (s.round === undefined || s.round === roundNow())) {
          idx = k;
          break;
        }
        if (legal.next !== 'deal' && !isDealish(s) && !isShowish(s)) break;
      }
      if (idx < 0) {
        if (legal.next !== 'deal') {
          // Deals at the head for another seat than the one due: the file is out of order.
          return fail(line, `the engine deals to ${req.seat === null ? 'the board' : `seat ${req.seat + 1}`} now`);
        }
        if (req.seat === null || req.up.some((u) => u) || !o.unknownFill) {
          return fail(line, `the file does not give the ${req.seat === null ? 'board' : req.up.some((u) => u) ? 'face-up' : `seat ${req.seat + 1}'s`} cards dealt now (${req.count})`);
        }
        if (req.reshuffle) {
          err = doApply({ type: 'reshuffle' }, line);
          if (err) return err;
          continue;
        }
        err = doApply({ type: 'deal', seat: req.seat, cards: Array.from({ length: req.count }, () => null) }, line);
        if (err) return err;
        continue;
      }
      const st = queue[idx] as Extract<Step, { k: 'deal' }>;
      if (req.reshuffle && st.cards.length > req.stub) {
        err = doApply({ type: 'reshuffle' }, st.line);
        if (err) return err;
        continue;
      }
      const take = Math.min(req.count, st.cards.length);
      let cards = st.cards.slice(0, take);
      if (o.standIns && take === req.count) {
        // A record that hides a face-up card (a PHH broadcast): a card it never names stands in.
        cards = cards.map((c, k) => (c === null && req.up[k] ? (o.standIns!.shift() ?? null) : c));
      }
      if (take < req.count && req.up.some((u) => u)) {
        // Only the face-up cards were written (a PokerStars Stud line for another player).
        const known = st.cards.slice();
        cards = req.up.map((u) => (u ? (known.shift() ?? null) : null));
        if (known.length > 0 || cards.some((c, k) => c === null && req.up[k])) return fail(st.line, 'the cards dealt do not fit the face-up cards due');
        queue.splice(idx, 1);
      } else if (take < st.cards.length) st.cards = st.cards.slice(take);
      else queue.splice(idx, 1);
      err = doApply({ type: 'deal', seat: req.seat, cards }, st.line);
      if (err) return err;
      continue;
    }
    if (legal.next === 'deal') return fail(line, 'a deal is due');
    const seat = legal.seat as number;
    if (legal.next === 'show') {
      const idx = showIdx;
      if (idx < 0) {
        err = doApply({ type: 'muck', seat }, line);
      } else {
        const st = queue.splice(idx, 1)[0];
        if (st.k === 'muck') err = doApply({ type: 'muck', seat }, st.line);
        else {
          const show = st as Extract<Step, { k: 'show' }>;
          if (show.cards === null && state.seats[seat].hole.some((c) => c === null)) {
            // A show of cards no one wrote down: the showdown cannot be settled from the file.
            if (o.partial) return { ok: true, state, stoppedAt: st };
            return fail(st.line, UNKNOWN_SHOWDOWN, 'R-SHOWDOWN');
          }
          const a = showAction(state, show);
          err = typeof a === 'string' ? fail(st.line, a) : doApply(a, st.line);
        }
      }
      if (err) return err;
      continue;
    }
    if (legal.next === 'draw') {
      // The seat's draw may be written after other seats' deals; none before the betting: it stands pat.
      let idx = -1;
      for (let k = 0; k < queue.length && !isBetting(queue[k]); k++) {
        const s = queue[k];
        if (s.k === 'draw' && s.seat === seat && (s.round === undefined || s.round === roundNow())) {
          idx = k;
          break;
        }
      }
      const st = idx < 0 ? null : (queue.splice(idx, 1)[0] as Extract<Step, { k: 'draw' }>);
      err = doApply({ type: 'draw', seat, discards: st?.discards ?? [] }, st?.line ?? line);
      if (err) return err;
      continue;
    }
    if (head === undefined) return fail(o.lastLine, `the file ends before the hand does (seat ${seat + 1} to act)`);
    if (!('seat' in head) || head.seat !== seat) {
      if (isBetting(head)) {
        // Out of turn: the engine's refusal names the rule (R-ACTORDER) and whose turn it is.
        const early = actionOf(state, legal, head);
        const r = typeof early === 'string' ? null : apply(state, early);
        if (r !== null && !r.ok) return fail(head.line, `${r.rule}: ${r.message}`, r.rule, r.message);
      }
      return fail(head.line, `it is seat ${seat + 1}'s turn (R-ACTORDER)`, 'R-ACTORDER', `it is seat ${seat + 1}'s turn`);
    }
    const a = actionOf(state, legal, head);
    if (typeof a === 'string') return fail(head.line, a);
    queue.shift();
    err = doApply(a, head.line);
    if (err) return err;
    if ('said' in head && head.said !== undefined) {
      const e = state.log[state.log.length - 1];
      if ((e.kind === 'call' || e.kind === 'bring-in') && e.amount !== head.said) return fail(head.line, `the file says ${head.said} but the ${e.kind} is ${e.amount}`);
    }
  }
  if (state.phase !== 'done') return fail(o.lastLine, 'the hand does not end');
  for (const s of queue) {
    // Shows after the settlement (a PHH habit: pokerkit shows again after an all-in runout, or the
    // last hand standing, which need not show, T 8-6) change nothing when they are the hand's cards.
    if (s.k === 'show') {
      const mismatch = lateShowMismatch(state, s);
      if (mismatch === null) continue;
      return fail(s.line, mismatch, 'R-SHOWDOWN');
    }
    return fail(s.line, 'this comes after the end of the hand', 'R-ACTORDER', 'the hand is already over');
  }
  return { ok: true, state, stoppedAt: null };
}

/** Why a show after the settlement is not the hand held, or null when it is (unknown cards match anything). */
function lateShowMismatch(state: HandState, st: Extract<Step, { k: 'show' }>): string | null {
  const hole = state.seats[st.seat]?.hole;
  if (hole === undefined) return `seat ${st.seat + 1} holds no cards`;
  if (st.cards === null) return null;
  // A POJEU Reveal lists the face-down cards only.
  if (!st.downOnly && st.cards.length !== hole.length) return `shows ${st.cards.length} cards but holds ${hole.length}`;
  for (const c of st.cards) if (c !== null && !hole.includes(c)) return 'shows a card it does not hold';
  return null;
}

/**
 * The record as the formats carry it: consecutive deals to the same seat in a round merged, and
 * Triple Draw reshuffle points dropped (no format has a field for how the dealer split a deal or
 * when it reshuffled; docs/exchange.md). Round trips are equal on this form.
 */
export function canonicalRecord(r: HandRecord): HandRecord {
  const actions: HandRecord['actions'] = [];
  for (const e of r.actions) {
    if (e.kind === 'reshuffle') continue;
    const last = actions[actions.length - 1];
    if (e.kind === 'deal' && last?.kind === 'deal' && last.seat === e.seat && last.round === e.round) {
      actions[actions.length - 1] = { ...last, cards: [...last.cards, ...e.cards], up: [...last.up, ...e.up] };
      continue;
    }
    actions.push(e);
  }
  return { ...r, actions };
}

/** Integer amount from a decimal text with at most `scale` decimals; null when it is not one. */
export function unitsOf(text: string, scale: number): number | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return null;
  }
  const v = Number(m[2]) * 10 ** scale + (scale > 0 ? Number((frac + '0'.repeat(scale)).slice(0, scale)) : 0);
  if (!Number.isSafeInteger(v)) return null;
  return m[1] === '-' ? -v : v;
}

/** An integer amount as a decimal with `scale` decimals. */
export function formatUnits(units: number, scale: number): string {
  if (scale === 0) return String(units);
  const abs = Math.abs(units);
  const p = 10 ** scale;
  return `${units < 0 ? '-' : ''}${Math.floor(abs / p)}.${String(abs % p).padStart(scale, '0')}`;
}

/** A rake rule that takes exactly `rake` from the hand (the engine takes it from the main pot first). */
export function exactRake(rake: number): TableRules['rake'] {
  return rake > 0 ? { basisPoints: 10_000, cap: rake, noFlopNoDrop: false } : { basisPoints: 0, cap: null, noFlopNoDrop: true };
}

/** A forced bet as a file states it: `both` is a newcomer's big blind and dead small blind together. */
export interface StatedPost {
  seat: number;
  kind: 'ante' | 'small blind' | 'big blind' | 'both';
  amount: number;
  line: number;
}

/** Whether the forced bets a file states are those the engine posted; the first difference, else null. */
export function postsMismatch(record: HandRecord, stated: readonly StatedPost[], missingLine: number, money: (n: number) => string = String): Fail | null {
  const posted = new Map<string, number>();
  const key = (seat: number, kind: string) => `${seat}:${kind}`;
  for (const e of record.actions) {
    if (e.kind !== 'post') continue;
    const kind = e.post === 'dead small blind' ? 'dead' : e.post;
    posted.set(key(e.seat, kind), (posted.get(key(e.seat, kind)) ?? 0) + e.amount);
  }
  const seen = new Set<string>();
  for (const p of stated) {
    let want: number;
    if (p.kind === 'both') {
      want = (posted.get(key(p.seat, 'big blind')) ?? 0) + (posted.get(key(p.seat, 'dead')) ?? 0);
      seen.add(key(p.seat, 'big blind'));
      seen.add(key(p.seat, 'dead'));
    } else if (p.kind === 'small blind' && !posted.has(key(p.seat, 'small blind')) && posted.has(key(p.seat, 'dead'))) {
      want = posted.get(key(p.seat, 'dead'))!;
      seen.add(key(p.seat, 'dead'));
    } else {
      want = posted.get(key(p.seat, p.kind)) ?? 0;
      seen.add(key(p.seat, p.kind));
    }
    if (want !== p.amount) return fail(p.line, `seat ${p.seat + 1} posts ${money(p.amount)} but the ${p.kind === 'both' ? 'blinds are' : `${p.kind} is`} ${money(want)}`);
  }
  for (const k of posted.keys()) {
    if (!seen.has(k)) return fail(missingLine, `seat ${Number(k.split(':')[0]) + 1}'s ${k.split(':')[1] === 'dead' ? 'dead small blind' : k.split(':')[1]} is not in the file`);
  }
  return null;
}

