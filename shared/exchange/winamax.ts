/**
 * Winamax hand histories as the Winamax client writes them (docs/exchange.md "Site files"): cash
 * games (`Winamax Poker - CashGame - HandId: #… - Holdem no limit (0.50€/1€) - … UTC`), tournaments,
 * Expresso and Go Fast, real and play money, names with spaces, blinds posted `out of position`.
 * Each hand is brought to the plain dialect pokerstars.ts reads and played through the rules engine
 * there, then given back its Winamax id and table name. Winamax writes no `Uncalled bet` line: a
 * player's uncalled bet is in what they `collected`, and the check counts it so (pokerstars.ts).
 */
import type { VariantCode } from '../rules/variants';
import { POKERSTARS_GAMES, readPokerstarsHand } from './pokerstars';
import { roman } from './pokerstars-tournament';
import { handOverLimits, refusal, refusalOfFail, siteUnits, type SiteChunk, type SiteHandResult } from './site';

/** Winamax's game names, as its files have them over the years. */
const GAMES: Readonly<Record<string, VariantCode>> = {
  'Holdem no limit': 'THNL',
  'Holdem pot limit': 'THPL',
  'Holdem fixed limit': 'THL',
  'Omaha pot limit': 'O4HPL',
  'Omaha Hi/Lo pot limit': 'O4JPL',
  'Omaha8 pot limit': 'O4JPL',
  'Omaha Hi/Lo fixed limit': 'O4JL',
  'Omaha5 pot limit': 'O5HPL',
  '5 Card Omaha pot limit': 'O5HPL',
  '7-Card Stud fixed limit': '7SHL',
  '7stud fixed limit': '7SHL',
  '7-Card Stud Hi/Lo fixed limit': '7SJL',
  'Razz fixed limit': '7SLL',
  '2-7 Triple Draw fixed limit': '2T7TD',
  'Lowball27 fixed limit': '2T7TD',
};

const HEAD = /^Winamax Poker - (.+?) - HandId: #(\S+) - (.+?) \(([^()]*)\) - (\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d) UTC$/;
const TOURNAMENT = /^(?:Tournament|Expresso|Sit&Go|Sit & Go) "(.*)" buyIn: (.+?) level: (\d+)$/;
const SEAT = /^Seat (\d+): (.+) \(([^()]*?)(?:, [^()]* bounty)?\)$/;
const STREETS: Readonly<Record<string, string | null>> = {
  'ANTE/BLINDS': null,
  'PRE-FLOP': 'HOLE CARDS',
  FLOP: 'FLOP',
  TURN: 'TURN',
  RIVER: 'RIVER',
  'SHOW DOWN': 'SHOW DOWN',
  '3rd STREET': '3rd STREET',
  '4th STREET': '4th STREET',
  '5th STREET': '5th STREET',
  '6th STREET': '6th STREET',
  '7th STREET': 'RIVER',
  'FIRST-BET': 'DEALING HANDS',
  'FIRST-DRAW': 'FIRST DRAW',
  'SECOND-DRAW': 'SECOND DRAW',
  'THIRD-DRAW': 'THIRD DRAW',
  'SECOND-BET': null,
  'THIRD-BET': null,
  'FOURTH-BET': null,
};

interface Head {
  id: string;
  variant: VariantCode;
  scale: 0 | 2;
  tournament: { id: string; name: string; entry: string; level: number } | null;
  text: (tableTournament: string | null) => string;
}

