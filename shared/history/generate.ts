/**
 * Realistic hand histories, as a player's client stores them (issue 6; DESIGN.md §5): a period of
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
import type { Card } from '../rules/cards';
import { apply, legalActions, reshuffleCards, startHand, viewFor } from '../rules/engine';
import type { Action, HandConfig, HandState, LegalActions } from '../rules/engine';
import { recordOf, type HandRecord } from '../rules/record';
import { makeTableRules, type TableRules } from '../rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../rules/variants';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** What the store needs besides the record (electron/services/history/store.ts `HandMeta`). */
export interface GeneratedMeta {
  playedAt: number;
  tableId: string;
  money: 'real' | 'play';
  heroSeat: number;
}

export interface GeneratedHand {
  meta: GeneratedMeta;
  record: HandRecord;
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
      if (!r.ok) throw new Error(`${r.rule}: ${r.reason}`);
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

interface OpenTable {
  kind: TableKind;
  id: string;
  run: string;
  handNo: number;
  /** null: an empty seat. */
  seats: ({ player: string; stack: number } | null)[];
  hero: number;
  button: number;
  at: number;
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
  const openTable = (at: number): OpenTable => {
    const kind = pickKind();
    const t: OpenTable = { kind, id: `${kind.name}-${1 + r.int(4)}`, run: (at + r.int(1e9)).toString(36), handNo: 0, seats: [], hero: r.int(kind.seats), button: r.int(kind.seats), at };
    for (let i = 0; i < kind.seats; i++) t.seats.push(i === t.hero ? { player: hero, stack: kind.buyIn } : kind.seats > 2 && r.chance(0.08) ? null : newcomer(kind, t));
    return t;
  };
  const nextHand = (t: OpenTable): GeneratedHand => {
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
    let plan: HandConfig['plan'];
    if (stud) {
      plan = { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: occupied };
    } else {
      do t.button = (t.button + 1) % size;
      while (t.seats[t.button] === null);
      const order = occupied.filter((i) => i > t.button).concat(occupied.filter((i) => i <= t.button));
      // T 6-19: heads-up the button posts the small blind.
      plan =
        order.length === 2
          ? { button: t.button, smallBlind: t.button, bigBlind: order[0], extraBigBlinds: [], deadSmallBlinds: [], dealtIn: order }
          : { button: t.button, smallBlind: order[0], bigBlind: order[1], extraBigBlinds: [], deadSmallBlinds: [], dealtIn: order };
    }
    const config: HandConfig = { rules: k.rules, seats: t.seats.map((s) => (s ? { ...s } : null)), plan, handId: `${t.id}-${t.run}-${++t.handNo}` };
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
    for (let live = true; live && made < n; ) {
      live = false;
      for (const t of tables) {
        if (t.at >= until || made >= n) continue;
        live = true;
        yield nextHand(t);
        made++;
      }
    }
    if (tables.every((t) => t.handNo === 0) && at >= end) break; // nothing fits any more (a period too short)
  }
}
