/**
 * The regulatory trace records of ARJEL référentiel 2 (decision 2016-064, A 1.3.6; R-TRACE): POINSCRIT,
 * POJEU, POBILAN, POACHAT, POGAIN and POANNUL, built as XML in the element names and order of the
 * decision's tables and the examples of A 1.4.3.
 *
 * Input is plain data, amounts in integer smallest units (cents, or chips). The builders write:
 * - amounts as decimals with `scale` decimals (2 by default: 1234 cents -> `12.34`, -4 -> `-0.04`),
 * - dates as `YYYY-MM-DDThh:mm:ss` in UTC, to the second, without zone suffix, as in the examples,
 * - IDEvt on 10 digits with leading zeros (`0000001337`), as in the examples,
 * - the participant's stacks as `CaveAvant`/`CaveApres`, the names of the table in A 1.3.6.d.1 (the
 *   example's `Stackin`/`Stackout` are read on import, never written; SPEC.md §6),
 * - `SoldeApres`/`BonusApres` without accent, as the examples and the POGAIN table write them (the other
 *   tables print `SoldeAprès`).
 * Input that breaks the format or its arithmetic is a bug in the caller and throws {@link TraceRecordError}.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { leaf, node, serialize, xmlCharProblem, type XmlElement } from '../../shared/exchange/xml';
import { centsText } from '../../shared/rules/money';
import { VARIANT_CODES, type VariantCode } from '../../shared/rules/variants';
import { BET_NAMES, pojeuActionElement, pojeuFinanceElement, pojeuTourElement, type CardCode, type PojeuAction, type PojeuFinance, type PojeuRound } from '../../shared/exchange/pojeu-model';

/** The six record kinds of référentiel 2. */
export type TraceKind = 'POINSCRIT' | 'POJEU' | 'POBILAN' | 'POACHAT' | 'POGAIN' | 'POANNUL';
export const TRACE_KINDS: readonly TraceKind[] = ['POINSCRIT', 'POJEU', 'POBILAN', 'POACHAT', 'POGAIN', 'POANNUL'];

/** Thrown when record input breaks the format (a bug in the caller, not a refusal). */
export class TraceRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceRecordError';
  }
}

/** The identifiers every record starts with (A 1.3.6.c): assigned by the vault. */
export interface RecordHeader {
  /** Operator number given by the regulator (types:opId), e.g. `0099`. */
  readonly idOper: string;
  /** Number of the vault (coffre) in the operator's infrastructure. */
  readonly idCoffre: number;
  /** Time of the event; written in UTC to the second. */
  readonly dateEvt: Date;
  /** Number of the event, unique in the vault. */
  readonly idEvt: number;
}

/** The optional boolean attributes of every record; written only when true (their default is false). */
export interface RecordFlags {
  /** Sent by the operator without the player's acknowledgement. */
  readonly supervision?: boolean;
  /** A retransmission of an earlier event. */
  readonly retransmission?: boolean;
  /** A test event, not to be taken into account by the regulator. */
  readonly test?: boolean;
}

/** One financial compartment's movement: balance before, absolute movement, balance after (smallest units). */
export interface Movement {
  readonly avant: number;
  /** Absolute value of the movement (A: "valeur absolue"). */
  readonly mouvement: number;
  readonly apres: number;
}

/** The player-side fields shared by POINSCRIT, POACHAT, POGAIN, POBILAN and POANNUL. */
export interface PlayerEventBase extends RecordFlags {
  /** The player's unique id at the operator. */
  readonly idJoueur: string;
  /** SHA-1 of the player's identity, 40 hex digits (see {@link hashJoueur}). */
  readonly hashJoueur: string;
  /** The player's IP address. */
  readonly ipJoueur: string;
  /** The session id (IDSession), not the session token. */
  readonly idSession: string;
  /** Inscription code: unique per registration of a player to a game (A 1.3.6.b). */
  readonly inscription: string;
  /** Tech code: unique id of the game (cash table or tournament) on the operator's platform. */
  readonly tech: string;
  /** The cash compartment (Solde); at least one of `solde` and `bonus` is required. */
  readonly solde?: Movement;
  /** The bonus compartment. */
  readonly bonus?: Movement;
  /** Decimals of the amounts: 2 for cents (default), 0 for chips. */
  readonly scale?: 0 | 2;
}

