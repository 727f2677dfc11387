/**
 * The floor (R-TOURN-RUN, T 1-4, T 6-6 to 6-11): the start's draw, late and returning players'
 * seats, tables broken and balanced between hands, the final table's redraw, and which tables may
 * deal (hand-for-hand on the bubbles). Works on a Draft; emits seat, table and deal effects.
 */
import { drawSeats } from '../field';
import type { Move } from '../field';
import { planMoves } from '../field-plan';
import { clockAt } from '../structure';
import { entrantIds } from './buckets';
import { seatedCount, withoutBlinds, type Draft } from './draft';
import { bubbles } from './pool';
import { tablesWith } from './sizes';
import type { SeatWhy, Table, TablesBySize } from './types';

const seated = seatedCount;

/**
 * Nothing to break or balance (T 6-6, 6-8), read from the count of tables by size in O(seats): the
 * plan (`fieldMoves`, every table read) is made only when something must move.
 */
function settled(d: Draft): boolean {
  const sizes = d.s.sizes;
  let count = 0;
  let min = -1;
  let max = -1;
  sizes.forEach((n, k) => {
    if (n === 0) return;
    count += n;
    if (min < 0) min = k;
    max = k;
  });
  if (count <= 1) return true;
  if (breakDue(d)) return false;
  return max - min < (count <= d.s.options.lateTables ? 2 : 3);
}

/** One table fewer can seat everyone (T 6-6): a table is to close. */
function breakDue(d: Draft): boolean {
  let count = 0;
  let total = 0;
  d.s.sizes.forEach((n, k) => {
    count += n;
    total += n * k;
  });
  return count > 1 && total <= (count - 1) * d.s.spec.seats;
}

function openTable(d: Draft): Table {
  const no = d.s.nextTable;
  d.s.nextTable = no + 1;
  const t: Table = { no, seats: new Array<number | null>(d.s.spec.seats).fill(null), bigBlind: null, inHand: false };
  d.setTable(no, t);
  d.emit({ kind: 'openTable', table: no });
  return t;
}

function place(d: Draft, id: number, table: number, seat: number, why: SeatWhy): void {
  const e = d.entrant(id);
  const from = e.table;
  if (from !== null) {
    const f = d.table(from)!;
    d.setTable(from, { ...f, seats: f.seats.map((x) => (x === id ? null : x)) });
  }
  const t = d.table(table)!;
  if (t.seats[seat] !== null) throw new Error(`${d.s.spec.id}: table ${table} seat ${seat} is taken`);
  d.setTable(table, { ...t, seats: t.seats.map((x, i) => (i === seat ? id : x)) });
  d.set(id, { table, seat });
  // The time bank left at the last table goes with the player (none reported: the table's own).
  const bank = e.timeBank === undefined ? {} : { timeBank: e.timeBank };
  d.emit({ kind: 'seat', accountId: id, table, seat, stack: e.stack, why, from: from === t.no ? null : from, ...bank });
}

/** R-RANDSEAT, T 1-4: every player drawn to a table and seat, the fewest tables, sizes within one. */
export function drawStart(d: Draft): void {
  const ids = entrantIds(d.s);
  const draw = drawSeats(ids.length, d.s.spec.seats, (n) => d.random(n));
  const tables: number[] = [];
  ids.forEach((id, i) => {
    const [ti, seat] = draw[i];
    while (tables.length <= ti) tables.push(openTable(d).no);
    place(d, id, tables[ti], seat, 'start');
  });
}

/**
 * T 6-10: a player moved to balance sits in the free seat nearest the big blind's left, never the
 * small blind; counted from the big blind of the hand in play when the table is in a hand (its last
 * hand's otherwise). Between hands the last big blind's seat is the next small blind's: tried last
 * (shared/rules/table/balancing.ts reads it the same way). Without a big blind known, a random free seat.
 */
