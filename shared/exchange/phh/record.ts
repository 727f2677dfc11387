/**
 * PHH (Poker Hand History, phh.readthedocs.io) for the exchange: a HandRecord as a PHH hand
 * (shared/rules/phh reads and writes the text) and back. Players are the seats dealt in, in PHH
 * order (the first left of the button first, the button last; heads-up the blinds reversed, as the
 * standard has them); `seats` and `seat_count` give the table; the user field `_cercle` carries the
 * Cercle extension (core.ts) so that the hand is played again exactly. A PHH without it (the
 * corpus, other tools) is read as shared/rules/phh/replay.ts reads it (docs/phh.md).
 */
import { cardToText, type Card } from '../../rules/cards';
import type { HandConfig } from '../../rules/engine';
import { parsePhhAction, type PhhAction } from './actions';
import { parsePhhs, writePhh, writePhhs, type PhhHand } from './phh';
import { parseToml, tomlPathKey } from './toml';
import { DECREE_VARIANT_OF, PHH_CODE_OF, PHH_VARIANTS, isPhhVariant } from './variants';
import { WSOP_LIMIT_CAP } from './replay';
import { readBlinds } from './blinds';
import { cardFromText } from '../../rules/cards';
import { makeTableRules, validateTableRules, type TableRules } from '../../rules/tableRules';
import { VARIANTS, type RoundName } from '../../rules/variants';
import { SEATS_MAX } from '../../protocol/limits';
import { canonicalRecord, configOfExt, drive, extOf, fail, parseExt, planOf, type ExchangeHand, type Fail, type ImportResult, type Step } from '../core';

const cardText = (c: Card | null): string => (c === null ? '??' : cardToText(c));

/** The rounds where players discard and draw (Triple Draw). */
const DRAW_ROUNDS: ReadonlySet<RoundName> = new Set<RoundName>(['1st draw', '2nd draw', '3rd draw']);

/** One hand as a PHH hand object. */
export function phhOf(hand: ExchangeHand): PhhHand {
  const record = canonicalRecord(hand.record);
  const rules = record.rules;
  const v = VARIANTS[record.variant];
  const plan = planOf(record);
  const players = plan.dealtIn;
  const index = new Map(players.map((s, i) => [s, i]));
  const p = (seat: number) => `p${(index.get(seat) ?? 0) + 1}`;
  const bySeat = new Map(record.seats.map((s) => [s.seat, s]));
  const limit = v.betting === 'limit';
  const actions: string[] = [];
  // A draw round is written as pokerkit (PHH's reference implementation) plays it: every player's
  // discard (`sd`) first, then the replacement cards (`d dh`), in the same order (issue 14 item 8c).
  // The engine's log deals each player's cards right after their discard; the reader takes both.
  let drawDeals: string[] = [];
  let drawRound: RoundName | null = null;
  const flushDraw = () => {
    actions.push(...drawDeals);
    drawDeals = [];
  };
  for (const e of record.actions) {
    const drawing = e.round === drawRound && (e.kind === 'discard' || e.kind === 'reshuffle' || (e.kind === 'deal' && e.seat !== null));
    if (drawDeals.length > 0 && !drawing) flushDraw();
    drawRound = DRAW_ROUNDS.has(e.round) ? e.round : null;
    switch (e.kind) {
      case 'deal':
        if (e.seat !== null && DRAW_ROUNDS.has(e.round)) drawDeals.push(`d dh ${p(e.seat)} ${e.cards.map(cardText).join('')}`);
        else actions.push(e.seat === null ? `d db ${e.cards.map(cardText).join('')}` : `d dh ${p(e.seat)} ${e.cards.map(cardText).join('')}`);
        break;
      case 'bring-in':
        actions.push(`${p(e.seat)} pb`);
        break;
      case 'fold':
        actions.push(`${p(e.seat)} f`);
        break;
      case 'check':
      case 'call':
        actions.push(`${p(e.seat)} cc`);
        break;
      case 'bet':
      case 'raise':
      case 'complete':
        actions.push(`${p(e.seat)} cbr ${e.to}`);
        break;
      case 'discard':
        actions.push(e.cards.length === 0 ? `${p(e.seat)} sd` : `${p(e.seat)} sd ${e.cards.map(cardText).join('')}`);
        break;
      case 'show':
        actions.push(`${p(e.seat)} sm ${e.cards.map(cardText).join('')}`);
        break;
      case 'muck':
        actions.push(`${p(e.seat)} sm`);
        break;
      default:
        break; // posts and returns follow from the fields; reshuffles are not carried
    }
  }
  flushDraw();
  const bbAnte = rules.anteBy === 'big-blind';
  const out: PhhHand = {
    variant: PHH_CODE_OF[record.variant],
    antes: players.map((s) => (bbAnte ? (s === plan.bigBlind ? rules.ante : 0) : rules.ante)),
    ...(v.forcedBets === 'blinds'
      ? {
          // Heads-up the standard writes [small, big] while player 2 (the button) posts the small blind.
          blinds_or_straddles: ((b: number[]) => (players.length === 2 ? [b[1], b[0]] : b))(
            players.map((s) => (s === plan.smallBlind ? rules.smallBlind : s === plan.bigBlind ? rules.bigBlind : plan.extraBigBlinds.includes(s) ? -rules.bigBlind : 0)),
          ),
        }
      : { bring_in: rules.bringIn }),
    ...(limit ? { small_bet: rules.smallBet, big_bet: rules.bigBet } : { min_bet: rules.bigBlind }),
    starting_stacks: players.map((s) => bySeat.get(s)!.stackBefore),
    actions,
  };
  if (hand.meta.endedAt !== undefined) {
    const d = new Date(hand.meta.endedAt);
    out.time = d.toISOString().slice(11, 19);
    out.time_zone = 'UTC';
    out.day = d.getUTCDate();
    out.month = d.getUTCMonth() + 1;
    out.year = d.getUTCFullYear();
  }
  if (record.handId !== null) out.hand = record.handId;
  out.seats = players.map((s) => s + 1);
  out.seat_count = record.tableSize;
  if (hand.meta.tableName !== undefined) out.table = hand.meta.tableName;
  out.players = players.map((s) => bySeat.get(s)!.player);
  out.finishing_stacks = players.map((s) => bySeat.get(s)!.stackAfter);
  out.winnings = players.map((s) => bySeat.get(s)!.won);
  // The money kind rides in the extension, as in POJEU's Info (issue 13 defect 1): PHH has no field for play chips.
  out.extra = { _cercle: JSON.stringify({ ...extOf(hand.record), ...(hand.meta.money !== undefined ? { money: hand.meta.money } : {}) }) };
  return out;
}

