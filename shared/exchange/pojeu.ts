/**
 * POJEU XML (ARJEL decision 2016-064, A 1.3.6.c.2 and d; example A 1.4.3.f): one `<POJEU>` per hand,
 * written from the POJEU model the operator's trace uses too (pojeu-model.ts): participants with Siege (seat
 * index + 1) and Finance (Net, Total, CaveAvant, CaveApres, Rake), rounds named as the record names
 * them (`bet`, `pre-flop`, … `reveal`), actions Bet, Draw, Check, Fold, Discard, Reveal. Amounts are
 * written with two decimals by default (integer units are cents). A client export is not a
 * regulatory event: IDOper is `0000`, IDCoffre `0`, IDEvt the PokerStars-style hand number. `Info`
 * carries the Cercle extension (core.ts) so the hand can be played again exactly.
 *
 * The reader accepts one `<POJEU>` or any root whose children are all `<POJEU>`, `Stackin`/`Stackout`
 * for `CaveAvant`/`CaveApres`, the example's round names `blinds`/`preflop`, and rebuilds each hand
 * by replaying it (core.ts); without the extension the table is inferred (docs/exchange.md).
 */
import type { HandRecord } from '../rules/record';
import { makeTableRules, type TableRules } from '../rules/tableRules';
import { VARIANTS, isVariantCode, type RoundName, type VariantCode } from '../rules/variants';
import {
  configOfExt,
  dealtInOrder,
  drive,
  exactRake,
  extOf,
  fail,
  formatUnits,
  parseExt,
  tournamentOf,
  unitsOf,
  type CercleExt,
  type ExchangeHand,
  type Fail,
  type ImportResult,
  type StatedPost,
  type Step,
  postsMismatch,
} from './core';
import { handNumber } from './handNumber';
import { describeRules, pojeuDate, pojeuFinance, pojeuFinanceElement, pojeuRounds, pojeuTourElement, roundTotals } from './pojeu-model';
import { leaf, node, parseXml, serialize, type XmlElement, type XmlNode } from './xml';

// ---------------------------------------------------------------------------------------------
// The document, as read (the A 1.4.3.f test checks these fields one by one)

export interface PojeuFinanceDoc {
  net: number;
  total: number;
  caveAvant: number;
  caveApres: number;
  rake: number | null;
  /** Which names the file used for the stacks. */
  stackNames: 'CaveAvant/CaveApres' | 'Stackin/Stackout';
}

export interface PojeuJoueurDoc {
  idOper: string | null;
  oper: string | null;
  pays: string | null;
  idJoueur: string;
  ipJoueur: string | null;
  siege: number;
  inscription: string | null;
  finance: PojeuFinanceDoc;
  line: number;
}

export type PojeuActionDoc =
  | { type: 'Bet'; name: string; siege: number; valeur: number; line: number }
  | { type: 'Draw'; siege: number | null; valeur: number | null; ouverte: boolean; commune: boolean; line: number }
  | { type: 'Check' | 'Fold'; siege: number; line: number }
  | { type: 'Discard' | 'Reveal'; siege: number | null; valeur: number | null; line: number };

export interface PojeuTourDoc {
  name: string;
  timestamp: string | null;
  actions: PojeuActionDoc[];
  total: number | null;
  line: number;
}

export interface PojeuDoc {
  supervision: boolean;
  retransmission: boolean;
  test: boolean;
  idOper: string | null;
  idCoffre: string | null;
  dateEvt: string | null;
  idEvt: string | null;
  tech: string | null;
  pool: string | null;
  participants: PojeuJoueurDoc[];
  regle: string;
  description: string | null;
  info: string | null;
  rounds: PojeuTourDoc[];
  /** Decimals of the amounts (2 unless the Cercle extension says 0). */
  scale: number;
  /** The money kind the Cercle extension names, if any. */
  money: 'real' | 'play' | null;
  line: number;
}

/** Round names of the decision's example read as the table's (A 1.3.6.d.5). */
const ROUND_SYNONYMS: Record<string, string> = { blinds: 'bet', preflop: 'pre-flop', showdown: 'reveal' };

