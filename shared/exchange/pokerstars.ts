/**
 * PokerStars-style hand history text, as common trackers import it (docs/exchange.md): a header with
 * a stable hand number (handNumber.ts), the game as PokerStars names it and the stakes, the table
 * line with its size and button, seat lines with stacks, posts, `*** HOLE CARDS ***` (Stud
 * `*** 3rd STREET ***`, Triple Draw `*** DEALING HANDS ***`), `Dealt to` lines, actions with their
 * amounts (`raises X to Y`), `Uncalled bet (x) returned to y`, `*** SHOW DOWN ***`, `collected x from
 * side pot-1` / `main pot` / `pot`, and `*** SUMMARY ***` whose totals balance with the rake.
 * Amounts are integer units (chips, or cents for real money) without a currency symbol; a play-money
 * hand says so as PokerStars does, `(Play Money)` on the table line, and text without it is real money.
 * The hand's identity is its number (`Hand #n`, handNumber.ts): the history recognises a hand by it.
 *
 * The reader takes what the writer writes (and the same shapes from elsewhere), replays the hand
 * through the engine (core.ts) and checks the collected amounts and the rake against it.
 */
import { cardFromText, cardToText, type Card } from '../rules/cards';
import type { LogEntry } from '../rules/engine';
import type { HandRecord } from '../rules/record';
import { makeTableRules, type TableRules } from '../rules/tableRules';
import { VARIANTS, type RoundName, type VariantCode } from '../rules/variants';
import { canonicalRecord, dealtInOrder, drive, exactRake, fail, postsMismatch, type ExchangeHand, type Fail, type ImportResult, type Step } from './core';
import { HOUR_MS } from '../rules/time';
import { handNumber } from './handNumber';
import { TOURNAMENT_NOTE, easternOffset, parisDateText, readDate, readTournamentHeader, roman, tournamentHeadText, tournamentMoney, tournamentTableName } from './pokerstars-tournament';

export { easternOffset };

/** The game names PokerStars writes. */
export const POKERSTARS_GAMES: Readonly<Record<VariantCode, string>> = {
  THL: "Hold'em Limit",
  THPL: "Hold'em Pot Limit",
  THNL: "Hold'em No Limit",
  O4HPL: 'Omaha Pot Limit',
  O4JL: 'Omaha Hi/Lo Limit',
  O4JPL: 'Omaha Hi/Lo Pot Limit',
  O5HPL: '5 Card Omaha Pot Limit',
  '7SHL': '7 Card Stud Limit',
  '7SJL': '7 Card Stud Hi/Lo Limit',
  '7SLL': 'Razz Limit',
  '2T7TD': 'Triple Draw 2-7 Lowball Limit',
};
const GAME_OF = new Map<string, VariantCode>(Object.entries(POKERSTARS_GAMES).map(([k, v]) => [v, k as VariantCode]));

const STREET_HEADER: Partial<Record<string, string>> = {
  'pre-flop': 'HOLE CARDS',
  flop: 'FLOP',
  turn: 'TURN',
  river: 'RIVER',
  'bring-in': '3rd STREET',
  '4th st': '4th STREET',
  '5th st': '5th STREET',
  '6th st': '6th STREET',
  '7th st': 'RIVER',
  'pre-draw': 'DEALING HANDS',
  '1st draw': 'FIRST DRAW',
  '2nd draw': 'SECOND DRAW',
  '3rd draw': 'THIRD DRAW',
  reveal: 'SHOW DOWN',
};

const cardsText = (cs: readonly (Card | null)[]): string => cs.filter((c): c is Card => c !== null).map(cardToText).join(' ');