/** One hand as a .phh text; several as a .phhs text (tables `[1]`, `[2]`, …). */
export function writePhhHands(hands: readonly ExchangeHand[]): string {
  if (hands.length === 1) return writePhh(phhOf(hands[0]));
  return writePhhs(hands.map((h, i) => ({ name: String(i + 1), hand: phhOf(h) })));
}

// ---------------------------------------------------------------------------------------------
// Reading

function decimalsOf(x: number): number {
  const text = String(x);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Number(exp[1]) + (text.slice(0, text.indexOf('e')).split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/** The table a PHH without the extension implies, as shared/rules/phh/replay.ts builds it. */
function inferredConfig(hand: PhhHand, scale: number, line: number): HandConfig | Fail {
  const code = DECREE_VARIANT_OF[hand.variant as keyof typeof DECREE_VARIANT_OF];
  if (code === undefined) return fail(line, `PHH variant '${hand.variant}' is not a decree variant (D art. 7)`);
  const v = VARIANTS[code];
  const info = PHH_VARIANTS[hand.variant as keyof typeof PHH_VARIANTS];
  const n = hand.starting_stacks.length;
  const u = (x: number) => Math.round(x * scale);
  if (n > v.maxSeats) return fail(line, `${n} players: ${code} is played at most ${v.maxSeats} to a table (R-SEATS)`);
  if (hand.starting_stacks.some((s) => !Number.isFinite(s))) return fail(line, 'a starting stack is unknown (inf)');
  const antes = hand.antes.map(u);
  const anteSeats = antes.flatMap((a, i) => (a > 0 ? [i] : []));
  const bbAnte = antes.some((a) => a !== antes[0]) && anteSeats.length === 1 && v.forcedBets === 'blinds';
  if (antes.some((a) => a !== antes[0]) && !bbAnte) return fail(line, 'antes are neither paid by every player nor by the big blind alone');
  const range = Array.from({ length: n }, (_, i) => i);
  let smallBlind = 0;
  let bigBlind = 0;
  let plan: HandConfig['plan'];
  if (v.forcedBets === 'ante-bring-in') {
    plan = { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: range };
  } else {
    const blinds = readBlinds((hand.blinds_or_straddles ?? []).map(u), n);
    if (!blinds.ok) return fail(line, blinds.reason === 'heads-up' ? 'heads-up blinds are not a big and a small blind' : 'straddles are not a decree forced bet (R-FORCED)');
    const sb = blinds.smallBlindSeat;
    const bb = blinds.bigBlindSeat;
    smallBlind = blinds.smallBlind;
    bigBlind = blinds.bigBlind;
    if (blinds.posts.some((p) => p.amount !== bigBlind)) return fail(line, 'a post is not a big blind');
    const extra = blinds.posts.map((p) => p.seat);
    plan = { button: n - 1, smallBlind: sb, bigBlind: bb, extraBigBlinds: extra, deadSmallBlinds: [], dealtIn: range };
  }
  const ante = bbAnte ? antes[anteSeats[0]] : antes[0];
  const stakes =
    info.betting === 'limit'
      ? { smallBlind, bigBlind, ante, bringIn: u(hand.bring_in ?? 0), smallBet: u(hand.small_bet!), bigBet: u(hand.big_bet!) }
      : { smallBlind, bigBlind, ante };
  const overrides: { -readonly [K in keyof TableRules]?: TableRules[K] } = { studOpenPairBigBet: false };
  if (v.betting === 'limit' && /World Series of Poker|\bWSOP\b/i.test(hand.event ?? '')) overrides.cap = WSOP_LIMIT_CAP;
  if (bbAnte) overrides.anteBy = 'big-blind';
  if (code === '2T7TD') overrides.lowball27 = 'international';
  const rules = makeTableRules(code, stakes, overrides);
  const check = validateTableRules(rules);
  if (!check.ok) return fail(line, `table rules from the header: ${check.reason}`);
  return {
    rules,
    seats: hand.starting_stacks.map((s, i) => ({ player: hand.players?.[i] ?? `p${i + 1}`, stack: u(s) })),
    plan,
    ...(hand.hand !== undefined ? { handId: String(hand.hand) } : {}),
  };
}

function readOne(hand: PhhHand, lineOf: (path: (string | number)[]) => number, headLine: number): { ok: true; hand: ExchangeHand } | Fail {
  if (!isPhhVariant(hand.variant)) return fail(lineOf(['variant']), `unknown PHH variant '${hand.variant}'`);
  // issue 12 item 6: said before anything scales with it (100,000 players used to overflow the stack).
  if (hand.starting_stacks.length > SEATS_MAX) {
    return fail(lineOf(['starting_stacks']), `${hand.starting_stacks.length} players; a hand has at most ${SEATS_MAX} (R-SEATS)`);
  }
  const parsed: PhhAction[] = [];
  for (const [i, t] of hand.actions.entries()) {
    const a = parsePhhAction(t);
    if (!a.ok) return fail(lineOf(['actions', i]), a.reason);
    parsed.push(a.action);
  }
  let config: HandConfig | Fail;
  let money: 'real' | 'play' | undefined;
  let scale = 1;
  let seatOf: (player: number) => number;
  const ext = hand.extra?._cercle;
  if (typeof ext === 'string') {
    const e = parseExt(ext);
    if (typeof e === 'string') return fail(lineOf(['_cercle']), e);
    if (DECREE_VARIANT_OF[hand.variant] !== e.rules.variant) return fail(lineOf(['variant']), `variant ${hand.variant} differs from the extension's ${e.rules.variant}`);
    if (e.plan.dealtIn.length !== hand.starting_stacks.length) return fail(lineOf(['starting_stacks']), 'the players differ from the extension');
    config = configOfExt(e);
    money = e.money;
    seatOf = (i) => e.plan.dealtIn[i];
    for (const [i, s] of hand.starting_stacks.entries()) {
      if (e.seats.find((x) => x.seat === e.plan.dealtIn[i])?.stack !== s) return fail(lineOf(['starting_stacks']), `player ${i + 1}'s starting stack differs from the extension`);
    }
  } else {
    const values = [...hand.antes, ...(hand.blinds_or_straddles ?? []), ...hand.starting_stacks, ...(hand.finishing_stacks ?? [])];
    for (const k of ['bring_in', 'small_bet', 'big_bet', 'min_bet'] as const) if (hand[k] !== undefined) values.push(hand[k]);
    for (const a of parsed) if (a.type === 'complete-bet-raise') values.push(a.amount);
    const decimals = values.filter(Number.isFinite).reduce((m, x) => Math.max(m, decimalsOf(x)), 0);
    if (decimals > 6) return fail(headLine, 'amounts with more than 6 decimals');
    scale = 10 ** decimals;
    config = inferredConfig(hand, scale, headLine);
    seatOf = (i) => i;
  }
  if ('ok' in config) return config;
  const n = hand.starting_stacks.length;
  const steps: Step[] = [];
  const cardsOf = (texts: readonly string[]) => texts.map((t) => (t === '??' ? null : cardFromText(t)));
  for (const [i, a] of parsed.entries()) {
    const line = lineOf(['actions', i]);
    if ('playerIndex' in a && a.playerIndex >= n) return fail(line, `there are only ${n} players`);
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
        steps.push({ k: 'cc', seat: seatOf(a.playerIndex), line });
        break;
      case 'complete-bet-raise':
        steps.push({ k: 'bet', seat: seatOf(a.playerIndex), to: Math.round(a.amount * scale), line });
        break;
      case 'discard':
        steps.push({ k: 'draw', seat: seatOf(a.playerIndex), discards: cardsOf(a.cards), line });
        break;
      case 'show-muck':
        if (a.cards === null) steps.push({ k: 'muck', seat: seatOf(a.playerIndex), line });
        else if (a.cards === 'dealt') steps.push({ k: 'show', seat: seatOf(a.playerIndex), cards: null, line });
        else {
          const cards = cardsOf(a.cards);
          steps.push({ k: 'show', seat: seatOf(a.playerIndex), cards: cards.some((c) => c === null) ? null : cards, line });
        }
        break;
    }
  }
  const lastLine = lineOf(['actions', Math.max(0, hand.actions.length - 1)]);
  const r = drive(config, steps, typeof ext === 'string' ? { lastLine } : { lastLine, standIns: standIns(parsed, config.rules.variant === '7SLL') });
  if (!r.ok) return r;
  if (hand.finishing_stacks !== undefined) {
    for (const [i, f] of hand.finishing_stacks.entries()) {
      const got = r.record.seats.find((s) => s.seat === seatOf(i))?.stackAfter;
      if (got !== Math.round(f * scale)) return fail(lineOf(['finishing_stacks']), `player ${i + 1} finishes with ${f} but the hand played gives ${(got ?? 0) / scale}`);
    }
  }
  if (typeof ext === 'string') {
    // With the extension the standard fields are written from the same hand: they must agree.
    const again = phhOf({ record: r.record, meta: {} });
    const fields = ['antes', 'blinds_or_straddles', 'bring_in', 'small_bet', 'big_bet', 'min_bet', 'hand', 'seats', 'seat_count', 'players', 'winnings'] as const;
    for (const f of fields) {
      if (hand[f] !== undefined && JSON.stringify(hand[f]) !== JSON.stringify(again[f])) return fail(lineOf([f]), `'${f}' differs from the hand the extension describes`);
    }
  }
  let endedAt: number | undefined;
  if (hand.year !== undefined && hand.month !== undefined && hand.day !== undefined && hand.time !== undefined && (hand.time_zone ?? 'UTC') === 'UTC') {
    const [hh, mm, ss] = hand.time.split(':').map(Number);
    endedAt = Date.UTC(hand.year, hand.month - 1, hand.day, hh, mm, Math.floor(ss));
  }
  return {
    ok: true,
    hand: {
      record: r.record,
      meta: { ...(hand.table !== undefined ? { tableName: String(hand.table) } : {}), ...(endedAt !== undefined ? { endedAt } : {}), ...(money !== undefined ? { money } : {}) },
    },
  };
}

/**
 * Cards for face-up cards a record hides (`d dh p1 ??????` for a player who folded at once): cards
 * the record never names, the highest first (the lowest up-card brings in), the lowest first in
 * Razz, as shared/rules/phh/replay.ts chooses them.
 */
function standIns(actions: readonly PhhAction[], razz: boolean): Card[] {
  const named = new Set<Card>();
  for (const a of actions) {
    const cards = 'cards' in a && Array.isArray(a.cards) ? (a.cards as string[]) : [];
    for (const t of cards) {
      const c = cardFromText(t);
      if (c !== null) named.add(c);
    }
  }
  const free: Card[] = [];
  for (let c = 51; c >= 0; c--) if (!named.has(c)) free.push(c);
  if (!razz) return free;
  const lowRank = (c: Card): number => ((c >> 2) + 2 === 14 ? 1 : (c >> 2) + 2);
  return free.sort((x, y) => lowRank(x) - lowRank(y) || x - y);
}

/** Reads every hand of a .phh or .phhs text; nothing when any of them is wrong. */
export function readPhhHands(text: string): ImportResult {
  // An empty export (no hands in the period) is an empty file.
  if (text.split(/\r\n?|\n/).every((l) => l.trim() === '' || l.trim().startsWith('#'))) return { ok: true, hands: [] };
  const parsed = parsePhhs(text);
  if (!parsed.ok) return fail(parsed.line, parsed.reason);
  const doc = parseToml(text);
  const lines = doc.ok ? doc.lines : {};
  const hands: ExchangeHand[] = [];
  for (const { name, hand } of parsed.hands) {
    const prefix = name === '' ? [] : [name];
    const headLine = name === '' ? 1 : (lines[tomlPathKey([name])] ?? 1);
    const lineOf = (path: (string | number)[]) => lines[tomlPathKey([...prefix, ...path])] ?? headLine;
    const r = readOne(hand, lineOf, headLine);
    if (!r.ok) return name === '' ? r : fail(r.line, `hand [${name}]: ${r.message}`);
    hands.push(r.hand);
  }
  return { ok: true, hands };
}

