/**
 * PokerStars hand histories as the PokerStars client writes them (docs/exchange.md "Site files"):
 * `PokerStars Hand #…` and the older `PokerStars Game #…`, Zoom, cash and tournament, amounts in
 * `$`, `€`, `£` (with or without a `USD`/`EUR`/`GBP` suffix), play money and tournament chips, the
 * English client. Each hand is brought to the plain dialect pokerstars.ts reads (amounts as integer
 * units, the lines that change no money left out on purpose) and played through the rules engine
 * there; its collected amounts, pots, rake and uncalled returns are checked against the hand played.
 * Forms checked against PokerStars' own files as trackers keep them (tests/fixtures/hand-histories).
 */
import { POKERSTARS_GAMES, readPokerstarsHand } from './pokerstars';
import { TOURNAMENT_HEADER } from './pokerstars-tournament';
import { VARIANTS, type VariantCode } from '../rules/variants';
import { handOverLimits, refusal, refusalOfFail, siteUnits, type SiteChunk, type SiteHandResult } from './site';

const GAME_OF = new Map<string, VariantCode>(Object.entries(POKERSTARS_GAMES).map(([k, v]) => [v, k as VariantCode]));

const HEAD = /^PokerStars (?:(Zoom|Home Game|FastPoker) )?(?:Hand|Game) #(\d{1,19}):\s+(.*)$/;
const CASH = /^(.+?) \(([^()]*)\) - (.+)$/;
const STAKES = /^([$€£]?)(\d[\d,]*(?:\.\d\d?)?)\/([$€£]?)(\d[\d,]*(?:\.\d\d?)?)(?: ([A-Z]{3}))?$/;
const DATE = /^(\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d\d:\d\d)(?: ([A-Z]{2,5}))?(?: \[(\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d\d:\d\d) ?([A-Z]{2,5})?\])?$/;
/** Zones pokerstars-tournament.ts knows; another zone (JST, MSK…) is read from the bracketed ET time. */
const ZONES = new Set(['UTC', 'GMT', 'CET', 'CEST', 'ET']);
const CURRENCY: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP' };

/**
 * Lines that change no money and no card, passed over on purpose: seats coming and going,
 * connections, chat, time-outs, bounties and rebuys (paid outside the pot: the tournament summary
 * says them), and the note of a player who may play after the button.
 */
const IGNORED: readonly RegExp[] = [
  / joins the table at seat #\d+$/,
  / leaves the table$/,
  / is (?:dis)?connected$/,
  / has returned$/,
  / has timed out(?: while (?:being )?disconnected)?$/,
  /:? (?:is )?sitting out$/,
  /: sits out$/,
  / will be allowed to play after the button$/,
  / was removed from the table for failing to post$/,
  / said, ".*"$/,
  / wins (?:the )?\S+ (?:bounty )?for eliminating .+$/,
  / wins \S+ for splitting the elimination of .+$/,
  / wins an entry to tournament #\d+$/,
  / (?:re-buys|takes the add-on) and receives .+$/,
  /^Betting is capped$/,
  // Stud: an open pair on 4th street allows a big bet; the bet itself is checked by the engine.
  /^Pair on board - a double bet is allowed$/,
];

/** What the site does that the engine does not model: the hand is refused, named. */
const UNSUPPORTED: readonly [RegExp, string][] = [
  [/^\*\*\* (?:FIRST|SECOND|THIRD) (?:FLOP|TURN|RIVER) \*\*\*/, 'the hand is run twice (the engine deals one board)'],
  [/^Hand was run twice$/, 'the hand is run twice (the engine deals one board)'],
  [/ cashed out the hand for /, 'an all-in cash-out pays a player outside the pot'],
  [/^Hand cancelled$/, 'the hand was cancelled by the site'],
  [/ and has reached the \S+ cap$/, 'a capped no-limit table (the engine has no such cap)'],
];

/** Each list as one pattern: every line of every hand is tested against them. */
const ANY_IGNORED = new RegExp(IGNORED.map((re) => `(?:${re.source})`).join('|'));
const ANY_UNSUPPORTED = new RegExp(UNSUPPORTED.map(([re]) => `(?:${re.source})`).join('|'));

/** Why the engine cannot play a line's hand, or null. */
function unsupported(text: string): string | null {
  if (!ANY_UNSUPPORTED.test(text)) return null;
  return UNSUPPORTED.find(([re]) => re.test(text))![1];
}

/** Cards a player holds in a board game: a show of fewer (one card shown after a fold) tells nothing. */
function holeCount(game: string): number {
  const v = GAME_OF.get(game);
  if (v === undefined) return 0;
  const d = VARIANTS[v];
  return d.family === 'stud' ? 0 : d.privateCards;
}

interface Head {
  text: string;
  tournament: boolean;
  currency: string | null;
  scale: 0 | 2;
  game: string;
}