export function worstSeat(d: Draft, t: Table): number {
  const free = t.seats.flatMap((x, i) => (x === null ? [i] : []));
  if (t.bigBlind === null) return free[d.random(free.length)];
  const n = t.seats.length;
  for (let k = 1; k <= n; k++) {
    const i = (t.bigBlind + k) % n;
    if (t.seats[i] === null) return i;
  }
  throw new Error(`${d.s.spec.id}: table ${t.no} is full`);
}

/** A late or returning player: at the table with the fewest players, a new table if all are full. */
export function seatLate(d: Draft, id: number, why: SeatWhy): void {
  const open = d.tableList().filter((t) => seated(t) < t.seats.length);
  open.sort((a, b) => seated(a) - seated(b) || a.no - b.no);
  const t = open[0] ?? openTable(d);
  const free = t.seats.flatMap((x, i) => (x === null ? [i] : []));
  place(d, id, t.no, free[d.random(free.length)], why);
}

/** The first player in (not deciding a rebuy) seated at `from` or after it, clockwise. */
function firstFrom(d: Draft, t: Table, from: number): number {
  const n = t.seats.length;
  for (let k = 0; k < n; k++) {
    const id = t.seats[(from + k + n) % n];
    if (id !== null && d.entrant(id).status === 'in') return id;
  }
  throw new Error(`${d.s.spec.id}: table ${t.no} has nobody to move`);
}

/** The player a balancing move takes (T 6-9): the next big blind, the first seated after the big blind. */
const nextBigBlind = (d: Draft, t: Table): number => firstFrom(d, t, (t.bigBlind ?? -1) + 1);

/**
 * T 6-9 and 6-10 in a game without blinds (Stud, Razz, Stud Hi-Lo): the regulation names the big
 * blind only, so Cercle takes the TDA's reading for stud-only events, "players are moved by position
 * (the last seat to open at the short table is the seat filled)": the seat filled is the last one to
 * open at the receiving table (a free seat never taken since the draw: drawn, as T 6-11's seats), and
 * the player moved is the one in that position at the giving table (the next one clockwise when that
 * seat is empty there), so their place in the order of the next hand's dealing does not change.
 */
function studMove(d: Draft, from: Table, to: Table): { id: number; seat: number } {
  const opened = (to.opened ?? []).filter((i) => to.seats[i] === null);
  const free = to.seats.flatMap((x, i) => (x === null ? [i] : []));
  const seat = opened.length > 0 ? opened[opened.length - 1] : free[d.random(free.length)];
  return { id: firstFrom(d, from, seat), seat };
}

/**
 * The plan of a state's counts by size (`planMoves`), kept while those counts are the same object: a
 * count changing copies them (sizes.ts), so an event that changed none (most hands' ends) plans from
 * the same ones. Counts this event changed are its own, still edited in place: planned, never kept.
 * A cache of a pure function: no state reads it, none is changed by it.
 */
const plans = new WeakMap<TablesBySize, { seats: number; late: boolean; moves: readonly Move[] }>();

function planOf(d: Draft, late: boolean): readonly Move[] {
  const bySize = d.s.bySize;
  const seats = d.s.spec.seats;
  if (d.countsChanged) return planMoves(seats, bySize.map((_, k) => tablesWith(bySize, k)), { late });
  const known = plans.get(bySize);
  if (known && known.seats === seats && known.late === late) return known.moves;
  const moves = planMoves(seats, bySize.map((_, k) => tablesWith(bySize, k)), { late });
  plans.set(bySize, { seats, late, moves });
  return moves;
}

/**
 * Tables broken and balanced (T 6-6 to 6-11; field.ts `fieldMoves`): a player leaves a table only
 * when it is between hands (a table in a hand gives its player when the hand ends); a broken table's
 * players are drawn to free seats (T 6-11), a balanced one takes the worst seat (T 6-10). When one
 * table is left of several, its seats are drawn again (T 1-4).
 */