/** A player joins a cash table or registers to a tournament (A 1.3.6.c.1). */
export interface PoinscritData extends PlayerEventBase {
  readonly kind: 'POINSCRIT';
  readonly description: string;
  /** `CG`, `T`, `T /<letters among A G M S>` (e.g. `T /AS`; `T/AS` is read and written `T /AS`) or `TDV`. */
  readonly format: string;
}

/** A purchase during the game: top-up, rebuy, add-on (A 1.3.6.c.4, A 1.3.6.d.4). */
export interface PoachatData extends PlayerEventBase {
  readonly kind: 'POACHAT';
  readonly description: string;
}

/** A gain credited during the game, e.g. a bounty (A 1.3.6.c.5). */
export interface PogainData extends PlayerEventBase {
  readonly kind: 'POGAIN';
  readonly description: string;
}

/** The financial result at the end of a participation: leaving a cash table, end of a tournament (A 1.3.6.c.3). */
export interface PobilanData extends PlayerEventBase {
  readonly kind: 'POBILAN';
}

/**
 * Cancellation of an inscription "et tous les évènements qui lui sont liés", with its refund
 * (A 1.3.6.c.6). Never of one hand: a voided hand goes to the operator's log (docs/trace.md).
 */
export interface PoannulData extends PlayerEventBase {
  readonly kind: 'POANNUL';
  readonly motif: string;
  /**
   * Kept in the vault's index only (`TraceVault.byPool`); not written: POANNUL has no Pool element
   * (A 1.3.6.c.6). Older vaults hold POANNULs of voided hands indexed by their Pool.
   */
  readonly pool?: string;
}

/** Variant codes for `Regle` (A 1.3.6.d.5, spelled as SPEC.md §3): the decree's, from variants.ts. */
export const REGLE_CODES = VARIANT_CODES;
export type RegleCode = VariantCode;

// The hand's part of a POJEU (rounds, actions, Finance) is the one model the exchange writes too; this file
// adds the regulatory identifiers and checks the arithmetic.
export { BET_NAMES, type BetName, type CardCode, type PojeuAction, type PojeuFinance, type PojeuRound } from '../../shared/exchange/pojeu-model';

/** A participant (Joueur) of a POJEU. Either `idOper` (an operator licensed in France) or `oper` + `pays`. */
export interface PojeuParticipant {
  readonly idOper?: string;
  /** Operator name, when not licensed by the French regulator. */
  readonly oper?: string;
  /** Operator's country, ISO 3166-1 alpha-2. */
  readonly pays?: string;
  readonly idJoueur: string;
  readonly ipJoueur: string;
  readonly siege: number;
  readonly inscription: string;
  readonly finance: PojeuFinance;
}

/** A whole hand, summarised for all players (A 1.3.6.c.2: a synthesis event). */
export interface PojeuData extends RecordFlags {
  readonly kind: 'POJEU';
  readonly tech: string;
  /** Pool code: unique id of the hand within its game (A 1.3.6.b). */
  readonly pool: string;
  /** At least two. */
  readonly participants: readonly PojeuParticipant[];
  readonly regle: RegleCode;
  /** Description of the game rule, e.g. `Texas Hold'Em No Limit (0.02-0.04)`. */
  readonly description: string;
  readonly info?: string;
  readonly rounds: readonly PojeuRound[];
  /** Decimals of the amounts: 2 for cents (default), 0 for tournament or play chips. */
  readonly scale?: 0 | 2;
}

/** Any record's data. */
export type TraceData = PoinscritData | PojeuData | PobilanData | PoachatData | PogainData | PoannulData;

const bad = (msg: string): never => {
  throw new TraceRecordError(msg);
};

/** `YYYY-MM-DDThh:mm:ss` in UTC, to the second (xs:dateTime as in the examples of A 1.4.3). */
export function formatDateEvt(d: Date): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) bad('a date is not a valid Date');
  return d.toISOString().slice(0, 19);
}