class Bad {
  constructor(
    readonly line: number,
    readonly message: string,
  ) {}
}
const bad = (line: number, message: string): never => {
  throw new Bad(line, message);
};

function only(el: XmlNode, allowed: readonly string[]): void {
  for (const c of el.children) if (!allowed.includes(c.name)) bad(c.line, `<${c.name}> is not expected in <${el.name}>`);
}
function child(el: XmlNode, ...names: string[]): XmlNode | null {
  const found = el.children.filter((c) => names.includes(c.name));
  if (found.length > 1) bad(found[1].line, `<${found[1].name}> appears twice in <${el.name}>`);
  return found[0] ?? null;
}
function need(el: XmlNode, ...names: string[]): XmlNode {
  return child(el, ...names) ?? bad(el.line, `<${el.name}> has no <${names[0]}>`);
}
function textOf(el: XmlNode | null): string | null {
  if (el === null) return null;
  if (el.children.length > 0) bad(el.line, `<${el.name}> holds elements, not text`);
  return el.text.trim();
}
function intOf(el: XmlNode, what: string): number {
  const t = textOf(el)!;
  if (!/^\d{1,4}$/.test(t)) bad(el.line, `${what} '${t}' is not a whole number`);
  return Number(t);
}
function boolAttr(el: XmlNode, name: string): boolean {
  const v = el.attrs[name];
  if (v === undefined) return false;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return bad(el.line, `attribute ${name}="${v}" is not a boolean`);
}