export function rebalance(d: Draft): void {
  if (d.s.phase !== 'running') return;
  const wait = d.s.floorWait;
  // Nothing new since the plan last waited: the same counts, no table waited for touched, and no free
  // table that could give a balancing player or be broken in place of a table in a hand.
  if (wait && wait.sizes.every((n, k) => d.s.sizes[k] === n) && (allBusy(d) || (!touchedAny(d, wait.tables) && !freedLargest(d) && !breakDue(d)))) return;
  d.s.floorWait = null;
  // The plan is made from every table's count, then its moves are made in order, a move from a table
  // in a hand (or where someone decides a rebuy) left for when that table is free; made again while
  // moves were made and the field is still not settled (a skipped move changes the ones after it).
  for (let pass = 0; pass < 4 && !settled(d); pass++) {
    const late = d.s.sizes.reduce((a, n) => a + n, 0) <= d.s.options.lateTables;
    // The plan from the tables' numbers by size (field-plan.ts: `fieldMoves`'s moves, every table unread).
    const waiting = new Set<number>();
    if (runPlan(d, planOf(d, late), waiting) === 0) {
      // A copy: the event's later changes edit its own counts in place (sizes.ts).
      d.s.floorWait = { sizes: [...d.s.sizes], tables: [...waiting].sort((a, b) => a - b) };
      break;
    }
  }
  finalRedraw(d);
}

/**
 * The plan's moves made in order; the number made. A move from a table in a hand (or where someone
 * decides a rebuy) is left for when that table is free (`waiting`), unless a table this event freed
 * can stand in: the pass ends once a table closed in place of a planned one (the plan is
 * then made again from the new counts).
 */
function runPlan(d: Draft, moves: readonly Move[], waiting: Set<number>): number {
  // The tables this event left free, read once until a move changes them (`freeGiver`).
  let givers: Table[] | null = null;
  let made = 0;
  const runs = breakRuns(moves);
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    // A broken table's moves come together: once it waits, the rest of them wait too (skipped at once).
    if (m.why === 'break' && waiting.has(m.from)) {
      i = runs[i] - 1;
      continue;
    }
    let from = d.table(m.from);
    const to = d.table(m.to);
    if (!from || !to || to.seats.every((x) => x !== null)) continue;
    // Nobody leaves a table in a hand, nor one where a player decides a rebuy (T 5-3: the seat is kept).
    if (from.inHand || !tableMovable(d, from) || waiting.has(m.from)) {
      givers ??= freeTables(d);
      if (m.why === 'break') {
        // Our T 6-6 procedure: the table that closes is the highest-numbered one between hands. The
        // planned one (the highest number) is in a hand: the highest-numbered table this event freed
        // closes now instead. Waiting for the planned one lets the tables to close pile up on a large
        // field where nearly every table is in a hand (thousands at 100,000 entrants), the field
        // playing short-handed meanwhile.
        const sub = highestFree(givers, waiting);
        if (sub) {
          breakTable(d, sub);
          return made + 1;
        }
        waiting.add(m.from);
        continue;
      }
      // A balancing move may come from any table of the giver's size (T 6-8 names no table): one this
      // event freed (its hand just ended) gives instead. Without it, on a large field where nearly every
      // table is in a hand, the planned giver is almost never free and the imbalance only grows.
      const alt = freeGiver(givers, seated(from), to.no, waiting);
      if (!alt) {
        waiting.add(m.from);
        continue;
      }
      from = alt;
    }
    if (!makeMove(d, m.why, from, to)) continue;
    givers = null;
    made++;
    const left = d.table(from.no)!;
    if (seated(left) === 0) closeTable(d, left.no);
  }
  return made;
}

/**
 * One player moved from `from` to `to`: from a broken table to a seat drawn among the free ones
 * (T 6-11), for balance the player next to be big blind to the worst seat (T 6-10), or in Stud by
 * position (no blinds). False when a broken table has nobody left in to move.
 */
function makeMove(d: Draft, why: Move['why'], from: Table, to: Table): boolean {
  if (why === 'break') {
    const id = from.seats.find((x): x is number => x !== null && d.entrant(x).status === 'in');
    if (id === undefined) return false;
    const free = to.seats.flatMap((x, i) => (x === null ? [i] : []));
    place(d, id, to.no, free[d.random(free.length)], 'broken');
  } else if (withoutBlinds(d.s.spec)) {
    const mv = studMove(d, from, to);
    place(d, mv.id, to.no, mv.seat, 'balance');
  } else {
    place(d, nextBigBlind(d, from), to.no, worstSeat(d, to), 'balance');
  }
  return true;
}