/** A date as pokerstars-tournament.ts reads it: the local zone when known, else the bracketed ET. */
function dateOf(text: string): string | null {
  // Older files: `2007/10/15 - 05:34:03 (ET)`.
  const m = DATE.exec(text.trim().replace(/^(\d{4}\/\d\d?\/\d\d?) - (\d\d?:\d\d:\d\d) \(([A-Z]{2,5})\)$/, '$1 $2 $3'));
  if (!m) return null;
  const zone = m[2] ?? 'ET';
  if (ZONES.has(zone)) return `${m[1]} ${zone}${m[3] !== undefined ? ` [${m[3]} ${m[4] ?? 'ET'}]` : ''}`;
  if (m[3] !== undefined && ZONES.has(m[4] ?? 'ET')) return `${m[3]} ${m[4] ?? 'ET'}`;
  return null;
}

/** `$5.00+$0.50` (older files: no currency code) as `$5.00+$0.50 USD`. */
function entryWithCode(rest: string): string {
  return rest.replace(/^(Tournament #\d+, )([$€£])([\d.]+(?:\+[$€£][\d.]+)+)(?= (?!USD|EUR|GBP))/, (_, a: string, sign: string, b: string) => `${a}${sign}${b} ${CURRENCY[sign]}`);
}

function headOf(id: string, rest: string): Head | string {
  if (rest.startsWith('Tournament #')) {
    rest = entryWithCode(rest);
    const old = / - (\d{4}\/\d\d?\/\d\d?) - (\d\d?:\d\d:\d\d) \(([A-Z]{2,5})\)$/.exec(rest);
    if (old) rest = `${rest.slice(0, old.index)} - ${old[1]} ${old[2]} ${old[3]}`;
    const at = rest.lastIndexOf(' - ');
    const date = at < 0 ? null : dateOf(rest.slice(at + 3));
    if (date === null) return `the date of '${rest}' is not YYYY/MM/DD hh:mm:ss in a known zone`;
    const text = `PokerStars Hand #${id}: ${rest.slice(0, at)} - ${date}`;
    const game = TOURNAMENT_HEADER.exec(text)?.[4] ?? '';
    if (game !== '' && !GAME_OF.has(game)) return `'${game}' is not a game of the decree`;
    return { text, tournament: true, currency: null, scale: 0, game };
  }
  const m = CASH.exec(rest);
  if (!m) return "the header is not '<game> (<stakes>) - <date>'";
  let [game, stakes] = [m[1], m[2]];
  const mixed = /^([^,]+), (.+)$/.exec(stakes);
  if (mixed) [game, stakes] = [mixed[1], mixed[2]];
  if (!GAME_OF.has(game)) return `'${game}' is not a game of the decree`;
  const s = STAKES.exec(stakes);
  if (!s) return `the stakes '${stakes}' are not <small>/<big>`;
  const currency = s[5] ?? (s[1] !== '' ? CURRENCY[s[1]] : null);
  const scale = currency !== null ? 2 : 0;
  const a = siteUnits(s[2], scale);
  const b = siteUnits(s[4], scale);
  if (a === null || b === null) return `the stakes '${stakes}' are not whole ${scale === 2 ? 'cents' : 'chips'}`;
  const date = dateOf(m[3]);
  if (date === null) return `the date '${m[3]}' is not YYYY/MM/DD hh:mm:ss in a known zone`;
  return { text: `PokerStars Hand #${id}: ${game} (${a}/${b}) - ${date}`, tournament: false, currency, scale, game };
}

/** Amounts with a currency sign as integer cents (`$1.50` → `150`); null when one is not whole cents. */
function toCents(text: string): string | null {
  let bad = false;
  const out = text.replace(/[$€£](\d[\d,]*(?:\.\d+)?)(?: (?:USD|EUR|GBP))?/g, (_, n: string) => {
    const u = siteUnits(n, 2);
    if (u === null) bad = true;
    return String(u);
  });
  return bad ? null : out;
}

type LineOut = { keep: string } | { drop: true } | { refuse: string };

/** One line of the hand before its summary, in the dialect (or left out, or the hand's refusal). */
function bodyLine(text: string, head: Head, seats: boolean, settled: boolean): LineOut {
  if (!seats && ANY_IGNORED.test(text)) return { drop: true };
  // A pot won without a showdown: what the winner then shows or keeps hidden changes nothing (T 8-6).
  if (settled && /: (?:doesn't show hand|mucks hand|shows \[.*)$/.test(text)) return { drop: true };
  if (/^The deck is reshuffled$|^No low hand qualified$/.test(text)) return { drop: true };
  let t = head.scale === 2 ? toCents(text) : text;
  if (t === null) return { refuse: `an amount is not whole cents: '${text}'` };
  if (seats) {
    // A seat out of this hand (`out of hand (moved from another table into small blind)`): not dealt in.
    t = t.replace(/^(Seat \d+: .+ \(\d+ in chips(?:, [^()]* bounty)?\)) (?!is sitting out$).+$/, '$1 is sitting out');
    // In a tournament a player sitting out is still dealt in: the site posts and folds for them.
    if (head.tournament) t = t.replace(/ is sitting out$/, '');
    return { keep: t };
  }
  t = t.replace(/^(.+): folds \[[^\]]*\]$/, '$1: folds').replace(/: stands pat on \[[^\]]*\]$/, ': stands pat').replace(/ from side pot$/, ' from side pot-1');
  const shown = /^.+: shows \[([^\]]*)\]/.exec(t);
  const hole = holeCount(head.game);
  if (shown && hole > 0 && shown[1].trim().split(/\s+/).length < hole) return { drop: true };
  return { keep: t };
}

/** One PokerStars hand: read and played, or refused with its line and reason. */
export function readStarsHand(chunk: SiteChunk): SiteHandResult {
  const first = chunk.lines[0];
  const m = HEAD.exec(first.text);
  if (!m) return refusal(first.line, null, 'the hand header is not "PokerStars Hand #<n>: …"', 'format');
  const id = m[2];
  if (m[1] === 'Home Game') return refusal(first.line, id, 'a Home Game hand (a private club) is not read', 'unsupported');
  // What the engine does not model is named first, whatever else the hand holds.
  for (const l of chunk.lines) {
    const why = unsupported(l.text);
    if (why !== null) return refusal(l.line, id, why, 'unsupported');
  }
  const head = headOf(id, m[3]);
  if (typeof head === 'string') return refusal(first.line, id, head, /not a game of the decree/.test(head) ? 'game' : 'format');
  const lines = [{ text: head.text, line: first.line }];
  const seating = seatingOf(chunk, head.game);
  if (typeof seating === 'string') return refusal(chunk.lines[1]?.line ?? first.line, id, seating, 'rules');
  let inSummary = false;
  let seatsOpen = true;
  let settled = false;
  let showdown = false;
  for (let k = 1; k < chunk.lines.length; k++) {
    const { text, line } = chunk.lines[k];
    if (text === '*** SUMMARY ***') inSummary = true;
    if (k >= 2 && !/^Seat \d+: /.test(text)) seatsOpen = false;
    const seats = k >= 2 && seatsOpen;
    if (text === '*** SHOW DOWN ***') showdown = true;
    if (!showdown && / collected \S+ from (?:side |main )?pot/.test(text)) settled = true;
    const out: LineOut = inSummary ? summaryLine(seating.seat(text), head) : k === 1 ? { keep: seating.table } : bodyLine(seating.seat(text), head, seats, settled);
    if ('refuse' in out) return refusal(line, id, out.refuse, 'unsupported');
    if ('keep' in out) lines.push({ text: out.keep, line });
  }
  const r = readPokerstarsHand({ lines }, { implicitUncalled: true });
  if (!r.ok) return refusalOfFail(r, id);
  const over = handOverLimits(r.hand);
  if (over !== null) return refusal(first.line, id, over, 'limits');
  return { ok: true, line: first.line, handId: id, hand: r.hand, currency: head.currency };
}

function summaryLine(text: string, head: Head): LineOut {
  const t = head.scale === 2 ? toCents(text) : text;
  return t === null ? { refuse: `an amount is not whole cents: '${text}'` } : { keep: t };
}

/**
 * The table as the engine seats it. A file without `<n>-max` (2005) is the game's largest table.
 * A Stud table of the site has 8 seats where the decree seats 7 (R-SEATS, D art. 2): with 7 players
 * or fewer the seats are numbered again in the same order (who acts after whom is unchanged).
 */
function seatingOf(chunk: SiteChunk, game: string): { table: string; seat: (t: string) => string } | string {
  const line = chunk.lines[1]?.text ?? '';
  const m = /^(Table '.*?')(?: (\d+)-max)?( .*)?$/.exec(line);
  const v = GAME_OF.get(game);
  if (!m || v === undefined) return { table: line, seat: (t) => t };
  const max = VARIANTS[v].maxSeats;
  const size = m[2] !== undefined ? Number(m[2]) : max;
  const same = { table: `${m[1]} ${size}-max${m[3] ?? ''}`, seat: (t: string) => t };
  if (size <= max || VARIANTS[v].family !== 'stud') return same;
  const taken: number[] = [];
  for (const l of chunk.lines.slice(2)) {
    const s = /^Seat (\d+): /.exec(l.text);
    if (!s) break;
    taken.push(Number(s[1]));
  }
  if (taken.length > max) return `${taken.length} players at a Stud table: the decree seats at most ${max} (R-SEATS)`;
  const to = new Map(taken.map((n, k) => [n, k + 1]));
  return { table: `${m[1]} ${max}-max${m[3] ?? ''}`, seat: (t) => t.replace(/^Seat (\d+): /, (x, n: string) => (to.has(Number(n)) ? `Seat ${to.get(Number(n))}: ` : x)) };
}