/** `0,90€ + 0,10€`, `0.93-0.07`, `Free`, `Gratuit`, `Ticket only` as the dialect's entry. */
function entryOf(text: string): string | null {
  if (/^(?:Free|Gratuit|Ticket only)$/i.test(text.trim())) return 'Freeroll';
  const m = /^([\d.,]+)\s*€?\s*[+-]\s*([\d.,]+)\s*€?$/.exec(text.trim());
  if (!m) return null;
  const a = siteUnits(m[1].replace(',', '.'), 2);
  const b = siteUnits(m[2].replace(',', '.'), 2);
  if (a === null || b === null) return null;
  const eur = (c: number) => `€${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  return `${eur(a)}+${eur(b)} EUR`;
}

function headOf(text: string): Head | { id: string | null; reason: string; game?: true } {
  const m = HEAD.exec(text);
  if (!m) return { id: null, reason: "the header is not 'Winamax Poker - <kind> - HandId: #<id> - <game> (<stakes>) - <date> UTC'" };
  const [, kind, id, game, stakes, date] = m;
  const variant = GAMES[game];
  if (variant === undefined) return { id, reason: `'${game}' is not a game of the decree`, game: true };
  const t = TOURNAMENT.exec(kind);
  // Go Fast is Winamax's fast-fold cash game: `Go Fast "<pool>"`.
  if (t === null && kind !== 'CashGame' && !/^Go Fast(?: ".*")?$/.test(kind)) return { id, reason: `'${kind}' is not a cash game or tournament Cercle reads` };
  const scale = t === null ? 2 : 0;
  const parts = stakes.split('/').map((x) => siteUnits(x.replace(',', '.').replace('€', ''), scale));
  if (parts.length < 2 || parts.length > 3 || parts.some((x) => x === null)) return { id, reason: `the stakes '${stakes}' are not <small>/<big> (or <ante>/<small>/<big>) in whole units` };
  const [x1, x2] = parts.slice(-2) as number[];
  const name = POKERSTARS_GAMES[variant];
  const when = `${date} UTC`;
  if (t === null) return { id, variant, scale, tournament: null, text: () => `PokerStars Hand #1: ${name} (${x1}/${x2}) - ${when}` };
  const entry = entryOf(t[2]);
  if (entry === null) return { id, reason: `the buy-in '${t[2]}' is not <buy-in> + <fee>` };
  const level = Number(t[3]);
  const tournament = { id: '', name: t[1], entry, level };
  return {
    id,
    variant,
    scale,
    tournament,
    text: (tid) => `PokerStars Hand #1: Tournament #${tid ?? '0'}, ${entry} ${name} - Level ${roman(level + 1)} (${x1}/${x2}) - ${when}`,
  };
}

/** The body's speakers: longest names first, so that "Bob Two folds" is Bob Two's. */
function speakerOf(names: readonly string[], text: string): { name: string; rest: string } | null {
  for (const n of names) if (text.startsWith(`${n} `)) return { name: n, rest: text.slice(n.length + 1) };
  return null;
}

/** One action of a player in the dialect, or null when it is not one Winamax writes. */
function actionOf(rest: string, units: (t: string) => number | null): string | null | { refuse: string } {
  const allIn = / and is all-in$/.test(rest) ? ' and is all-in' : '';
  const r = rest.replace(/ and is all-in$/, '');
  const amt = (t: string) => {
    const u = units(t);
    return u === null ? null : String(u);
  };
  let m: RegExpExecArray | null;
  if (r === 'folds' || r === 'checks') return r;
  if ((m = /^(calls|bets) (\S+)$/.exec(r))) return amt(m[2]) === null ? null : `${m[1]} ${amt(m[2])}${allIn}`;
  if ((m = /^raises (\S+) to (\S+)$/.exec(r))) return amt(m[1]) === null || amt(m[2]) === null ? null : `raises ${amt(m[1])} to ${amt(m[2])}${allIn}`;
  if ((m = /^(?:brings in|bring-in) (\S+)$/.exec(r))) return amt(m[1]) === null ? null : `brings in for ${amt(m[1])}${allIn}`;
  if ((m = /^posts ante (\S+)$/.exec(r))) return amt(m[1]) === null ? null : `posts the ante ${amt(m[1])}${allIn}`;
  if ((m = /^posts (small|big) blind (\S+)$/.exec(r))) return amt(m[2]) === null ? null : `posts ${m[1]} blind ${amt(m[2])}${allIn}`;
  if ((m = /^discards? (\d+) cards?(?: (\[[^\]]*\]))?$/.exec(r))) return m[1] === '0' ? 'stands pat' : `discards ${m[1]} card${m[1] === '1' ? '' : 's'}${m[2] !== undefined ? ` ${m[2]}` : ''}`;
  if (/^stands pat(?: \[[^\]]*\])?$/.test(r)) return 'stands pat';
  if ((m = /^shows (\[[^\]]*\])(?: \(.*\))?$/.exec(r))) return `shows ${m[1]}`;
  if (r === 'mucks hand' || r === "doesn't show hand") return r;
  return null;
}

/** Blinds posted `out of position` by one seat: a big blind alone is an extra one; both are a newcomer's blinds. */
function outOfPosition(posts: Map<string, { sb: number; bb: number; line: number }>): { refuse: string } | { lines: Map<number, string> } {
  const lines = new Map<number, string>();
  for (const [name, p] of posts) {
    if (p.sb > 0 && p.bb < 0) return { refuse: `${name} posts a dead small blind alone (out of position): the engine takes it only with a big blind` };
    lines.set(p.line, p.sb > 0 ? `${name}: posts small & big blinds ${p.sb + p.bb}` : `${name}: posts big blind ${p.bb}`);
  }
  return { lines };
}

