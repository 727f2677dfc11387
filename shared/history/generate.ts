/**
 * Realistic hand histories, as a player's client stores them (DESIGN.md §5): a period of
 * sessions of 1 to 3 hours on 2 to 5 tables at once, of all 11 variants at two stakes each, real money
 * (raked) and play money, about 70 hands an hour per table, six-max mostly with some full-ring and
 * heads-up tables; opponents drawn from a pool of a few thousand who stay a while and come and go;
 * stacks carried from hand to hand (busted players buy in again, short and deep stacks meet, all-ins
 * happen); a hero seat (`hero`, default "me") at every table. Every hand is played by the rules
 * engine with random legal moves (fold-heavy before the flop, as at a real table; bets mostly the
 * minimum or about the pot; some shoves) and stored as the client gets it:
 * `recordOf(viewFor(final, hero))`, others' cards unknown unless shown.
 *
 * Seeded: the same options give the same hands. Pure TypeScript (no Node module): the CLI
 * (`cercle generate`, electron/services/history/generate.ts), the history benchmark and tests use it.
 * The random tables of `test-support.ts` (every rule reading, dead blinds, odd plans) are for the
 * codec and store tests; this one is for volume and realism.
 */
import { blankTournamentRecord, type TournamentRecordView } from './tournament-record';
import type { Card } from '../rules/cards';
import { DAY_MS as DAY, HOUR_MS as HOUR } from '../rules/time';
import { apply, legalActions, reshuffleCards, startHand, viewFor } from '../rules/engine';
import type { Action, HandConfig, HandState, LegalActions } from '../rules/engine';
import { recordOf, type HandRecord } from '../rules/record';
import { makeTableRules, type TableRules } from '../rules/tableRules';
import { payout } from '../rules/tournament/payouts';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../rules/variants';


/** What the store needs besides the record (electron/services/history/store.ts `HandMeta`). */
export interface GeneratedMeta {
  playedAt: number;
  tableId: string;
  money: 'real' | 'play';
  heroSeat: number;
  /** A tournament's hand: its id and 0-based level (absent at a cash table). */
  tournament?: { tournamentId: string; level: number };
}

export interface GeneratedHand {
  meta: GeneratedMeta;
  record: HandRecord;
  /** On the hero's last hand of a tournament: its record as the client stores it when it ends. */
  finished?: TournamentRecordView;
}

export interface GenerateOptions {
  /** How many hands. */
  hands: number;
  /** Seed of the generator (default 0x2545f491). */
  seed?: number;
  /** The period's first day (ms); default: `end − days`. */
  start?: number;
  /** The period's end (ms); default: now. */
  end?: number;
  /** Length of the period in days (default 365). */
  days?: number;
  /** The hero's name at every table (default "me"). */
  hero?: string;
  /**
   * The share (0 to 1) of the tables opened that are sit & go's (default 0, and then
   * the hands are those of a generator without tournaments): one table, every player from the same
   * stack, the blinds up a level every 8 hands, nobody replaced; the hero's tournament ends when they
   * are out or alone (or after 200 hands, ranked by stack), and the table starts the next one.
   */
  tournaments?: number;
}

/** A seeded generator of whole numbers below n (xorshift32). */
class Rand {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x2545f491;
  }
  int(n: number): number {
    let s = this.s;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.s = s;
    return ((s >>> 0) % n) | 0;
  }
  chance(p: number): boolean {
    return this.int(1_000_000) < p * 1_000_000;
  }
}

// ---------------------------------------------------------------------------------------------
// Random legal play with a deck (R-DEAL).

class Player {
  private readonly deck: Card[] = [];
  private pos = 0;
  constructor(private readonly r: Rand) {}

  private shuffle(from: number, to: number): void {
    const deck = this.deck;
    for (let i = to - 1; i > from; i--) {
      const j = from + this.r.int(i - from + 1);
      const t = deck[i];
      deck[i] = deck[j];
      deck[j] = t;
    }
  }

  private dealerMove(state: HandState, legal: LegalActions): Action {
    const req = legal.deal!;
    const deck = this.deck;
    if (req.reshuffle) {
      const extra = reshuffleCards(state);
      const rest = deck.slice(this.pos);
      deck.length = 0;
      for (const c of rest) deck.push(c);
      for (const c of extra) if (c !== null) deck.push(c);
      this.pos = 0;
      this.shuffle(0, deck.length);
      return { type: 'reshuffle' };
    }
    const cards = deck.slice(this.pos, this.pos + req.count);
    this.pos += req.count;
    return { type: 'deal', seat: req.seat, cards };
  }