/** `2026/11/21 18:30:05 UTC [2026/11/21 13:30:05 ET]`: PokerStars writes the time at ET in brackets. */
function dateText(ms: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const at = (d: Date) => `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  return `${at(new Date(ms))} UTC [${at(new Date(ms + easternOffset(ms) * HOUR_MS))} ET]`;
}

function stakesText(rules: TableRules): string {
  const v = VARIANTS[rules.variant];
  return v.betting === 'limit' ? `${rules.smallBet}/${rules.bigBet}` : `${rules.smallBlind}/${rules.bigBlind}`;
}

/** Street names in `folded before Flop` / `folded on the Turn`. */
const FOLD_STREET: Partial<Record<string, string>> = {
  flop: 'Flop',
  turn: 'Turn',
  river: 'River',
  '4th st': '4th Street',
  '5th st': '5th Street',
  '6th st': '6th Street',
  '7th st': 'River',
  '1st draw': 'First Draw',
  '2nd draw': 'Second Draw',
  '3rd draw': 'Third Draw',
};

/** `pair of aces: A-A-Q-10-3`, or `HI: …; LO: …` in high/low games (R-RESULTS). */
function describeShown(record: HandRecord, seat: number): string | null {
  const h = record.seats.find((s) => s.seat === seat)?.hand;
  if (!h || !h.high) return null;
  return h.low !== null || VARIANTS[record.variant].evaluation === 'high-low8' ? `HI: ${h.high.labelEn}; LO: ${h.low?.labelEn ?? 'none'}` : h.high.labelEn;
}

/** One hand as PokerStars-style text (no trailing blank line). */
export function pokerstarsText(hand: ExchangeHand): string {
  const record = canonicalRecord(hand.record);
  const v = VARIANTS[record.variant];
  const boardGame = v.family === 'holdem' || v.family === 'omaha';
  const name = new Map(record.seats.map((s) => [s.seat, s.player]));
  const who = (seat: number) => name.get(seat) ?? `seat ${seat + 1}`;
  const out: string[] = [];
  const button = record.button !== null ? ` Seat #${record.button + 1} is the button` : '';
  const t = hand.meta.tournament;
  if (t !== undefined) {
    // A tournament hand as PokerStars writes one (the forms in pokerstars-tournament.ts):
    // the tournament's number and entry, the level, Paris time; the table named `T n`; no play-money
    // marker on the table line (the entry's form says it). Chips are written as in cash hands.
    const money = tournamentMoney(t, hand.meta.money);
    out.push(`PokerStars Hand #${handNumber(record)}: ${tournamentHeadText(t, money)} ${POKERSTARS_GAMES[record.variant]} - Level ${roman(t.level + 1)} (${stakesText(record.rules)}) - ${parisDateText(hand.meta.endedAt ?? 0)}`);
    out.push(`Table '${tournamentTableName(t, hand.meta.tableName)}' ${record.tableSize}-max${button}`);
  } else {
    out.push(`PokerStars Hand #${handNumber(record)}: ${POKERSTARS_GAMES[record.variant]} (${stakesText(record.rules)}) - ${dateText(hand.meta.endedAt ?? 0)}`);
    // Play chips carry PokerStars' own marker, so that reading them back never makes them euros.
    const playMoney = hand.meta.money === 'play' ? ' (Play Money)' : '';
    out.push(`Table '${hand.meta.tableName ?? 'Cercle'}' ${record.tableSize}-max${playMoney}${button}`);
  }
  for (const s of record.seats) out.push(`Seat ${s.seat + 1}: ${s.player} (${s.stackBefore} in chips)${s.dealtIn ? '' : ' is sitting out'}`);

  // Posts: a seat's extra big blind and dead small blind on one line, as PokerStars writes them.
  const posts = record.actions.filter((e): e is Extract<LogEntry, { kind: 'post' }> => e.kind === 'post');
  const deadBy = new Map(posts.filter((p) => p.post === 'dead small blind').map((p) => [p.seat, p]));
  const allIn = (b: boolean) => (b ? ' and is all-in' : '');
  for (const p of posts) {
    if (p.post === 'dead small blind') continue;
    const dead = p.post === 'big blind' ? deadBy.get(p.seat) : undefined;
    if (dead) {
      out.push(`${who(p.seat)}: posts small & big blinds ${p.amount + dead.amount}${allIn(dead.allIn)}`);
      deadBy.delete(p.seat);
    } else out.push(`${who(p.seat)}: posts ${p.post === 'ante' ? 'the ante' : p.post} ${p.amount}${allIn(p.allIn)}`);
  }
  for (const dead of deadBy.values()) out.push(`${who(dead.seat)}: posts small & big blinds ${dead.amount}${allIn(dead.allIn)}`);

  const known = new Map<number, Card[]>();
  const board: Card[] = [];
  let round: string = 'bet';
  let level = 0;
  const bets = new Map<number, number>();
  for (const p of posts) if (p.post === 'small blind' || p.post === 'big blind') bets.set(p.seat, (bets.get(p.seat) ?? 0) + p.amount);
  if (v.forcedBets === 'blinds') level = record.rules.bigBlind;
  let showdownWritten = false;
  const actions = record.actions;
  for (let i = 0; i < actions.length; i++) {
    const e = actions[i];
    if (e.kind === 'post') continue;
    if (e.round !== round) {
      const wasBet = round === 'bet';
      round = e.round;
      if (!wasBet && round !== 'reveal') {
        level = 0;
        bets.clear();
      }
      const header = STREET_HEADER[round];
      if (header !== undefined && !(round === 'reveal' && showdownWritten)) {
        if (boardGame && (round === 'flop' || round === 'turn' || round === 'river')) {
          const now: Card[] = [];
          for (let k = i; k < actions.length && actions[k].round === round; k++) {
            const d = actions[k];
            if (d.kind === 'deal' && d.seat === null) now.push(...(d.cards as Card[]));
          }
          out.push(`*** ${header} ***${board.length > 0 ? ` [${cardsText(board)}]` : ''} [${cardsText(now)}]`);
          board.push(...now);
        } else out.push(`*** ${header} ***`);
        if (round === 'reveal') showdownWritten = true;
      }
    }
    const p = 'seat' in e && e.seat !== null ? who(e.seat) : '';
    switch (e.kind) {
      case 'deal': {
        if (e.seat === null) break;
        const have = known.get(e.seat) ?? [];
        const fresh = e.cards.filter((c): c is Card => c !== null);
        if (fresh.length > 0) out.push(`Dealt to ${p} ${have.length > 0 ? `[${cardsText(have)}] ` : ''}[${cardsText(fresh)}]`);
        known.set(e.seat, [...have, ...fresh]);
        break;
      }
      case 'discard': {
        const n = e.cards.length;
        const shown = e.cards.filter((c): c is Card => c !== null);
        if (n === 0) out.push(`${p}: stands pat`);
        else out.push(`${p}: discards ${n} card${n === 1 ? '' : 's'}${shown.length > 0 ? ` [${cardsText(shown)}]` : ''}`);
        known.set(
          e.seat,
          (known.get(e.seat) ?? []).filter((c) => !shown.includes(c)),
        );
        break;
      }
      case 'bring-in':
        out.push(`${p}: brings in for ${e.amount}${allIn(e.allIn)}`);
        bets.set(e.seat, (bets.get(e.seat) ?? 0) + e.amount);
        level = Math.max(level, bets.get(e.seat)!);
        break;
      case 'fold':
        out.push(`${p}: folds`);
        break;
      case 'check':
        out.push(`${p}: checks`);
        break;
      case 'call':
        out.push(`${p}: calls ${e.amount}${allIn(e.allIn)}`);
        bets.set(e.seat, (bets.get(e.seat) ?? 0) + e.amount);
        break;
      case 'bet':
        out.push(`${p}: bets ${e.amount}${allIn(e.allIn)}`);
        bets.set(e.seat, e.to);
        level = Math.max(level, e.to);
        break;
      case 'raise':
        out.push(`${p}: raises ${e.to - level} to ${e.to}${allIn(e.allIn)}`);
        bets.set(e.seat, e.to);
        level = Math.max(level, e.to);
        break;
      case 'complete':
        out.push(`${p}: completes it to ${e.to}${allIn(e.allIn)}`);
        bets.set(e.seat, e.to);
        level = Math.max(level, e.to);
        break;
      case 'return':
        out.push(`Uncalled bet (${e.amount}) returned to ${p}`);
        break;
      case 'show': {
        const desc = describeShown(record, e.seat);
        out.push(`${p}: shows [${cardsText(e.cards)}]${desc ? ` (${desc})` : ''}`);
        break;
      }
      case 'muck':
        out.push(`${p}: mucks hand`);
        break;
      default:
        break; // reshuffle: PokerStars text has no line for it
    }
  }
  // Winnings: the last side pot first (T 8-14), one line per share (each half of a high/low split).
  const multi = record.pots.length > 1;
  for (let k = record.pots.length - 1; k >= 0; k--) {
    const pot = record.pots[k];
    const potName = !multi ? 'pot' : k === 0 ? 'main pot' : `side pot-${k}`;
    for (const s of pot.shares) if (s.amount > 0) out.push(`${who(s.seat)} collected ${s.amount} from ${potName}`);
  }
  out.push('*** SUMMARY ***');
  const total = record.pots.reduce((t, p) => t + p.amount, 0);
  const detail = multi ? ` Main pot ${record.pots[0].amount}.${record.pots
    .slice(1)
    .map((p, k) => ` Side pot-${k + 1} ${p.amount}.`)
    .join('')}` : '';
  out.push(`Total pot ${total}${detail} | Rake ${record.rake}`);
  if (record.board.length > 0) out.push(`Board [${cardsText(record.board)}]`);
  const foldRound = new Map<number, string>();
  for (const e of record.actions) if (e.kind === 'fold') foldRound.set(e.seat, e.round);
  for (const s of record.seats) {
    const tags = `${s.seat === record.button ? ' (button)' : ''}${s.seat === record.smallBlind ? ' (small blind)' : ''}${s.seat === record.bigBlind ? ' (big blind)' : ''}`;
    let what: string;
    if (!s.dealtIn) what = 'sitting out';
    else if (s.folded) {
      const at = foldRound.get(s.seat);
      const where = at === undefined || at === v.rounds[1] ? `before ${FOLD_STREET[v.rounds[2]]}` : `on the ${FOLD_STREET[at]}`;
      what = `folded ${where}${s.committed === 0 ? " (didn't bet)" : ''}`;
    } else if (s.shown) {
      const desc = describeShown(record, s.seat);
      what = `showed [${cardsText(s.cards)}] and ${s.won > 0 ? `won (${s.won})` : 'lost'}${desc ? ` with ${desc}` : ''}`;
    }
    else if (s.mucked) what = 'mucked';
    else what = s.won > 0 ? `collected (${s.won})` : 'lost';
    out.push(`Seat ${s.seat + 1}: ${s.player}${tags} ${what}`);
  }
  return out.join('\n');
}

