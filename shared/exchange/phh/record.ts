/**
 * PHH (Poker Hand History, phh.readthedocs.io) for the exchange: a HandRecord as a PHH hand
 * (phh.ts reads and writes the text) and back. Players are the seats dealt in, in PHH
 * order (the first left of the button first, the button last; heads-up the blinds reversed, as the
 * standard has them); `seats` and `seat_count` give the table; the user field `_cercle` carries the
 * Cercle extension (core.ts) so that the hand is played again exactly. A PHH without it (the
 * corpus, other tools) is read as `cercle replay` reads it: the same header reading and steps
 * (start.ts) through the same driver (core.ts driveSteps; docs/phh.md).
 */
import { cardToText, type Card } from '../../rules/cards';
import type { HandConfig } from '../../rules/engine';
import { VARIANTS, type RoundName } from '../../rules/variants';
import { SEATS_MAX } from '../../protocol/limits';
import { canonicalRecord, configOfExt, drive, extOf, fail, parseExt, planOf, tournamentOf, type ExchangeHand, type ExchangeTournament, type Fail, type ImportResult } from '../core';
import { parsePhhAction, type PhhAction } from './actions';
import { parsePhhs, writePhh, writePhhs, type PhhHand } from './phh';
import { amountScale, phhStart, phhSteps, standIns } from './start';
import { parseToml, tomlPathKey } from './toml';
import { DECREE_VARIANT_OF, PHH_CODE_OF, isPhhVariant } from './variants';

const cardText = (c: Card | null): string => (c === null ? '??' : cardToText(c));

/** The rounds where players discard and draw (Triple Draw). */
const DRAW_ROUNDS: ReadonlySet<RoundName> = new Set(VARIANTS['2T7TD'].streets.filter((s) => s.draw).map((s) => s.round));

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
  // discard (`sd`) first, then the replacement cards (`d dh`), in the same order.
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
  const t = hand.meta.tournament;
  if (t !== undefined) {
    // The standard's tournament fields (phh-std optional.rst): `event`, the event's name, and `level`,
    // the blind level counted from 1; the rest of the tournament rides in `_cercle`.
    out.event = t.name ?? `Tournament ${t.tournamentId}`;
    out.level = t.level + 1;
  }
  out.seats = players.map((s) => s + 1);
  out.seat_count = record.tableSize;
  if (hand.meta.tableName !== undefined) out.table = hand.meta.tableName;
  out.players = players.map((s) => bySeat.get(s)!.player);
  out.finishing_stacks = players.map((s) => bySeat.get(s)!.stackAfter);
  out.winnings = players.map((s) => bySeat.get(s)!.won);
  // The money kind rides in the extension, as in POJEU's Info: PHH has no field for play chips.
  out.extra = { _cercle: JSON.stringify({ ...extOf(hand.record), ...(hand.meta.money !== undefined ? { money: hand.meta.money } : {}), ...(t !== undefined ? { tournament: tournamentOf(t) } : {}) }) };
  return out;
}

/** One hand as a .phh text; several as a .phhs text (tables `[1]`, `[2]`, …). */
export function writePhhHands(hands: readonly ExchangeHand[]): string {
  if (hands.length === 1) return writePhh(phhOf(hands[0]));
  return writePhhs(hands.map((h, i) => ({ name: String(i + 1), hand: phhOf(h) })));
}

// ---------------------------------------------------------------------------------------------
// Reading

function readOne(hand: PhhHand, lineOf: (path: (string | number)[]) => number, headLine: number): { ok: true; hand: ExchangeHand } | Fail {
  if (!isPhhVariant(hand.variant)) return fail(lineOf(['variant']), `unknown PHH variant '${hand.variant}'`);
  // Said before anything scales with it (100,000 players used to overflow the stack).
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
  let tournament: ExchangeTournament | undefined;
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
    tournament = e.tournament;
    if (tournament !== undefined) {
      // The standard fields say the same tournament as the extension.
      if (hand.level !== tournament.level + 1) return fail(lineOf(['level']), `'level' is not ${tournament.level + 1}, the extension's tournament level counted from 1`);
      const event = tournament.name ?? `Tournament ${tournament.tournamentId}`;
      if (hand.event !== event) return fail(lineOf(['event']), `'event' is not '${event}', the extension's tournament`);
    }
    seatOf = (i) => e.plan.dealtIn[i];
    for (const [i, s] of hand.starting_stacks.entries()) {
      if (e.seats.find((x) => x.seat === e.plan.dealtIn[i])?.stack !== s) return fail(lineOf(['starting_stacks']), `player ${i + 1}'s starting stack differs from the extension`);
    }
  } else {
    // Without the extension the table is the one the header implies, read as `cercle replay` reads it (start.ts).
    const scaled = amountScale(hand, parsed);
    if (typeof scaled === 'string') return fail(headLine, scaled);
    scale = scaled;
    const code = DECREE_VARIANT_OF[hand.variant];
    if (code === undefined) return fail(lineOf(['variant']), `PHH variant '${hand.variant}' is not a decree variant (D art. 7)`);
    const start = phhStart(hand, code, scale);
    config = 'ok' in start ? fail(headLine, start.reason) : start.config;
    seatOf = (i) => i;
  }
  if ('ok' in config) return config;
  const n = hand.starting_stacks.length;
  for (const [i, a] of parsed.entries()) if ('playerIndex' in a && a.playerIndex >= n) return fail(lineOf(['actions', i]), `there are only ${n} players`);
  const steps = phhSteps(parsed, scale, seatOf, (i) => lineOf(['actions', i]));
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
      meta: {
        ...(hand.table !== undefined ? { tableName: String(hand.table) } : {}),
        ...(endedAt !== undefined ? { endedAt } : {}),
        ...(money !== undefined ? { money } : {}),
        ...(tournament !== undefined ? { tournament: tournamentOf(tournament) } : {}),
      },
    },
  };
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