/** The end of each move's run of breaks of one table (the index after it); a balancing move's own. */
const runEnds = new WeakMap<readonly Move[], Int32Array>();

function breakRuns(moves: readonly Move[]): Int32Array {
  let ends = runEnds.get(moves);
  if (ends) return ends;
  ends = new Int32Array(moves.length);
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    const next = moves[i + 1];
    ends[i] = m.why === 'break' && next?.why === 'break' && next.from === m.from ? ends[i + 1] : i + 1;
  }
  runEnds.set(moves, ends);
  return ends;
}

/** This event touched one of `sorted` (ascending): read from the event's few tables, not the list. */
function touchedAny(d: Draft, sorted: readonly number[]): boolean {
  for (const no of d.touched) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < no) lo = mid + 1;
      else hi = mid;
    }
    if (sorted[lo] === no) return true;
  }
  return false;
}

/**
 * Every table this event touched is in a hand or has a player deciding a rebuy (a hand started): the
 * counts being the same, no move waited for can be made and no table may give instead, so the plan
 * would wait for the same tables again. On a large field most events are such, and many touch a table
 * waited for.
 */
function allBusy(d: Draft): boolean {
  for (const no of d.touched) {
    const t = d.table(no);
    if (t && !t.inHand && tableMovable(d, t)) return false;
  }
  return true;
}

/** A table of the largest size that this event left free (it may give instead of a giver waited for). */
function freedLargest(d: Draft): boolean {
  let largest = d.s.sizes.length - 1;
  while (largest > 0 && d.s.sizes[largest] === 0) largest--;
  for (const no of d.touched) {
    const t = d.table(no);
    if (t && !t.inHand && seated(t) === largest && tableMovable(d, t)) return true;
  }
  return false;
}

/** The tables this event touched that may give a player now, in the order it touched them. */
function freeTables(d: Draft): Table[] {
  const out: Table[] = [];
  for (const no of d.touched) {
    const t = d.table(no);
    if (t && !t.inHand && tableMovable(d, t)) out.push(t);
  }
  return out;
}

/** Of the free tables, the first with `players` seated, not `to` nor one waited for. */
function freeGiver(free: readonly Table[], players: number, to: number, waiting: ReadonlySet<number>): Table | undefined {
  return free.find((t) => t.no !== to && !waiting.has(t.no) && seated(t) === players);
}

/** Of the free tables, the one with the highest number that is not waited for. */
function highestFree(free: readonly Table[], waiting: ReadonlySet<number>): Table | undefined {
  let best: Table | undefined;
  for (const t of free) if (!waiting.has(t.no) && (best === undefined || t.no > best.no)) best = t;
  return best;
}

/**
 * Table `t` closes now (T 6-6, 6-11): each of its players, in seat order, goes to the table with the
 * fewest players (ties: the lowest number), to a seat drawn among its free ones, as `fieldMoves`
 * sends a planned break's players.
 */
function breakTable(d: Draft, t: Table): void {
  for (const id of t.seats) {
    if (id === null) continue;
    const to = fewestSeated(d, t.no);
    const free = to.seats.flatMap((x, i) => (x === null ? [i] : []));
    place(d, id, to.no, free[d.random(free.length)], 'broken');
  }
  closeTable(d, t.no);
}

/** The table with the fewest players but `except` (ties: the lowest number), read from the counts by size. */
function fewestSeated(d: Draft, except: number): Table {
  const bySize = d.s.bySize;
  for (let k = 0; k < d.s.spec.seats; k++) {
    if (d.s.sizes[k] === 0) continue;
    for (const c in bySize[k]) for (const no of bySize[k][c]) if (no !== except) return d.table(no)!;
  }
  throw new Error(`${d.s.spec.id}: no table has a free seat for a broken table's player`);
}