function pojeuDocOf(el: XmlNode): PojeuDoc {
  only(el, ['IDOper', 'IDCoffre', 'DateEvt', 'IDEvt', 'Tech', 'Pool', 'Participants', 'Regle', 'Description', 'Info', 'Jeu']);
  const info = textOf(child(el, 'Info'));
  let scale = 2;
  let money: 'real' | 'play' | null = null;
  if (info !== null && info.startsWith('{')) {
    try {
      const j = JSON.parse(info) as { scale?: unknown; money?: unknown };
      if (j.scale === 0 || j.scale === 2) scale = j.scale;
      if (j.money === 'real' || j.money === 'play') money = j.money;
    } catch {
      // Not ours: free text.
    }
  }
  const amount = (e: XmlNode, what: string, signed = false): number => {
    const t = textOf(e)!;
    const u = unitsOf(t, scale);
    if (u === null || (!signed && u < 0)) return bad(e.line, `${what} '${t}' is not ${signed ? 'an' : 'a non-negative'} amount with at most ${scale} decimals`);
    return u;
  };
  const parts = need(el, 'Participants');
  only(parts, ['Joueur']);
  const participants = parts.children.map((j): PojeuJoueurDoc => {
    only(j, ['IDOper', 'Oper', 'Pays', 'IDJoueur', 'IPJoueur', 'Siege', 'Slege', 'Inscription', 'Finance']);
    const f = need(j, 'Finance');
    only(f, ['Net', 'Total', 'CaveAvant', 'CaveApres', 'Stackin', 'Stackout', 'Rake']);
    const avant = need(f, 'CaveAvant', 'Stackin');
    const apres = need(f, 'CaveApres', 'Stackout');
    const rake = child(f, 'Rake');
    const idJoueur = textOf(need(j, 'IDJoueur'))!;
    if (idJoueur === '') bad(j.line, 'IDJoueur is empty');
    return {
      idOper: textOf(child(j, 'IDOper')),
      oper: textOf(child(j, 'Oper')),
      pays: textOf(child(j, 'Pays')),
      idJoueur,
      ipJoueur: textOf(child(j, 'IPJoueur')),
      siege: intOf(need(j, 'Siege', 'Slege'), 'Siege'),
      inscription: textOf(child(j, 'Inscription')),
      finance: {
        net: amount(need(f, 'Net'), 'Net', true),
        total: amount(need(f, 'Total'), 'Total'),
        caveAvant: amount(avant, avant.name),
        caveApres: amount(apres, apres.name),
        rake: rake === null ? null : amount(rake, 'Rake'),
        stackNames: avant.name === 'Stackin' ? 'Stackin/Stackout' : 'CaveAvant/CaveApres',
      },
      line: j.line,
    };
  });
  const jeu = need(el, 'Jeu');
  only(jeu, ['Tour']);
  const rounds = jeu.children.map((t): PojeuTourDoc => {
    const name = t.attrs.name;
    if (name === undefined || name === '') bad(t.line, '<Tour> has no name');
    const actions: PojeuActionDoc[] = [];
    let total: number | null = null;
    let timestamp: string | null = null;
    for (const a of t.children) {
      const seatOf = (required: boolean): number | null => {
        const s = child(a, 'Siege', 'Slege');
        if (s === null) return required ? bad(a.line, `<${a.name}> has no <Siege>`) : null;
        return intOf(s, 'Siege');
      };
      const cardOf = (): number | null => {
        const v = child(a, 'Valeur');
        if (v === null) return null;
        const n = intOf(v, 'card Valeur');
        if (n > 51) bad(v.line, `card Valeur ${n} is not 0..51 (A 1.3.6.d.3)`);
        return n;
      };
      switch (a.name) {
        case 'Timestamp':
          timestamp = textOf(a);
          break;
        case 'Total':
          total = amount(a, 'Total');
          break;
        case 'Bet':
          only(a, ['Siege', 'Slege', 'Valeur']);
          actions.push({ type: 'Bet', name: a.attrs.name ?? bad(a.line, '<Bet> has no name'), siege: seatOf(true)!, valeur: amount(need(a, 'Valeur'), 'Bet Valeur'), line: a.line });
          break;
        case 'Draw':
          only(a, ['Siege', 'Slege', 'Valeur']);
          actions.push({ type: 'Draw', siege: seatOf(false), valeur: cardOf(), ouverte: boolAttr(a, 'ouverte'), commune: boolAttr(a, 'commune'), line: a.line });
          break;
        case 'Check':
        case 'Fold':
          only(a, ['Siege', 'Slege']);
          actions.push({ type: a.name, siege: seatOf(true)!, line: a.line });
          break;
        case 'Discard':
        case 'Reveal':
          only(a, ['Siege', 'Slege', 'Valeur']);
          actions.push({ type: a.name, siege: seatOf(false), valeur: cardOf(), line: a.line });
          break;
        default:
          bad(a.line, `<${a.name}> is not an action of a <Tour>`);
      }
    }
    return { name: ROUND_SYNONYMS[name] ?? name, timestamp, actions, total, line: t.line };
  });
  return {
    supervision: boolAttr(el, 'supervision'),
    retransmission: boolAttr(el, 'retransmission'),
    test: boolAttr(el, 'test'),
    idOper: textOf(child(el, 'IDOper')),
    idCoffre: textOf(child(el, 'IDCoffre')),
    dateEvt: textOf(child(el, 'DateEvt')),
    idEvt: textOf(child(el, 'IDEvt')),
    tech: textOf(child(el, 'Tech')),
    pool: textOf(child(el, 'Pool')),
    participants,
    regle: textOf(need(el, 'Regle'))!,
    description: textOf(child(el, 'Description')),
    info,
    rounds,
    scale,
    money,
    line: el.line,
  };
}