/** Hands as PokerStars-style text, separated by two blank lines. */
export function writePokerstars(hands: readonly ExchangeHand[]): string {
  return hands.map(pokerstarsText).join('\n\n\n') + (hands.length > 0 ? '\n' : '');
}

// ---------------------------------------------------------------------------------------------
// Reading

const HEADER = /^PokerStars Hand #(\d{1,16}): +(.+?) +\((\d+)\/(\d+)\) - (\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d\d:\d\d(?: [A-Z]{2,4})?)(?: \[(.*)\])?$/;
const TABLE = /^Table '(.*)' (\d+)-max( \(Play Money\))?(?: Seat #(\d+) is the button)?$/;
/** A tournament's seat line may add the player's bounty (`1500 in chips, €2.50 bounty`): passed over. */
const SEAT = /^Seat (\d+): (.+) \((\d+) in chips(?:, [^()]* bounty)?\)( is sitting out)?$/;

function parseCardList(text: string): (Card | null)[] | null {
  const parts = text.trim().split(/\s+/).filter((p) => p !== '');
  const out: (Card | null)[] = [];
  for (const p of parts) {
    const c = cardFromText(p);
    if (c === null) return null;
    out.push(c);
  }
  return out;
}

export interface HandText {
  lines: { text: string; line: number }[];
}

/** Splits a text into hands: each starts at a `PokerStars Hand #` line. */
function splitHands(text: string): HandText[] | Fail {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const hands: HandText[] = [];
  lines.forEach((raw, k) => {
    const t = raw.trimEnd();
    if (t.startsWith('PokerStars Hand #')) hands.push({ lines: [] });
    if (t === '') return;
    if (hands.length === 0) hands.push({ lines: [] });
    hands[hands.length - 1].lines.push({ text: t, line: k + 1 });
  });
  for (const h of hands) if (!h.lines[0].text.startsWith('PokerStars Hand #')) return fail(h.lines[0].line, 'expected a "PokerStars Hand #" line');
  return hands;
}

/** `implicitUncalled`: older site files return an uncalled bet without a line; `collectedWithReturns`: Winamax's way. */
export function readPokerstarsHand(h: HandText, o: { implicitUncalled?: boolean; collectedWithReturns?: boolean } = {}): { ok: true; hand: ExchangeHand } | Fail {
  const L = h.lines;
  // A tournament hand: its own header, read whole or refused with its line.
  const tournamentHead = /^PokerStars Hand #\d+: +Tournament #/.test(L[0].text) ? readTournamentHeader(L[0].text, L[0].line) : null;
  if (tournamentHead !== null && 'ok' in tournamentHead) return tournamentHead;
  let head: { hand: string; game: string; x1: number; x2: number; endedAt: number };
  if (tournamentHead !== null) head = tournamentHead;
  else {
    const m = HEADER.exec(L[0].text);
    if (!m) return fail(L[0].line, 'the hand header is not "PokerStars Hand #n: <game> (a/b) - YYYY/MM/DD hh:mm:ss"');
    const at = readDate(m[5], m[6]);
    if (typeof at === 'string') return fail(L[0].line, at);
    head = { hand: m[1], game: m[2], x1: Number(m[3]), x2: Number(m[4]), endedAt: at };
  }
  const variant = GAME_OF.get(head.game);
  if (variant === undefined) return fail(L[0].line, `'${head.game}' is not a game of the decree`);
  const v = VARIANTS[variant];
  const { x1, x2, endedAt } = head;
  if (L.length < 2) return fail(L[0].line, 'the hand ends after its header');
  const table = TABLE.exec(L[1].text);
  if (!table) return fail(L[1].line, "expected \"Table '<name>' <n>-max [Seat #<b> is the button]\"");
  const tableSize = Number(table[2]);
  if (tableSize < 2 || tableSize > v.maxSeats) return fail(L[1].line, `${tableSize}-max: ${variant} is played 2 to ${v.maxSeats} to a table (R-SEATS)`);
  const button = table[4] !== undefined ? Number(table[4]) - 1 : null;
  if (button !== null && (button < 0 || button >= tableSize)) return fail(L[1].line, `the button seat ${button + 1} is not at the table`);
  if ((button === null) !== (v.forcedBets === 'ante-bring-in')) return fail(L[1].line, v.forcedBets === 'blinds' ? 'a blinds game needs a button' : 'Stud has no button');

  const seats: { seat: number; player: string; stack: number; out: boolean }[] = [];
  let i = 2;
  for (; i < L.length; i++) {
    const m = SEAT.exec(L[i].text);
    if (!m) break;
    const seat = Number(m[1]) - 1;
    if (seat < 0 || seat >= tableSize) return fail(L[i].line, `seat ${seat + 1} is not at a ${tableSize}-max table`);
    if (seats.some((s) => s.seat === seat)) return fail(L[i].line, `seat ${seat + 1} is listed twice`);
    if (seats.some((s) => s.player === m[2])) return fail(L[i].line, `player '${m[2]}' is seated twice`);
    seats.push({ seat, player: m[2], stack: Number(m[3]), out: m[4] !== undefined });
  }
  if (seats.filter((s) => !s.out).length < 2) return fail(L[Math.min(i, L.length - 1)].line, 'fewer than two players are dealt in');
  // Longest names first, so that "Bob: x" is not read as player "Bo" saying "b: x".
  const byName = [...seats].sort((a, b) => b.player.length - a.player.length);
  const seatOfName = (name: string) => seats.find((s) => s.player === name)?.seat;
  const speaker = (t: string): { seat: number; rest: string } | null => {
    for (const s of byName) if (t.startsWith(s.player + ': ')) return { seat: s.seat, rest: t.slice(s.player.length + 2) };
    return null;
  };

  const steps: Step[] = [];
  const posts: { seat: number; kind: 'ante' | 'small blind' | 'big blind' | 'both'; amount: number; allIn: boolean; line: number }[] = [];
  const collected = new Map<number, number>();
  let rake: number | null = null;
  let totalPot: number | null = null;
  let summaryLine = -1;
  const returns: { seat: number; amount: number; line: number }[] = [];
  const boardSoFar: (Card | null)[] = [];
  let bring: number | null = null;
  let bringAllIn = false;
  let firstCall: number | null = null;
  let raised = false;
  let round: RoundName = 'bet';
  for (; i < L.length; i++) {
    const { text, line } = L[i];
    if (text === '*** SUMMARY ***') {
      summaryLine = line;
      i++;
      break;
    }
    const hdr = /^\*\*\* (.+?) \*\*\*(.*)$/.exec(text);
    if (hdr) {
      const r = v.rounds.find((x) => STREET_HEADER[x] === hdr[1]);
      if (r === undefined) return fail(line, `unknown section '*** ${hdr[1]} ***' in ${POKERSTARS_GAMES[variant]}`);
      round = r;
      if ((v.family === 'holdem' || v.family === 'omaha') && ['FLOP', 'TURN', 'RIVER'].includes(hdr[1])) {
        const groups = [...hdr[2].matchAll(/\[([^\]]*)\]/g)];
        const cards = groups.length ? parseCardList(groups[groups.length - 1][1]) : null;
        if (cards === null || cards.length === 0) return fail(line, `the ${hdr[1].toLowerCase()} cards cannot be read`);
        const before = groups.length > 1 ? parseCardList(groups[0][1]) : [];
        if (before === null || before.join() !== boardSoFar.join()) return fail(line, 'the board so far differs from the cards dealt before');
        boardSoFar.push(...cards);
        steps.push({ k: 'deal', seat: null, cards, line, round });
      }
      continue;
    }
    const dealt = /^Dealt to (.+?) ((?:\[[^\]]*\] )?)\[([^\]]*)\]$/.exec(text);
    if (dealt) {
      const seat = seatOfName(dealt[1]);
      const cards = parseCardList(dealt[3]);
      if (seat === undefined) return fail(line, `'${dealt[1]}' is not seated`);
      if (cards === null) return fail(line, 'the cards cannot be read');
      steps.push({ k: 'deal', seat, cards, line, round });
      continue;
    }
    const unc = /^Uncalled bet \((\d+)\) returned to (.+)$/.exec(text);
    if (unc) {
      const seat = seatOfName(unc[2]);
      if (seat === undefined) return fail(line, `'${unc[2]}' is not seated`);
      returns.push({ seat, amount: Number(unc[1]), line }); // the engine returns it (R-UNCALLED); checked after
      continue;
    }
    // A tournament's note on who went out (`p3 finished the tournament in 8th place`): the hand says it already.
    if (tournamentHead !== null && TOURNAMENT_NOTE.test(text) && seats.some((s) => text.startsWith(`${s.player} `))) continue;
    const col = /^(.+) collected (\d+) from (pot|main pot|side pot-\d+)$/.exec(text);
    if (col) {
      const seat = seatOfName(col[1]);
      if (seat === undefined) return fail(line, `'${col[1]}' is not seated`);
      collected.set(seat, (collected.get(seat) ?? 0) + Number(col[2]));
      continue;
    }
    const sp = speaker(text);
    if (sp === null) return fail(line, `unexpected line '${text}'`);
    const { seat } = sp;
    const allInTail = / and is all-in$/.test(sp.rest);
    const rest = sp.rest.replace(/ and is all-in$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^posts (the ante|small blind|big blind|small & big blinds) (\d+)$/.exec(rest))) {
      const kind = m[1] === 'the ante' ? 'ante' : m[1] === 'small & big blinds' ? 'both' : (m[1] as 'small blind' | 'big blind');
      posts.push({ seat, kind, amount: Number(m[2]), allIn: allInTail, line });
    } else if (rest === 'folds') steps.push({ k: 'fold', seat, line });
    else if (rest === 'checks') steps.push({ k: 'check', seat, line });
    else if ((m = /^calls (\d+)$/.exec(rest))) {
      // After a bring-in posted all-in for less, the first call shows the bring-in's size.
      if (bringAllIn && firstCall === null && !raised) firstCall = Number(m[1]);
      steps.push({ k: 'call', seat, said: Number(m[1]), line });
    }
    else if ((m = /^bets (\d+)$/.exec(rest))) steps.push({ k: 'add', seat, amount: Number(m[1]), line });
    else if ((m = /^(?:raises \d+ to|completes it to) (\d+)$/.exec(rest))) {
      raised = true;
      steps.push({ k: 'bet', seat, to: Number(m[1]), line });
    } else if ((m = /^brings in for (\d+)$/.exec(rest))) {
      bring = Number(m[1]);
      bringAllIn = allInTail;
      steps.push({ k: 'bringIn', seat, said: bring, line });
    } else if (rest === 'stands pat') steps.push({ k: 'draw', seat, discards: [], line, round });
    else if ((m = /^discards (\d+) cards?(?: \[([^\]]*)\])?$/.exec(rest))) {
      const n = Number(m[1]);
      // The cards listed are the known ones; the others were not seen.
      const listed = m[2] !== undefined ? parseCardList(m[2]) : [];
      if (listed === null || listed.length > n) return fail(line, 'the discarded cards cannot be read');
      const cards = [...listed, ...Array.from({ length: n - listed.length }, () => null)];
      steps.push({ k: 'draw', seat, discards: cards, line, round });
    } else if ((m = /^shows \[([^\]]*)\](?: \(.*\))?$/.exec(rest))) {
      const cards = parseCardList(m[1]);
      if (cards === null) return fail(line, 'the cards shown cannot be read');
      steps.push({ k: 'show', seat, cards, line });
    } else if (rest === 'mucks hand' || rest === "doesn't show hand") steps.push({ k: 'muck', seat, line });
    else return fail(line, `unexpected action '${rest}'`);
  }
  if (summaryLine < 0) return fail(L[L.length - 1].line, 'the hand has no *** SUMMARY *** (a partial hand)');
  let boardSaid: { cards: (Card | null)[]; line: number } | null = null;
  let m2: RegExpExecArray | null;
  for (; i < L.length; i++) {
    const { text, line } = L[i];
    const t = /^Total pot (\d+)((?: Main pot \d+\.)?(?: Side pot(?:-\d+)? \d+\.)*) \| Rake (\d+)$/.exec(text);
    if (t) {
      totalPot = Number(t[1]);
      rake = Number(t[3]);
      const parts = [...t[2].matchAll(/(\d+)\./g)].map((x) => Number(x[1]));
      // The site's older files give the pots after the rake, the newer ones before it.
      const sum = parts.reduce((a, b) => a + b, 0);
      if (parts.length > 0 && sum !== totalPot && sum !== totalPot - rake) return fail(line, 'the pots do not add up to the total pot');
    } else if (text.startsWith('Board [')) {
      const cards = parseCardList(text.slice(7, text.endsWith(']') ? -1 : undefined));
      if (cards === null) return fail(line, 'the board cannot be read');
      boardSaid = { cards, line };
    } else if ((m2 = /^Seat (\d+): (.+?) (?:\(|folded|showed|mucked|collected|lost|sitting out)/.exec(text))) {
      const s = seats.find((x) => x.seat === Number(m2![1]) - 1);
      if (!s || !text.startsWith(`Seat ${m2[1]}: ${s.player} `)) return fail(line, `seat ${m2[1]} is not ${m2[2]}'s`);
    } else return fail(line, `unexpected summary line '${text}'`);
  }
  if (totalPot === null || rake === null) return fail(summaryLine, 'the summary has no "Total pot … | Rake …" line');
  const won = [...collected.values()].reduce((a, b) => a + b, 0);
  if (won + rake !== totalPot) return fail(summaryLine, `collected ${won} + rake ${rake} do not make the total pot ${totalPot}`);

  // The table the text implies: blinds and antes from the posts, the stakes from the header.
  const fullAmounts = (kind: string) => posts.filter((p) => p.kind === kind && !p.allIn).map((p) => p.amount);
  const bigs = posts.filter((p) => p.kind === 'big blind' || p.kind === 'both');
  const sbPost = posts.find((p) => p.kind === 'small blind');
  const limit = v.betting === 'limit';
  const bbAmount = limit ? x1 : x2;
  const deadAmounts = posts.filter((p) => p.kind === 'both' && !p.allIn).map((p) => p.amount - bbAmount);
  // Limit headers print the bets, not the small blind: the one posted in full, else at least what a
  // short stack posted and half the big blind.
  const sbAmount = limit ? (fullAmounts('small blind')[0] ?? deadAmounts[0] ?? Math.max(Math.floor(bbAmount / 2), sbPost?.amount ?? 0)) : x1;
  const antes = posts.filter((p) => p.kind === 'ante');
  const ante = Math.max(0, ...antes.map((p) => p.amount));
  const dealt = seats.filter((s) => !s.out).map((s) => s.seat);
  const order = dealtInOrder(dealt, button);
  // A blind seat whose ante took its whole stack posts no blind: it is found by position.
  const anteAllIn = (seat: number | undefined) => seat !== undefined && antes.some((p) => p.seat === seat && p.allIn);
  const heads = order.length === 2;
  let smallBlind: number | null = sbPost?.seat ?? null;
  if (smallBlind === null && v.forcedBets === 'blinds') {
    const guess = heads ? button! : order[0];
    if (anteAllIn(guess)) smallBlind = guess;
  }
  let bigBlind: number | null = v.forcedBets === 'blinds' ? (bigs.find((p) => p.kind === 'big blind')?.seat ?? null) : null;
  if (v.forcedBets === 'blinds' && bigBlind === null) {
    const guess = heads ? order.find((s) => s !== button) : order[1];
    if (anteAllIn(guess)) bigBlind = guess!;
  }
  if (v.forcedBets === 'blinds' && bigBlind === null) return fail(L[1].line, 'no big blind is posted');
  const bbAnte = v.forcedBets === 'blinds' && antes.length === 1 && dealt.length >= 2 && antes[0].seat === bigBlind;
  const stakes = v.forcedBets === 'ante-bring-in' ? { ante, bringIn: (bringAllIn ? (firstCall ?? bring) : bring) ?? Math.max(1, Math.floor(x1 / 2)), smallBet: x1, bigBet: x2 } : { smallBlind: sbAmount, bigBlind: bbAmount, ante, ...(limit ? { smallBet: x1, bigBet: x2 } : {}) };
  const base = makeTableRules(variant, stakes, { cap: null, rake: exactRake(rake), ...(bbAnte ? { anteBy: 'big-blind' as const } : {}) });
  const extra = bigs.filter((p) => p.seat !== bigBlind || p.kind === 'both').map((p) => p.seat);
  const config = {
    rules: base,
    seats: Array.from({ length: tableSize }, (_, s) => {
      const x = seats.find((y) => y.seat === s);
      return x ? { player: x.player, stack: x.stack } : null;
    }),
    plan: {
      button,
      smallBlind,
      bigBlind,
      extraBigBlinds: extra.filter((s) => s !== bigBlind),
      deadSmallBlinds: posts.filter((p) => p.kind === 'both').map((p) => p.seat),
      dealtIn: order,
    },
    handId: head.hand,
  };
  for (const p of posts) if (!dealt.includes(p.seat)) return fail(p.line, 'a player sitting out posts');
  const alternatives: Partial<TableRules>[] = [{}, { minRaise: 'double' }];
  if (variant === '2T7TD') alternatives.push({ lowball27: 'international' }, { lowball27: 'international', minRaise: 'double' });
  // A bring-in posted all-in for less and never called: it may have been a full small bet.
  if (bringAllIn && base.bringIn !== x1) alternatives.push({ bringIn: x1 });
  // No bring-in written (the first to act completed, maybe all-in for less than the guess): the smallest.
  if (v.forcedBets === 'ante-bring-in' && bring === null) alternatives.push({ bringIn: 1 });
  let first: Fail | null = null;
  for (const alt of alternatives) {
    const r = drive({ ...config, rules: { ...base, ...alt } }, steps, { lastLine: summaryLine, unknownFill: true });
    let problem: Fail | null = r.ok ? postsMismatch(r.record, posts, steps[0]?.line ?? summaryLine) : r;
    if (r.ok && problem === null) {
      const said = returns.map((x) => `${x.seat}:${x.amount}`);
      const done = r.record.uncalled.map((x) => `${x.seat}:${x.amount}`);
      const k = said.findIndex((x, j) => x !== done[j]);
      if (k >= 0) problem = fail(returns[k].line, `the hand returns ${done[k] === undefined ? 'nothing more' : `${done[k].split(':')[1]} to seat ${Number(done[k].split(':')[0]) + 1}`} here`);
      else if (done.length > said.length && !o.implicitUncalled) problem = fail(summaryLine, `${done.length - said.length} uncalled bet(s) returned by the hand are not in the file`);
    }
    if (r.ok && problem === null && boardSaid !== null && boardSaid.cards.join() !== r.record.board.join()) problem = fail(boardSaid.line, 'the board differs from the cards dealt');
    if (r.ok && problem === null) {
      for (const s of r.record.seats) {
        // Winamax counts a player's uncalled bet in what they collect (winamax.ts).
        const back = o.collectedWithReturns ? r.record.uncalled.filter((x) => x.seat === s.seat).reduce((a, x) => a + x.amount, 0) : 0;
        if ((collected.get(s.seat) ?? 0) !== s.won + back) {
          problem = fail(summaryLine, `${s.player} collects ${collected.get(s.seat) ?? 0} but the hand played gives ${s.won + back}`);
          break;
        }
      }
    }
    if (problem === null && r.ok) {
      // A tournament's money is its entry's (no play-money marker on its table line).
      const money = tournamentHead !== null ? tournamentHead.money : table[3] !== undefined ? 'play' : 'real';
      return { ok: true, hand: { record: r.record, meta: { tableName: table[1], endedAt, money, ...(tournamentHead !== null ? { tournament: tournamentHead.tournament } : {}) } } };
    }
    first ??= problem;
  }
  return first!;
}

/** Reads every hand of a PokerStars-style text; nothing when any of them is wrong. */
export function readPokerstars(text: string): ImportResult {
  const split = splitHands(text);
  if (!Array.isArray(split)) return split;
  const hands: ExchangeHand[] = [];
  for (const h of split) {
    const r = readPokerstarsHand(h);
    if (!r.ok) return r;
    hands.push(r.hand);
  }
  return { ok: true, hands };
}

/** Rules fields the text carries (the rest is documented as lost; docs/exchange.md). */
export function pokerstarsCarriedRules(r: HandRecord): Partial<TableRules> {
  const v = VARIANTS[r.variant];
  return v.betting === 'limit'
    ? { variant: r.variant, structure: r.rules.structure, smallBet: r.rules.smallBet, bigBet: r.rules.bigBet }
    : { variant: r.variant, structure: r.rules.structure, smallBlind: r.rules.smallBlind, bigBlind: r.rules.bigBlind };
}