  private playerMove(state: HandState, legal: LegalActions, aggression: number): Action {
    const r = this.r;
    const seat = legal.seat as number;
    if (legal.next === 'show') {
      // The choice is drawn even where mucking is not allowed (a Stud showdown, D art. 7 III), so
      // the same seed walks the same sessions whatever the showdown rules.
      const wantsMuck = r.chance(0.4);
      return legal.muck && wantsMuck ? { type: 'muck', seat } : { type: 'show', seat };
    }
    if (legal.next === 'draw') return { type: 'draw', seat, discards: state.seats[seat].hole.slice(0, r.int(Math.min(legal.draw!.max, 3) + 1)) };
    if (legal.bringIn !== null) return legal.bet !== null && r.chance(0.25) ? { type: 'bet', seat, to: legal.bet.min } : { type: 'bringIn', seat };
    const b = legal.bet;
    const x = r.int(100);
    // Fold-heavy before the flop, as at a real six-max table; bets mostly the minimum or a pot-ish
    // size, now and then everything (short stacks shove more: `aggression`).
    const foldP = state.street === 0 ? 62 : 40;
    if (legal.fold && x < foldP) return { type: 'fold', seat };
    if (b !== null && x >= 86 - aggression) {
      const to = b.exact || x < 93 ? b.min : x < 97 - aggression ? Math.min(b.max, b.min * 2) : x < 99 ? b.min + r.int(b.max - b.min + 1) : b.max;
      return { type: 'bet', seat, to };
    }
    if (legal.call !== null) return { type: 'call', seat };
    if (legal.check) return { type: 'check', seat };
    return { type: 'fold', seat };
  }