/** An integer amount in smallest units as a decimal with `scale` decimals: (-4, 2) -> `-0.04`. */
export function formatAmount(units: number, scale: 0 | 2 = 2): string {
  if (!Number.isSafeInteger(units)) bad(`amount ${String(units)} is not an integer number of cents or chips`);
  return scale === 0 ? String(units) : centsText(units);
}

/** IDEvt written on 10 digits, as in the examples (`0000001337`). */
export function formatIdEvt(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) bad(`IDEvt ${n} is not a non-negative integer`);
  return String(n).padStart(10, '0');
}

/**
 * HashJoueur (types:sha1), "signature cryptographique de l'identité du joueur": SHA-1 of `identity`,
 * 40 upper-case hex digits (sha1("test") = `A94A8FE5…`, the examples' value). The operator passes the
 * person's identity hash (trace/outbox.ts derives it for every record).
 */
export function hashJoueur(identity: string): string {
  return createHash('sha1').update(identity, 'utf8').digest('hex').toUpperCase();
}

/** The text form of a card code (`As`, `Td`, `2c`), for messages and tests. */
export function cardText(code: CardCode): string {
  return '23456789TJQKA'[code >> 2] + 'cdhs'[code & 3];
}

function text(v: unknown, what: string, max = 500): string {
  if (typeof v !== 'string' || v.length === 0) return bad(`${what} must be a non-empty string`);
  if (v.length > max) return bad(`${what} is longer than ${max} characters`);
  const why = xmlCharProblem(v);
  if (why) bad(`${what}: ${why}`);
  return v;
}

function nonNegative(v: number, what: string): number {
  if (!Number.isSafeInteger(v) || v < 0) bad(`${what} must be a non-negative integer, got ${String(v)}`);
  return v;
}

function seat(v: number, what: string): number {
  if (!Number.isSafeInteger(v) || v < 0) bad(`${what} must be a seat number (non-negative integer), got ${String(v)}`);
  return v;
}

function card(v: number | null, what: string): number {
  if (v === null || !Number.isInteger(v) || v < 0 || v > 51) return bad(`${what} must be a card code 0..51, got ${String(v)}`);
  return v;
}

function flagAttrs(f: RecordFlags): [string, string][] {
  const out: [string, string][] = [];
  if (f.supervision) out.push(['supervision', 'true']);
  if (f.retransmission) out.push(['retransmission', 'true']);
  if (f.test) out.push(['test', 'true']);
  return out;
}

function headerElements(h: RecordHeader): XmlElement[] {
  if (!/^\d{1,10}$/.test(h.idOper)) bad(`IDOper ${h.idOper} must be the regulator's operator number (digits)`);
  if (!Number.isSafeInteger(h.idCoffre) || h.idCoffre < 0) bad(`IDCoffre ${h.idCoffre} must be a non-negative integer`);
  return [leaf('IDOper', h.idOper), leaf('IDCoffre', h.idCoffre), leaf('DateEvt', formatDateEvt(h.dateEvt)), leaf('IDEvt', formatIdEvt(h.idEvt))];
}

function movement(prefix: 'Solde' | 'Bonus', m: Movement, scale: 0 | 2): XmlElement[] {
  for (const k of ['avant', 'mouvement', 'apres'] as const) {
    if (!Number.isSafeInteger(m[k])) bad(`${prefix} ${k} must be an integer number of cents or chips`);
  }
  if (m.mouvement < 0) bad(`${prefix}Mouvement is an absolute value and cannot be negative`);
  if (Math.abs(m.apres - m.avant) !== m.mouvement) {
    bad(`${prefix}Apres ${m.apres} does not follow from ${prefix}Avant ${m.avant} and ${prefix}Mouvement ${m.mouvement}`);
  }
  return [leaf(`${prefix}Avant`, formatAmount(m.avant, scale)), leaf(`${prefix}Mouvement`, formatAmount(m.mouvement, scale)), leaf(`${prefix}Apres`, formatAmount(m.apres, scale))];
}