/** Reads the POJEU documents of a text (structure only: no replay). */
export function parsePojeuDocs(text: string): { ok: true; docs: PojeuDoc[] } | Fail {
  const x = parseXml(text);
  if (!x.ok) return fail(x.line, x.message);
  try {
    if (x.root.name === 'POJEU') return { ok: true, docs: [pojeuDocOf(x.root)] };
    if (x.root.children.length === 0) return { ok: true, docs: [] };
    only(x.root, ['POJEU']);
    return { ok: true, docs: x.root.children.map(pojeuDocOf) };
  } catch (e) {
    if (e instanceof Bad) return fail(e.line, e.message);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Document → hand

function variantOf(regle: string): VariantCode | null {
  // The decision's table prints `05HPL` (zero) and `7S JL` (space).
  const code = regle.replace(/\s+/g, '').replace(/^05/, 'O5');
  return isVariantCode(code) ? code : null;
}

function stepsOf(doc: PojeuDoc): Step[] {
  const steps: Step[] = [];
  for (const t of doc.rounds) {
    for (const a of t.actions) {
      const seat = 'siege' in a && a.siege !== null ? a.siege - 1 : null;
      const round = t.name as RoundName;
      const last = steps[steps.length - 1];
      switch (a.type) {
        case 'Bet':
          if (a.name === 'ante' || a.name === 'small blind' || a.name === 'big blind') break; // posted by the engine
          if (a.name === 'bring-in') steps.push({ k: 'bringIn', seat: seat!, said: a.valeur, line: a.line });
          else steps.push({ k: 'add', seat: seat!, amount: a.valeur, line: a.line, ...(a.name === 'call' ? { as: 'call' as const } : a.name === 'bet' || a.name === 'raise' ? { as: 'bet' as const } : {}) });
          break;
        case 'Draw': {
          const s = a.commune ? null : seat;
          if (last?.k === 'deal' && last.seat === s && last.round === round) last.cards.push(a.valeur);
          else steps.push({ k: 'deal', seat: s, cards: [a.valeur], line: a.line, round });
          break;
        }
        case 'Check':
          steps.push({ k: 'check', seat: seat!, line: a.line });
          break;
        case 'Fold':
          steps.push({ k: 'fold', seat: seat!, line: a.line });
          break;
        case 'Discard':
          if (last?.k === 'draw' && last.seat === seat && last.round === round) last.discards.push(a.valeur);
          else steps.push({ k: 'draw', seat: seat ?? -1, discards: [a.valeur], line: a.line, round });
          break;
        case 'Reveal':
          if (last?.k === 'show' && last.seat === seat && last.round === round) last.cards!.push(a.valeur);
          else steps.push({ k: 'show', seat: seat ?? -1, cards: [a.valeur], downOnly: true, line: a.line, round });
          break;
      }
    }
  }
  return steps;
}

/** Stakes from a description's last parenthesis, `(0.02-0.04)` or `(1-5-20-40)`, in units. */
function describedStakes(description: string | null, scale: number): number[] | null {
  const m = description === null ? null : /\(([0-9.,\s/-]+)\)\s*$/.exec(description);
  if (!m) return null;
  const parts = m[1].split(/[-/]/).map((p) => unitsOf(p.trim(), scale));
  return parts.every((p): p is number => p !== null) ? parts : null;
}

/** The table a POJEU without the Cercle extension implies: seats from Siege, blinds from the posts. */
function inferredConfigs(doc: PojeuDoc, variant: VariantCode): { ext: CercleExt; alternatives: Partial<TableRules>[] } | Fail {
  const v = VARIANTS[variant];
  const maxSiege = Math.max(...doc.participants.map((p) => p.siege));
  if (doc.participants.some((p) => p.siege < 1)) return fail(doc.participants.find((p) => p.siege < 1)!.line, 'Siege numbers start at 1');
  if (maxSiege > v.maxSeats) return fail(doc.line, `seat ${maxSiege}: ${variant} is played at most ${v.maxSeats} to a table (R-SEATS)`);
  const tableSize = Math.max(2, maxSiege);
  const posts = doc.rounds.flatMap((t) => t.actions).filter((a): a is Extract<PojeuActionDoc, { type: 'Bet' }> => a.type === 'Bet');
  const stacks = new Map(doc.participants.map((p) => [p.siege - 1, p.finance.caveAvant]));
  const full = (a: { siege: number; valeur: number }) => a.valeur < (stacks.get(a.siege - 1) ?? 0);
  const bigs = posts.filter((a) => a.name === 'big blind');
  const smalls = posts.filter((a) => a.name === 'small blind');
  const antes = posts.filter((a) => a.name === 'ante');
  const bigSeats = new Set(bigs.map((a) => a.siege));
  const dead = smalls.filter((a) => bigSeats.has(a.siege)).map((a) => a.siege - 1);
  const sb = smalls.find((a) => !bigSeats.has(a.siege));
  const bigBlind = v.forcedBets === 'blinds' ? (bigs[0] ? bigs[0].siege - 1 : null) : null;
  if (v.forcedBets === 'blinds' && bigBlind === null) return fail(doc.line, 'no big blind is posted');
  const seated = doc.participants.map((p) => p.siege - 1);
  const sorted = [...seated].sort((a, b) => a - b);
  const before = (s: number): number => [...sorted].reverse().find((x) => x < s) ?? sorted[sorted.length - 1];
  let button: number | null = null;
  if (v.forcedBets === 'blinds') {
    if (sb && seated.length === 2) button = sb.siege - 1;
    else button = before(sb ? sb.siege - 1 : (bigBlind as number));
  }
  const described = describedStakes(doc.description, doc.scale);
  const maxOf = (xs: { siege: number; valeur: number }[]): number | undefined => {
    const f = xs.filter(full);
    return (f.length ? f : xs).reduce<number | undefined>((m, a) => (m === undefined || a.valeur > m ? a.valeur : m), undefined);
  };
  let stakes: Parameters<typeof makeTableRules>[1];
  if (v.forcedBets === 'ante-bring-in') {
    const bringIn = posts.find((a) => a.name === 'bring-in')?.valeur;
    const [dAnte, dBring, dSmall, dBig] = described?.length === 4 ? described : [];
    stakes = { ante: maxOf(antes) ?? dAnte ?? 0, bringIn: bringIn ?? dBring, smallBet: dSmall, bigBet: dBig };
  } else {
    const bb = maxOf(bigs) ?? 0;
    const sbAmount = maxOf(smalls);
    const limit = v.betting === 'limit';
    stakes = {
      bigBlind: !limit && described?.length === 2 ? described[1] : bb,
      smallBlind: !limit && described?.length === 2 ? described[0] : sbAmount,
      ante: maxOf(antes) ?? 0,
      ...(limit && described?.length === 2 ? { smallBet: described[0], bigBet: described[1] } : {}),
    };
  }
  const rake = doc.participants.reduce((s, p) => s + (p.finance.rake ?? 0), 0);
  const bbAnte = antes.length === 1 && v.forcedBets === 'blinds' && antes[0].siege - 1 === bigBlind;
  const rules = makeTableRules(variant, stakes, { cap: null, rake: exactRake(rake), ...(bbAnte ? { anteBy: 'big-blind' as const } : {}) });
  const ext: CercleExt = {
    v: 1,
    rules,
    tableSize,
    plan: {
      button,
      smallBlind: sb ? sb.siege - 1 : null,
      bigBlind,
      extraBigBlinds: bigs.slice(1).map((a) => a.siege - 1),
      deadSmallBlinds: dead,
      dealtIn: dealtInOrder(seated, button),
    },
    seats: doc.participants.map((p) => ({ seat: p.siege - 1, player: p.idJoueur, stack: p.finance.caveAvant })),
    handId: doc.pool,
  };
  const alternatives: Partial<TableRules>[] = [{}, { minRaise: 'double' }];
  if (variant === '2T7TD') alternatives.push({ lowball27: 'international' }, { lowball27: 'international', minRaise: 'double' });
  return { ext, alternatives };
}

/** The forced bets and round Totals the document states, against the hand played. */
function roundsMismatch(doc: PojeuDoc, record: HandRecord): Fail | null {
  const posts: StatedPost[] = [];
  for (const t of doc.rounds) {
    for (const a of t.actions) {
      if (a.type === 'Bet' && (a.name === 'ante' || a.name === 'small blind' || a.name === 'big blind')) posts.push({ seat: a.siege - 1, kind: a.name, amount: a.valeur, line: a.line });
    }
  }
  const p = postsMismatch(record, posts, doc.rounds[0]?.line ?? doc.line, (n) => formatUnits(n, doc.scale));
  if (p) return p;
  const totals = roundTotals(record);
  for (const t of doc.rounds) {
    if (t.total === null) continue;
    const want = totals.get(t.name) ?? 0;
    if (want !== t.total) return fail(t.line, `round '${t.name}': Total ${formatUnits(t.total, doc.scale)} but the hand played engages ${formatUnits(want, doc.scale)}`);
  }
  return null;
}

function financeMismatch(doc: PojeuDoc, record: HandRecord): Fail | null {
  for (const p of doc.participants) {
    const s = record.seats.find((x) => x.seat === p.siege - 1);
    if (!s || !s.dealtIn) return fail(p.line, `seat ${p.siege} was not dealt in`);
    if (s.player !== p.idJoueur) return fail(p.line, `seat ${p.siege}: IDJoueur '${p.idJoueur}' but the hand seats '${s.player}' there`);
    const f = p.finance;
    const pairs: [string, number, number][] = [
      [f.stackNames === 'Stackin/Stackout' ? 'Stackin' : 'CaveAvant', f.caveAvant, s.stackBefore],
      [f.stackNames === 'Stackin/Stackout' ? 'Stackout' : 'CaveApres', f.caveApres, s.stackAfter],
      ['Net', f.net, s.net],
      ['Total', f.total, s.committed],
      ['Rake', f.rake ?? 0, s.rake],
    ];
    for (const [name, said, got] of pairs) {
      if (said !== got) return fail(p.line, `seat ${p.siege}: ${name} ${formatUnits(said, doc.scale)} but the hand played gives ${formatUnits(got, doc.scale)}`);
    }
  }
  const dealt = record.seats.filter((s) => s.dealtIn).length;
  if (dealt !== doc.participants.length) return fail(doc.line, `${dealt} players were dealt in but ${doc.participants.length} are listed`);
  return null;
}

/** Rebuilds the hand of one POJEU document. */
export function pojeuToHand(doc: PojeuDoc): { ok: true; hand: ExchangeHand } | Fail {
  const variant = variantOf(doc.regle);
  if (variant === null) return fail(doc.line, `Regle '${doc.regle}' is not a decree variant code (A 1.3.6.d.5)`);
  if (doc.participants.length < 2) return fail(doc.line, 'a POJEU lists at least two participants');
  const seen = new Set<number>();
  for (const p of doc.participants) {
    if (seen.has(p.siege)) return fail(p.line, `seat ${p.siege} is listed twice`);
    seen.add(p.siege);
  }
  const names = new Set<string>();
  for (const t of doc.rounds) {
    if (names.has(t.name)) return fail(t.line, `round '${t.name}' appears twice`);
    names.add(t.name);
  }
  let ext: CercleExt;
  let alternatives: Partial<TableRules>[] = [{}];
  if (doc.info !== null && doc.info.startsWith('{')) {
    const e = parseExt(doc.info);
    if (typeof e === 'string') return fail(doc.line, e);
    if (e.rules.variant !== variant) return fail(doc.line, `Regle ${variant} differs from the extension's ${e.rules.variant}`);
    // A tournament hand's Tech is the tournament's id (the operator's trace, A 1.3.6.b): they must agree.
    if (e.tournament !== undefined && doc.tech !== e.tournament.tournamentId) return fail(doc.line, `Tech '${doc.tech ?? ''}' is not the tournament ${e.tournament.tournamentId} of the extension`);
    ext = e;
  } else {
    const inferred = inferredConfigs(doc, variant);
    if ('ok' in inferred) return inferred;
    ext = inferred.ext;
    alternatives = inferred.alternatives;
  }
  const steps = stepsOf(doc);
  const lastLine = doc.rounds.length > 0 ? doc.rounds[doc.rounds.length - 1].line : doc.line;
  let first: Fail | null = null;
  for (const alt of alternatives) {
    const config = configOfExt({ ...ext, rules: { ...ext.rules, ...alt } });
    const r = drive(config, steps, { lastLine });
    const problem = r.ok ? (roundsMismatch(doc, r.record) ?? financeMismatch(doc, r.record)) : r;
    if (problem === null && r.ok) {
      const endedAt = doc.dateEvt !== null ? Date.parse(doc.dateEvt.endsWith('Z') || /[+-]\d\d:\d\d$/.test(doc.dateEvt) ? doc.dateEvt : doc.dateEvt + 'Z') : NaN;
      return {
        ok: true,
        hand: {
          record: r.record,
          meta: {
            ...(ext.tournament !== undefined ? (ext.table !== undefined ? { tableName: ext.table } : {}) : doc.tech !== null ? { tableName: doc.tech } : {}),
            ...(Number.isFinite(endedAt) ? { endedAt } : {}),
            ...(doc.money !== null ? { money: doc.money } : {}),
            ...(ext.tournament !== undefined ? { tournament: tournamentOf(ext.tournament) } : {}),
          },
        },
      };
    }
    first ??= problem;
  }
  return first!;
}

/** Reads every hand of a POJEU text; nothing when any of them is wrong. */
export function readPojeu(text: string): ImportResult {
  const parsed = parsePojeuDocs(text);
  if (!parsed.ok) return parsed;
  const hands: ExchangeHand[] = [];
  for (const doc of parsed.docs) {
    const h = pojeuToHand(doc);
    if (!h.ok) return h;
    hands.push(h.hand);
  }
  return { ok: true, hands };
}

// ---------------------------------------------------------------------------------------------
// Hand → document

export { pojeuBetName, describeRules, type BetName as PojeuBetName } from './pojeu-model';

export interface PojeuWriteOptions {
  /** Decimals of the amounts: 2 (units are cents), 0 (chips); default: 0 for a play-money hand, else 2. */
  scale?: 0 | 2;
}

/** One hand as a `<POJEU>` element. */
export function pojeuElement(hand: ExchangeHand, o: PojeuWriteOptions = {}): XmlElement {
  const { record, meta } = hand;
  const t = meta.tournament;
  // Tournament chips are not money: whole chips, as the operator's trace writes them (scale 0).
  const scale = t !== undefined ? 0 : (o.scale ?? (meta.money === 'play' ? 0 : 2));
  const when = meta.endedAt ?? 0;
  // The trace's model (pojeu-model.ts), every round stamped with the hand's end; a client export
  // writes a Total only for a round with bets.
  const tours = pojeuRounds(record, () => when).map(({ total, ...r }) => pojeuTourElement(r.actions.some((a) => a.type === 'Bet') ? { ...r, total } : r, scale));
  const participants = record.seats
    .filter((s) => s.dealtIn)
    .map((s) => node('Joueur', [leaf('IDJoueur', s.player), leaf('Siege', s.seat + 1), pojeuFinanceElement(pojeuFinance(s), scale)]));
  const number = handNumber(record);
  return node('POJEU', [
    leaf('IDOper', '0000'),
    leaf('IDCoffre', 0),
    leaf('DateEvt', pojeuDate(new Date(when))),
    leaf('IDEvt', String(number).padStart(10, '0')),
    // A tournament hand is the tournament's (A 1.3.6.b): Tech its id and Description prefixed by its name,
    // as operator/trace writes them; the table's name rides in the extension.
    leaf('Tech', t !== undefined ? t.tournamentId : (meta.tableName ?? 'Cercle')),
    leaf('Pool', record.handId ?? String(number)),
    node('Participants', participants),
    leaf('Regle', record.variant),
    leaf('Description', `${t?.name !== undefined ? `${t.name}: ` : ''}${describeRules(record.rules, scale)}`),
    leaf(
      'Info',
      JSON.stringify({
        ...extOf(record),
        scale,
        ...(meta.money !== undefined ? { money: meta.money } : {}),
        ...(t !== undefined ? { tournament: tournamentOf(t), ...(meta.tableName !== undefined ? { table: meta.tableName } : {}) } : {}),
      }),
    ),
    node('Jeu', tours),
  ]);
}

/** One hand as a `<POJEU>` document; several inside `<Evenements>`. */
export function writePojeu(hands: readonly ExchangeHand[], o: PojeuWriteOptions = {}): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (hands.length === 1) return head + serialize(pojeuElement(hands[0], o)) + '\n';
  return head + serialize(node('Evenements', hands.map((h) => pojeuElement(h, o)))) + '\n';
}