  play(config: HandConfig, shortStack: boolean): HandState {
    let s = startHand(config);
    const deck = this.deck;
    deck.length = 0;
    for (let c = 0; c < 52; c++) deck.push(c);
    this.pos = 0;
    this.shuffle(0, 52);
    const aggression = shortStack ? 6 : 0;
    for (;;) {
      const legal = legalActions(s);
      if (legal.next === 'done') return s;
      const r = apply(s, legal.next === 'deal' ? this.dealerMove(s, legal) : this.playerMove(s, legal, aggression));
      if (!r.ok) throw new Error(`${r.rule}: ${r.message}`);
      s = r.state;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tables and sessions.

interface TableKind {
  code: VariantCode;
  rules: TableRules;
  money: 'real' | 'play';
  buyIn: number;
  name: string;
  seats: number;
}

function tableKinds(r: Rand): { kinds: TableKind[]; weighted: number[] } {
  const kinds: TableKind[] = [];
  for (const code of VARIANT_CODES) {
    const v = VARIANTS[code];
    const stud = v.forcedBets === 'ante-bring-in';
    for (const [k, bb] of [20, 100].entries()) {
      const money = k === 1 && r.chance(0.3) ? 'play' : 'real';
      const rake = money === 'real' ? { basisPoints: 500, cap: bb * 3, noFlopNoDrop: true } : undefined;
      const rules = stud
        ? makeTableRules(code, { ante: bb / 10, bringIn: bb / 4, smallBet: bb / 2 }, { rake })
        : makeTableRules(code, { smallBlind: bb / 2, bigBlind: bb }, { rake });
      // Six-max mostly; Hold'em also full ring, and a heads-up table of each Hold'em structure.
      const sizes = v.family === 'holdem' ? [6, 6, Math.min(9, v.maxSeats), 2] : [Math.min(6, v.maxSeats)];
      for (const seats of new Set(sizes)) {
        kinds.push({ code, rules, money, buyIn: bb * 100, name: `${code.toLowerCase()}-${bb / 2}-${bb}${seats === 6 ? '' : `-${seats}max`}`, seats });
      }
    }
  }
  // The player's favourites: Hold'em no limit and Omaha most, every variant sometimes.
  const weighted: number[] = [];
  for (let i = 0; i < kinds.length; i++) {
    const w = kinds[i].code === 'THNL' ? (kinds[i].seats === 6 ? 8 : 2) : kinds[i].code === 'O4HPL' ? 4 : 1;
    for (let k = 0; k < w; k++) weighted.push(i);
  }
  return { kinds, weighted };
}

/** The big blind of each tournament level (multiples of 20: Stud's ante, bring-in and small bet stay whole). */
const LEVEL_BB = [20, 40, 60, 80, 100, 140, 200, 300, 400, 600, 800, 1000, 1400, 2000, 3000, 4000, 6000, 8000, 10_000, 14_000, 20_000];
const START_STACK = 1500;
const HANDS_PER_LEVEL = 8;
const MAX_TOURNAMENT_HANDS = 200;

interface Tourney {
  id: string;
  record: TournamentRecordView;
  levels: TableRules[];
  hands: number;
  /** The hero's bounties so far (kinds 'G'). */
  bounty: number;
  /** Finished after the session's end: the table is closed. */
  over: boolean;
}

interface OpenTable {
  kind: TableKind;
  /** A sit & go's table (the `tournaments` option): it plays its tournament to the end, past the session's. */
  tourney?: Tourney;
  until?: number;
  id: string;
  run: string;
  handNo: number;
  /** null: an empty seat. */
  seats: ({ player: string; stack: number } | null)[];
  hero: number;
  button: number;
  at: number;
}

/** The next hand's plan at a table: Stud has no button; else the button moves to the next seated player. */
function nextPlan(t: OpenTable, occupied: number[], stud: boolean): HandConfig['plan'] {
  if (stud) return { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: occupied };
  const size = t.seats.length;
  do t.button = (t.button + 1) % size;
  while (t.seats[t.button] === null);
  const order = occupied.filter((i) => i > t.button).concat(occupied.filter((i) => i <= t.button));
  // T 6-19: heads-up the button posts the small blind.
  return order.length === 2
    ? { button: t.button, smallBlind: t.button, bigBlind: order[0], extraBigBlinds: [], deadSmallBlinds: [], dealtIn: order }
    : { button: t.button, smallBlind: order[0], bigBlind: order[1], extraBigBlinds: [], deadSmallBlinds: [], dealtIn: order };
}

/**
 * The hands, oldest session first (hands of the tables of one session interleave in time). Runs
 * lazily: a million hands never sit in memory at once.
 */
export function* generateHands(o: GenerateOptions): Generator<GeneratedHand> {
  const n = o.hands;
  const r = new Rand(o.seed ?? 0x2545f491);
  const days = o.days ?? 365;
  const end = o.end ?? Date.now();
  const start = o.start ?? end - days * DAY;
  const hero = o.hero ?? 'me';
  const player = new Player(r);
  const { kinds, weighted } = tableKinds(r);
  const pool = Array.from({ length: 3000 }, (_, i) => `player${i.toString(36)}${i % 7 === 0 ? '_fr' : ''}`);
  const freshStack = (k: TableKind): number => {
    // Most buy in between half and twice the standard buy-in; some short, some very deep.
    const x = r.int(100);
    return x < 12 ? k.buyIn / 10 + r.int(k.buyIn / 4) : x < 95 ? k.buyIn / 2 + r.int(k.buyIn * 2) : k.buyIn * 3 + r.int(k.buyIn * 3);
  };
  const newcomer = (k: TableKind, t: OpenTable | null): { player: string; stack: number } => {
    for (;;) {
      const name = pool[r.int(pool.length)];
      if (t === null || !t.seats.some((s) => s?.player === name)) return { player: name, stack: freshStack(k) };
    }
  };
  // The first tables opened try each game once, from a game drawn at random (a year of play has
  // every variant in it, however the draws fall); then the player's favourites, by weight.
  let opened = 0;
  const firstGame = r.int(VARIANT_CODES.length);
  const pickKind = (): TableKind => {
    const code = opened < VARIANT_CODES.length ? VARIANT_CODES[(firstGame + opened) % VARIANT_CODES.length] : null;
    opened++;
    if (code === null) return kinds[weighted[r.int(weighted.length)]];
    const ofGame = kinds.filter((k) => k.code === code);
    return ofGame[r.int(ofGame.length)];
  };
  // Tournament draws use their own generator: without tournaments the hands are the same as before.
  const share = o.tournaments ?? 0;
  const tr = new Rand(((o.seed ?? 0x2545f491) ^ 0x7f4a7c15) >>> 0);
  let tourneys = 0;
  const startTourney = (t: OpenTable): void => {
    const k = t.kind;
    const stud = k.rules.bringIn > 0;
    const levels = LEVEL_BB.map((bb) => (stud ? makeTableRules(k.code, { ante: bb / 10, bringIn: bb / 4, smallBet: bb / 2 }) : makeTableRules(k.code, { smallBlind: bb / 2, bigBlind: bb })));
    const buyIn = k.buyIn / 10;
    const bountyKind = tr.chance(0.25);
    const id = `sng${(++tourneys).toString(36)}-${t.at.toString(36)}`;
    t.id = `${id}-1`;
    t.run = id;
    t.handNo = 0;
    t.seats = t.seats.map((_, i) => (i === t.hero ? { player: hero, stack: START_STACK } : { ...newcomer(k, null), stack: START_STACK }));
    for (let i = 0; i < t.seats.length; i++) if (i !== t.hero) while (t.seats.some((s, j) => j !== i && s?.player === t.seats[i]!.player)) t.seats[i] = { ...newcomer(k, null), stack: START_STACK };
    t.tourney = {
      id,
      levels,
      hands: 0,
      bounty: 0,
      over: false,
      record: {
        ...blankTournamentRecord(
          id,
          { name: `Sit & Go ${k.code} ${k.seats}`, variant: k.code, money: k.money, format: tr.chance(0.2) ? 'scheduled' : 'sit-and-go', kinds: bountyKind ? 'G' : '', buyIn, fee: buyIn / 10, entries: k.seats },
          t.at - 60_000 - tr.int(600_000),
        ),
        startedAt: t.at,
        spent: buyIn + buyIn / 10,
      },
    };
  };
  /** The hero's place and prize once out, alone, or at the hands' limit (ranked by stack then). */
  const finishTourney = (t: OpenTable): TournamentRecordView | null => {
    const x = t.tourney!;
    const me = t.seats[t.hero]!.stack;
    const others = t.seats.filter((s, i) => i !== t.hero && s !== null && s.stack > 0).map((s) => s!.stack);
    if (me > 0 && others.length > 0 && x.hands < MAX_TOURNAMENT_HANDS) return null;
    const place = me === 0 ? others.length + 1 : 1 + others.filter((s) => s > me).length;
    const r = x.record;
    const pool = r.entries * (r.kinds === 'G' ? (r.buyIn * 4) / 5 : r.buyIn);
    // The operator's payout (R-TOURN-RUN; shared/rules/tournament/payouts.ts), so a generated history
    // pays what a real sit & go of that field would.
    const prize = payout(pool, r.entries)[place - 1] ?? 0;
    return { ...r, endedAt: t.at, place, prize, bounties: x.bounty, hands: x.hands };
  };
  const openTable = (at: number): OpenTable => {
    if (share > 0 && tr.chance(share)) {
      const kind = pickKind();
      const t: OpenTable = { kind, id: '', run: '', handNo: 0, seats: Array.from({ length: kind.seats }, () => null), hero: r.int(kind.seats), button: r.int(kind.seats), at };
      startTourney(t);
      return t;
    }
    const kind = pickKind();
    const t: OpenTable = { kind, id: `${kind.name}-${1 + r.int(4)}`, run: (at + r.int(1e9)).toString(36), handNo: 0, seats: [], hero: r.int(kind.seats), button: r.int(kind.seats), at };
    for (let i = 0; i < kind.seats; i++) t.seats.push(i === t.hero ? { player: hero, stack: kind.buyIn } : kind.seats > 2 && r.chance(0.08) ? null : newcomer(kind, t));
    return t;
  };
  const nextTourneyHand = (t: OpenTable): GeneratedHand => {
    const x = t.tourney!;
    const level = Math.min(LEVEL_BB.length - 1, Math.floor(x.hands / HANDS_PER_LEVEL));
    const rules = x.levels[level];
    const size = t.kind.seats;
    const stud = rules.bringIn > 0;
    // Nobody is replaced in a tournament: a busted seat stays empty.
    for (let i = 0; i < size; i++) if (t.seats[i] !== null && t.seats[i]!.stack === 0) t.seats[i] = null;
    const occupied = t.seats.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
    const config: HandConfig = { rules, seats: t.seats.map((s) => (s ? { ...s } : null)), plan: nextPlan(t, occupied, stud), handId: `${x.id}-${++t.handNo}` };
    const final = player.play(config, t.seats[t.hero]!.stack < rules.bigBlind * 10 + rules.smallBet * 10);
    let busted = 0;
    for (let i = 0; i < size; i++) {
      const s = t.seats[i];
      if (!s) continue;
      if (i !== t.hero && s.stack > 0 && final.seats[i].stack === 0) busted++;
      s.stack = final.seats[i].stack;
    }
    x.hands++;
    const record = recordOf(viewFor(final, t.hero));
    // A bounty tournament pays a fifth of the buy-in for each player the hero knocks out (a hand the hero won).
    if (x.record.kinds === 'G' && busted > 0 && (record.seats.find((s) => s.seat === t.hero)?.net ?? 0) > 0) x.bounty += (busted * x.record.buyIn) / 5;
    t.at += 35_000 + r.int(30_000);
    const out: GeneratedHand = { meta: { playedAt: t.at, tableId: t.id, money: t.kind.money, heroSeat: t.hero, tournament: { tournamentId: x.id, level } }, record };
    const done = finishTourney(t);
    if (done !== null) {
      out.finished = done;
      if (t.at < (t.until ?? Infinity)) startTourney(t); // the table's next sit & go
      else x.over = true;
    }
    return out;
  };
  const nextHand = (t: OpenTable): GeneratedHand => {
    if (t.tourney !== undefined) return nextTourneyHand(t);
    const k = t.kind;
    const size = k.seats;
    const stud = k.rules.bringIn > 0;
    // Opponents come and go; busted players are replaced; the hero reloads when busted or far ahead.
    for (let i = 0; i < size; i++) {
      const s = t.seats[i];
      if (i === t.hero) {
        if (s!.stack === 0 || s!.stack > k.buyIn * 4) s!.stack = k.buyIn;
      } else if (s === null) {
        if (r.chance(0.05)) t.seats[i] = newcomer(k, t);
      } else if (s.stack === 0 || r.chance(0.02)) {
        t.seats[i] = size > 2 && r.chance(0.2) ? null : newcomer(k, t);
      }
    }
    let occupied = t.seats.map((s, i) => (s ? i : -1)).filter((i) => i >= 0);
    if (occupied.length < 2) {
      const i = (t.hero + 1) % size;
      t.seats[i] = newcomer(k, t);
      occupied = t.seats.map((s, j) => (s ? j : -1)).filter((j) => j >= 0);
    }
    const config: HandConfig = { rules: k.rules, seats: t.seats.map((s) => (s ? { ...s } : null)), plan: nextPlan(t, occupied, stud), handId: `${t.id}-${t.run}-${++t.handNo}` };
    const heroStack = t.seats[t.hero]!.stack;
    const final = player.play(config, heroStack < k.buyIn / 4);
    for (let i = 0; i < size; i++) {
      const s = t.seats[i];
      if (s) s.stack = final.seats[i].stack;
    }
    t.at += 35_000 + r.int(30_000);
    return { meta: { playedAt: t.at, tableId: t.id, money: k.money, heroSeat: t.hero }, record: recordOf(viewFor(final, t.hero)) };
  };

  // Sessions spread over the period, each 1 to 3 hours on 2 to 5 tables, until n hands.
  const hours = Math.max(1, Math.floor((end - start) / HOUR) - 3);
  const sessions = Math.max(1, Math.round(n / (3.5 * 2 * 70)));
  const starts = Array.from({ length: sessions }, () => start + r.int(hours) * HOUR + r.int(HOUR)).sort((a, b) => a - b);
  let made = 0;
  for (let s = 0; made < n; s++) {
    // More hands than the sessions hold: another round of the same days, a few hours later.
    const at = starts[s % sessions] + Math.floor(s / sessions) * 7 * HOUR;
    const until = Math.min(at + HOUR + r.int(2 * HOUR), end);
    const tables = Array.from({ length: 2 + r.int(4) }, () => openTable(at + r.int(60_000)));
    for (const t of tables) t.until = until;
    // A tournament started is played to its end (the hero's), after the session's end if need be.
    // Never past the period's end (a tournament still running then stays unfinished: no record).
    const playing = (t: OpenTable): boolean => (t.tourney === undefined ? t.at < until : !t.tourney.over && (t.at < until || t.tourney.hands > 0) && t.at + 65_000 <= end);
    for (let live = true; live && made < n; ) {
      live = false;
      for (const t of tables) {
        if (!playing(t) || made >= n) continue;
        live = true;
        yield nextHand(t);
        made++;
      }
    }
    if (tables.every((t) => t.handNo === 0) && at >= end) break; // nothing fits any more (a period too short)
  }
}