function playerElements(d: PlayerEventBase): XmlElement[] {
  if (!/^[0-9A-Fa-f]{40}$/.test(d.hashJoueur ?? '')) bad('HashJoueur must be a SHA-1 in 40 hex digits');
  if (isIP(d.ipJoueur ?? '') === 0) bad(`IPJoueur ${String(d.ipJoueur)} is not an IP address`);
  return [
    leaf('IDJoueur', text(d.idJoueur, 'IDJoueur')),
    leaf('HashJoueur', d.hashJoueur.toUpperCase()),
    leaf('IPJoueur', d.ipJoueur),
    leaf('IDSession', text(d.idSession, 'IDSession')),
    leaf('Inscription', text(d.inscription, 'Inscription')),
    leaf('Tech', text(d.tech, 'Tech')),
  ];
}

function moneyElements(d: PlayerEventBase): XmlElement[] {
  // BonusAvant is required when SoldeAvant is absent: at least one compartment moves (A 1.3.6.c.1).
  if (!d.solde && !d.bonus) bad('a financial record needs a Solde or a Bonus movement');
  const scale = d.scale ?? 2;
  return [...(d.solde ? movement('Solde', d.solde, scale) : []), ...(d.bonus ? movement('Bonus', d.bonus, scale) : [])];
}

/**
 * `CG`, `T`, `T /` + distinct letters among A, G, M, S, or `TDV` (A 1.3.6.c.1). The decision writes the
 * code `T[ /d ]` and the example "Par exemple: T /AS": a space before the slash, none after; the
 * operator's own code without the space (`T/AS`, tournaments/spec.ts) is read too.
 */
export function isFormat(f: string): boolean {
  const m = /^(?:CG|TDV|T(?: ?\/([AGMS]{1,4}))?)$/.exec(f);
  return m !== null && (m[1] === undefined || new Set(m[1]).size === m[1].length);
}