/** One Winamax hand: read and played, or refused with its line and reason. */
export function readWinamaxHand(chunk: SiteChunk): SiteHandResult {
  const first = chunk.lines[0];
  const head = headOf(first.text);
  if (!('variant' in head)) return refusal(first.line, head.id, head.reason, head.game ? 'game' : 'format');
  const id = head.id;
  const units = (t: string) => siteUnits(t.replace('€', ''), head.scale);
  const table = /^Table: '(.*)' (\d+)-max \((real|play) money\)( Seat #\d+ is the button)?$/.exec(chunk.lines[1]?.text ?? '');
  if (!table) return refusal(chunk.lines[1]?.line ?? first.line, id, "expected \"Table: '<name>' <n>-max (real money) [Seat #<b> is the button]\"", 'format');
  const tid = /\((\d{1,16})\)#(\d+)$/.exec(table[1]);
  if (head.tournament && !tid) return refusal(chunk.lines[1].line, id, `the tournament table '${table[1]}' does not name its tournament '(<number>)#<table>'`, 'format');
  const out: { text: string; line: number }[] = [{ text: head.text(tid?.[1] ?? null), line: first.line }];
  const tableName = head.tournament ? `${tid![1]} ${Number(tid![2])}` : table[1];
  out.push({ text: `Table '${tableName}' ${table[2]}-max${table[3] === 'play' && !head.tournament ? ' (Play Money)' : ''}${table[4] ?? ''}`, line: chunk.lines[1].line });
  const names: string[] = [];
  let k = 2;
  for (; k < chunk.lines.length; k++) {
    const m = SEAT.exec(chunk.lines[k].text);
    if (!m) break;
    const u = units(m[3]);
    if (u === null) return refusal(chunk.lines[k].line, id, `the stack '${m[3]}' is not whole ${head.scale === 2 ? 'cents' : 'chips'}`, 'format');
    names.push(m[2]);
    out.push({ text: `Seat ${m[1]}: ${m[2]} (${u} in chips)`, line: chunk.lines[k].line });
  }
  names.sort((a, b) => b.length - a.length);
  const body = bodyOf(chunk, k, names, units);
  if ('refuse' in body) return refusal(body.line, id, body.refuse, body.kind ?? 'format');
  // Winamax lists seated players who sit this hand out without saying so: they post nothing and never act.
  const acts = (n: string) => body.lines.some((l) => l.text.startsWith(`${n}: `) || l.text.startsWith(`Dealt to ${n} `));
  for (let s = 2; s < out.length; s++) {
    const n = /^Seat \d+: (.+) \(\d+ in chips\)$/.exec(out[s].text)?.[1];
    if (n !== undefined && !acts(n)) out[s] = { ...out[s], text: `${out[s].text} is sitting out` };
  }
  out.push(...body.lines);
  const r = readPokerstarsHand({ lines: out }, { implicitUncalled: true, collectedWithReturns: true });
  if (!r.ok) return refusalOfFail(r, id);
  const hand = { record: { ...r.hand.record, handId: id }, meta: { ...r.hand.meta, tableName: table[1] } };
  if (hand.meta.tournament) hand.meta.tournament = { ...hand.meta.tournament, name: head.tournament!.name.slice(0, 60) || 'Winamax' };
  const over = handOverLimits(hand);
  if (over !== null) return refusal(first.line, id, over, 'limits');
  return { ok: true, line: first.line, handId: id, hand, currency: head.scale === 2 && table[3] === 'real' ? 'EUR' : null };
}

type Body = { lines: { text: string; line: number }[] } | { refuse: string; line: number; kind?: 'unsupported' | 'format' };

/** The lines after the seats, in the dialect. */
function bodyOf(chunk: SiteChunk, from: number, names: readonly string[], units: (t: string) => number | null): Body {
  const lines: { text: string; line: number }[] = [];
  const early: { text: string; line: number }[] = [];
  const oop = new Map<string, { sb: number; bb: number; line: number }>();
  let preflop = false;
  let summary = false;
  let collected = 0;
  let rake = 0;
  let totalLine: { said: number | null; line: number } | null = null;
  for (let k = from; k < chunk.lines.length; k++) {
    const { text, line } = chunk.lines[k];
    const street = /^\*\*\* (.+?) \*\*\*(.*)$/.exec(text);
    if (street && street[1] === 'SUMMARY') {
      summary = true;
      lines.push({ text, line });
      continue;
    }
    if (summary) {
      const t = /^Total pot (\S+?)(k?) \| (?:No rake|Rake (\S+))$/.exec(text);
      if (t) {
        rake = t[3] !== undefined ? (units(t[3]) ?? -1) : 0;
        if (rake < 0) return { refuse: `the rake '${t[3]}' is not whole units`, line };
        totalLine = { said: t[2] === 'k' ? null : units(t[1]), line };
      } else if (text.startsWith('Board: [')) lines.push({ text: `Board ${text.slice(7)}`, line });
      else if (!/^Seat \d+: /.test(text)) return { refuse: `unexpected summary line '${text}'`, line };
      continue;
    }
    if (street) {
      if (!(street[1] in STREETS)) return { refuse: `unknown section '*** ${street[1]} ***'`, line };
      const to = STREETS[street[1]];
      if (to !== null) lines.push({ text: `*** ${to} ***${street[2].replace(/\]\[/g, '] [')}`, line });
      if (street[1] === 'PRE-FLOP' || street[1] === 'FIRST-BET' || street[1] === '3rd STREET') {
        preflop = true;
        lines.push(...early.splice(0));
      }
      continue;
    }
    const dealt = /^Dealt to (.+?) (\[.*\])$/.exec(text);
    if (dealt) {
      // `X` stands for a card Winamax does not show: left out, as PokerStars leaves it out.
      const cards = dealt[2].replace(/\bX\b ?/g, '').replace(/ \]/g, ']').replace(/\[\] ?/g, '').trim();
      if (cards !== '') (preflop ? lines : early).push({ text: `Dealt to ${dealt[1]} ${cards}`, line });
      continue;
    }
    const sp = speakerOf(names, text);
    if (sp === null) return { refuse: `unexpected line '${text}'`, line };
    const col = /^collected (\S+) from (pot|main pot|side pot (\d+))(?: ?\((?:HI|LO)\))?$/.exec(sp.rest);
    if (col) {
      const u = units(col[1]);
      if (u === null) return { refuse: `the amount '${col[1]}' is not whole units`, line };
      collected += u;
      lines.push({ text: `${sp.name} collected ${u} from ${col[3] !== undefined ? `side pot-${col[3]}` : col[2]}`, line });
      continue;
    }
    if (/^(?:denies big blind|deny BB.*)$/.test(sp.rest)) continue; // sits out instead of posting: posts nothing
    const blind = /^posts (small|big) blind (\S+) out of position$/.exec(sp.rest);
    if (blind) {
      const u = units(blind[2]);
      if (u === null) return { refuse: `the amount '${blind[2]}' is not whole units`, line };
      const p = oop.get(sp.name) ?? { sb: 0, bb: -1, line };
      if (blind[1] === 'small') p.sb += u;
      else p.bb = Math.max(0, p.bb) + u;
      oop.set(sp.name, p);
      continue;
    }
    const a = actionOf(sp.rest, units);
    if (a === null) return { refuse: `unexpected action '${sp.rest}'`, line };
    if (typeof a !== 'string') return { refuse: a.refuse, line, kind: 'unsupported' };
    (preflop ? lines : early).push({ text: `${sp.name}: ${a}`, line });
  }
  const posted = outOfPosition(oop);
  if ('refuse' in posted) return { refuse: posted.refuse, line: [...oop.values()][0].line, kind: 'unsupported' };
  // The out-of-position blinds go with the other posts, before the cards.
  const extra = [...posted.lines].map(([line, text]) => ({ text, line }));
  lines.splice(0, 0, ...early);
  // After the table's own blinds: the first big blind posted is the big blind's seat (pokerstars.ts).
  let at = 0;
  lines.forEach((l, k) => {
    if (/^.+: posts /.test(l.text)) at = k + 1;
  });
  lines.splice(at, 0, ...extra);
  if (totalLine === null) return { refuse: 'the summary has no "Total pot … | Rake …" line', line: chunk.lines[chunk.lines.length - 1].line };
  // Winamax's total pot is what the players collected (their uncalled bets with it), the rake apart.
  if (totalLine.said !== null && totalLine.said !== collected) return { refuse: `collected ${collected} do not make the total pot ${totalLine.said}`, line: totalLine.line };
  lines.push({ text: `Total pot ${collected + rake} | Rake ${rake}`, line: totalLine.line });
  return { lines };
}