/** A table whose players may be moved: between hands, nobody there deciding a rebuy. */
function tableMovable(d: Draft, t: Table): boolean {
  return t.seats.every((x) => x === null || d.entrant(x).status === 'in');
}

export function closeTable(d: Draft, no: number): void {
  d.setTable(no, null);
  d.s.round = { ...d.s.round, tables: d.s.round.tables.filter((x) => x !== no) };
  d.emit({ kind: 'closeTable', table: no });
}

/** T 1-4: the final table's seats are drawn again, once, when the last other table has broken. */
function finalRedraw(d: Draft): void {
  if (d.s.finalDrawn || d.s.nextTable <= 2 || d.s.sizes.reduce((a, n) => a + n, 0) !== 1) return;
  const t = d.tableList()[0];
  if (t.inHand || !tableMovable(d, t)) return;
  d.s.finalDrawn = true;
  const ids = t.seats.filter((x): x is number => x !== null);
  const seats = Array.from({ length: t.seats.length }, (_, i) => i);
  for (let i = seats.length - 1; i > 0; i--) {
    const j = d.random(i + 1);
    [seats[i], seats[j]] = [seats[j], seats[i]];
  }
  // Everyone stands, then sits at their drawn seat; the button is drawn with the seats (bigBlind unknown).
  d.setTable(t.no, { ...t, seats: new Array<number | null>(t.seats.length).fill(null), bigBlind: null });
  for (const id of ids) d.set(id, { table: null, seat: null });
  ids.forEach((id, i) => place(d, id, t.no, seats[i], 'final'));
}

/**
 * Which tables may deal now (R-TOURN-RUN): none on a break; in hand-for-hand, the round's tables that
 * have not played its hand, a new round once every table has; else every table between hands with two
 * players in and nobody deciding a rebuy.
 */
export function dealable(d: Draft): number[] {
  const s = d.s;
  if (s.phase !== 'running' || clockAt(s.spec.structure, s.elapsed).onBreak) return [];
  const ready = (t: Table | undefined): t is Table => t !== undefined && !t.inHand && tableMovable(d, t) && seated(t) >= 2;
  const tableCount = s.sizes.reduce((a, n) => a + n, 0);
  const hfh = tableCount > 1 && bubbles(s).includes(s.remaining);
  if (hfh !== s.round.on) d.emit({ kind: 'notice', notice: { type: 'handForHand', on: hfh } });
  if (!hfh && s.round.tables.length === 0) {
    // Out of hand-for-hand: the tables this event changed, or all of them after a round or a break.
    const all = d.dealAll || s.round.on;
    s.round = { ...s.round, on: false };
    const nos = all ? d.tableList().map((t) => t.no) : [...d.touched].sort((a, b) => a - b);
    return nos.filter((no) => ready(d.table(no)));
  }
  if (s.round.tables.length === 0) {
    const tables = d.tableList();
    if (tables.some((t) => t.inHand)) {
      s.round = { ...s.round, on: hfh };
      return [];
    }
    s.round = { ...s.round, on: true, tables: tables.filter(ready).map((t) => t.no) };
    return s.round.tables.slice();
  }
  s.round = { ...s.round, on: hfh || s.round.on };
  return s.round.tables.filter((no) => ready(d.table(no)));
}

/**
 * May table `no` deal its next hand now: between hands with two players in and nobody deciding a
 * rebuy, not on a break, and in hand-for-hand one of the round's tables that has not played its hand.
 */
export function mayDeal(d: Draft, no: number): boolean {
  const s = d.s;
  const t = d.table(no);
  if (s.phase !== 'running' || clockAt(s.spec.structure, s.elapsed).onBreak) return false;
  if (!t || t.inHand || !tableMovable(d, t) || seated(t) < 2) return false;
  if (s.round.tables.length > 0) return s.round.tables.includes(no);
  const tableCount = s.sizes.reduce((a, n) => a + n, 0);
  // A round about to start waits for every table in a hand (settle starts it when they have ended).
  return !(tableCount > 1 && bubbles(s).includes(s.remaining));
}