/** The Format as the decision spells it (A 1.3.6.c.1, "T /AS"): `T/AS` is written `T /AS`. */
export function decisionFormat(f: string): string {
  return f.replace(/^T ?\//, 'T /');
}

/** POINSCRIT (A 1.3.6.c.1, example A 1.4.3.a). */
export function buildPOINSCRIT(h: RecordHeader, d: PoinscritData): XmlElement {
  if (!isFormat(d.format)) bad(`Format ${d.format} is not CG, T, T /<AGMS> or TDV`);
  return node(
    'POINSCRIT',
    [...headerElements(h), ...playerElements(d), leaf('Description', text(d.description, 'Description')), leaf('Format', decisionFormat(d.format)), ...moneyElements(d)],
    flagAttrs(d),
  );
}

/** POACHAT (A 1.3.6.c.4, example A 1.4.3.b). */
export function buildPOACHAT(h: RecordHeader, d: PoachatData): XmlElement {
  return node('POACHAT', [...headerElements(h), ...playerElements(d), leaf('Description', text(d.description, 'Description')), ...moneyElements(d)], flagAttrs(d));
}

/** POGAIN (A 1.3.6.c.5, example A 1.4.3.c). */
export function buildPOGAIN(h: RecordHeader, d: PogainData): XmlElement {
  return node('POGAIN', [...headerElements(h), ...playerElements(d), leaf('Description', text(d.description, 'Description')), ...moneyElements(d)], flagAttrs(d));
}

/** POBILAN (A 1.3.6.c.3, example A 1.4.3.d). A player who lost everything still gets one, with a zero movement. */
export function buildPOBILAN(h: RecordHeader, d: PobilanData): XmlElement {
  return node('POBILAN', [...headerElements(h), ...playerElements(d), ...moneyElements(d)], flagAttrs(d));
}

/** POANNUL (A 1.3.6.c.6, example A 1.4.3.e). */
export function buildPOANNUL(h: RecordHeader, d: PoannulData): XmlElement {
  return node('POANNUL', [...headerElements(h), ...playerElements(d), leaf('Motif', text(d.motif, 'Motif')), ...moneyElements(d)], flagAttrs(d));
}

function participant(p: PojeuParticipant, scale: 0 | 2, i: number): XmlElement {
  const where = `participant ${i + 1}`;
  if (p.idOper === undefined && (p.oper === undefined || p.pays === undefined)) bad(`${where}: IDOper, or Oper and Pays, are required`);
  if (p.idOper !== undefined && !/^\d{1,10}$/.test(p.idOper)) bad(`${where}: IDOper ${p.idOper} must be digits`);
  if (p.pays !== undefined && !/^[A-Z]{2}$/.test(p.pays)) bad(`${where}: Pays ${p.pays} must be an ISO 3166-1 alpha-2 code`);
  if (isIP(p.ipJoueur ?? '') === 0) bad(`${where}: IPJoueur ${String(p.ipJoueur)} is not an IP address`);
  const f = p.finance;
  nonNegative(f.total, `${where}: Total`);
  nonNegative(f.caveAvant, `${where}: CaveAvant`);
  nonNegative(f.caveApres, `${where}: CaveApres`);
  if (f.rake !== undefined) nonNegative(f.rake, `${where}: Rake`);
  if (!Number.isSafeInteger(f.net) || f.net !== f.caveApres - f.caveAvant) bad(`${where}: Net ${f.net} is not CaveApres − CaveAvant (${f.caveApres - f.caveAvant})`);
  return node('Joueur', [
    p.idOper !== undefined ? leaf('IDOper', p.idOper) : undefined,
    p.oper !== undefined ? leaf('Oper', text(p.oper, `${where}: Oper`)) : undefined,
    leaf('IDJoueur', text(p.idJoueur, `${where}: IDJoueur`)),
    // Pays after IDJoueur, as both participants of the example A 1.4.3.f write it (the table of
    // A 1.3.6.d.1 lists it before); SPEC.md §4 makes the examples the format to match.
    p.pays !== undefined ? leaf('Pays', p.pays) : undefined,
    leaf('IPJoueur', p.ipJoueur),
    leaf('Siege', seat(p.siege, `${where}: Siege`)),
    leaf('Inscription', text(p.inscription, `${where}: Inscription`)),
    pojeuFinanceElement(f, scale),
  ]);
}

/** Checks one action (seats of participants, bet names, card codes, amounts), then writes it as the model does. */
function action(a: PojeuAction, scale: 0 | 2, seats: Set<number>, where: string): XmlElement {
  const seatOf = (s: number | undefined, required: boolean): void => {
    if (s === undefined) {
      if (required) bad(`${where}: ${a.type} needs a seat`);
      return;
    }
    if (!seats.has(seat(s, `${where}: Siege`))) bad(`${where}: seat ${s} is not a participant's`);
  };
  switch (a.type) {
    case 'Bet':
      seatOf(a.siege, true);
      if (!(BET_NAMES as readonly string[]).includes(a.name)) bad(`${where}: bet name ${a.name} is not one of ${BET_NAMES.join(', ')}`);
      formatAmount(nonNegative(a.valeur, `${where}: Bet Valeur`), scale);
      break;
    case 'Draw':
      // A private card has an owner; only a common (board) card may go without a seat.
      if (a.siege === undefined && !a.commune) bad(`${where}: a Draw without a seat must be a common card`);
      seatOf(a.siege, false);
      // The operator knows every card it deals (A 1.3.6.d.3).
      card(a.valeur, `${where}: Draw Valeur`);
      break;
    case 'Check':
    case 'Fold':
      seatOf(a.siege, true);
      break;
    case 'Discard':
    case 'Reveal':
      seatOf(a.siege, false);
      card(a.valeur, `${where}: ${a.type} Valeur`);
      break;
    default:
      return bad(`${where}: unknown action ${(a as { type: string }).type}`);
  }
  return pojeuActionElement(a, scale);
}

/**
 * POJEU (A 1.3.6.c.2, example A 1.4.3.f): one hand, all participants. Besides the format, checks the
 * hand's arithmetic: each Net = CaveApres − CaveAvant; Σ Net + Σ Rake = 0 (chips are conserved,
 * R-CONSERVE); Σ round Totals = Σ participants' Totals; a round's Total and a participant's Total are
 * at most what was bet. All hold in the decision's example.
 */
export function buildPOJEU(h: RecordHeader, d: PojeuData): XmlElement {
  const scale = d.scale ?? 2;
  if (!(REGLE_CODES as readonly string[]).includes(d.regle)) bad(`Regle ${d.regle} is not one of ${REGLE_CODES.join(', ')}`);
  if (!Array.isArray(d.participants) || d.participants.length < 2) bad('a POJEU synthesis event needs at least two participants');
  if (!Array.isArray(d.rounds) || d.rounds.length < 1) bad('a POJEU needs at least one round (Tour)');
  const seats = new Set<number>();
  for (const p of d.participants) {
    if (seats.has(p.siege)) bad(`seat ${p.siege} is given to two participants`);
    seats.add(p.siege);
  }
  const participants = d.participants.map((p, i) => participant(p, scale, i));

  const names = new Set<string>();
  const betBySeat = new Map<number, number>();
  let roundTotals = 0;
  const rounds = d.rounds.map((r) => {
    const where = `round ${JSON.stringify(r.name)}`;
    text(r.name, 'round name', 100);
    if (names.has(r.name)) bad(`${where}: round names are unique within a POJEU`);
    names.add(r.name);
    if (!Array.isArray(r.actions) || r.actions.length === 0) bad(`${where}: a round has at least one action`);
    const actions = r.actions.map((a) => action(a, scale, seats, where));
    let bets = 0;
    for (const a of r.actions) {
      if (a.type === 'Bet') {
        bets += a.valeur;
        betBySeat.set(a.siege, (betBySeat.get(a.siege) ?? 0) + a.valeur);
      }
    }
    if (r.total === undefined) {
      if (bets > 0) bad(`${where}: a round with bets needs its Total`);
    } else {
      nonNegative(r.total, `${where}: Total`);
      // D art. 9: an uncalled part is not engaged, so the Total can be less than the bets, never more.
      if (r.total > bets) bad(`${where}: Total ${r.total} is more than the ${bets} bet in the round`);
      roundTotals += r.total;
    }
    formatDateEvt(r.timestamp); // a valid Date, or TraceRecordError
    return pojeuTourElement(r, scale, actions);
  });

  let nets = 0;
  let rake = 0;
  let engaged = 0;
  for (const p of d.participants) {
    nets += p.finance.net;
    rake += p.finance.rake ?? 0;
    engaged += p.finance.total;
    const bet = betBySeat.get(p.siege) ?? 0;
    if (p.finance.total > bet) bad(`seat ${p.siege}: Total ${p.finance.total} is more than the ${bet} the player bet`);
  }
  if (nets + rake !== 0) bad(`chips are not conserved: Σ Net ${nets} + Σ Rake ${rake} should be 0 (R-CONSERVE)`);
  if (engaged !== roundTotals) bad(`Σ participants' Total ${engaged} differs from Σ rounds' Total ${roundTotals}`);

  return node(
    'POJEU',
    [
      ...headerElements(h),
      leaf('Tech', text(d.tech, 'Tech')),
      leaf('Pool', text(d.pool, 'Pool')),
      node('Participants', participants),
      leaf('Regle', d.regle),
      leaf('Description', text(d.description, 'Description')),
      d.info !== undefined ? leaf('Info', text(d.info, 'Info', 2000)) : undefined,
      node('Jeu', rounds),
    ],
    flagAttrs(d),
  );
}

/** Builds any record's element from its data. */
export function buildRecord(h: RecordHeader, d: TraceData): XmlElement {
  switch (d.kind) {
    case 'POINSCRIT':
      return buildPOINSCRIT(h, d);
    case 'POJEU':
      return buildPOJEU(h, d);
    case 'POBILAN':
      return buildPOBILAN(h, d);
    case 'POACHAT':
      return buildPOACHAT(h, d);
    case 'POGAIN':
      return buildPOGAIN(h, d);
    case 'POANNUL':
      return buildPOANNUL(h, d);
    default:
      return bad(`unknown record kind ${(d as { kind: string }).kind}`);
  }
}

/** A record as XML text, indented by two spaces like the examples of A 1.4.3. */
export function recordXml(h: RecordHeader, d: TraceData): string {
  return serialize(buildRecord(h, d));
}
