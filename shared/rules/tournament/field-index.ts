/**
 * The running field's tables bucketed by player count ("Speed" in docs/tournaments.md):
 * whether anything must move (T 6-6, 6-8) in O(seats), and the plan of breaks and balancing moves made
 * from the buckets, without copying and sorting every table. At 30,000 players (3,300 tables) the
 * one-pass check and `fieldMoves` (shared/rules/tournament/field.ts) scanned, copied and sorted every
 * table after each hand that changed the counts: about 22 ms a hand.
 *
 * The moves are exactly `fieldMoves`'s for tables that all have `seats` seats (the operator's: a
 * tournament's tables are all alike); field-index.test.ts compares the two over random fields.
 */
import type { Move } from './field';

export class FieldIndex {
  /**
   * `buckets[n]`: the numbers of the tables with n players, ascending. A table's count is found in
   * them (a binary search per count, `countOf`), not kept in a map beside: the machine plans from a
   * new index after many of its events, and filling a map of every table was most of that (11,112
   * tables at 100,000 players).
   */
  private readonly buckets: number[][] = [];
  private tables = 0;
  private total = 0;

  constructor(private readonly seats: number) {
    if (!Number.isSafeInteger(seats) || seats < 2) throw new RangeError(`a table of ${seats} seats`);
  }

  /**
   * An index of the tables numbered in `bySize[n]` (ascending) having n players: the machine keeps
   * these lists in its state (machine/draft.ts) and plans from a copy, never reading every table.
   */
  static of(seats: number, bySize: readonly (readonly number[])[]): FieldIndex {
    const f = new FieldIndex(seats);
    bySize.forEach((b, n) => {
      while (f.buckets.length <= n) f.buckets.push([]);
      f.buckets[n] = b.slice();
      f.tables += b.length;
      f.total += n * b.length;
    });
    return f;
  }

  /** Tables in the field. */
  get size(): number {
    return this.tables;
  }

  /** Table `no`'s player count (undefined: not in the field). */
  private countOf(no: number): number | undefined {
    for (let n = 0; n < this.buckets.length; n++) {
      const b = this.buckets[n];
      if (b[lowerBound(b, no)] === no) return n;
    }
    return undefined;
  }

  /** Table `no` has `players` players now (a new table, or a count changed). */
  set(no: number, players: number): void {
    if (!Number.isSafeInteger(players) || players < 0) throw new RangeError(`table ${no}: ${players} players`);
    const was = this.countOf(no);
    if (was === players) return;
    if (was !== undefined) {
      this.take(was, no);
      this.total -= was;
    } else this.tables++;
    this.total += players;
    while (this.buckets.length <= players) this.buckets.push([]);
    const b = this.buckets[players];
    b.splice(lowerBound(b, no), 0, no);
  }

  /** Table `no` is closed. */
  remove(no: number): void {
    const was = this.countOf(no);
    if (was === undefined) return;
    this.take(was, no);
    this.total -= was;
    this.tables--;
  }

  /** Each table's count, by table number (tests compare it with the tables themselves). */
  entries(): [number, number][] {
    return this.buckets.flatMap((b, n) => b.map((no): [number, number] => [no, n])).sort((a, b) => a[0] - b[0]);
  }

  /**
   * Nothing to move: no table the players left no longer need (T 6-6), sizes within the gap (3, or
   * 2 late: T 6-8). What `fieldMoves` returning no move means, in O(seats).
   */
  settled(options: { late: boolean }): boolean {
    const count = this.tables;
    if (count === 0) return true;
    const closing = count > 1 && this.total <= (count - 1) * this.seats;
    return !closing && this.maxCount() - this.minCount() < (options.late ? 2 : 3);
  }

  /**
   * The moves `fieldMoves` makes of this field (same order, same tables): played on the buckets
   * themselves, then undone. Close the highest-numbered table while the others can seat everyone, each
   * of its players to the table with the fewest players (ties: the lowest number); then balance, from
   * the largest (ties: the highest number) to the smallest (ties: the lowest) while they differ by the gap.
   */
  plan(options: { late: boolean }): Move[] {
    const gap = options.late ? 2 : 3;
    const before = new Map<number, number>();
    const change = (no: number, players: number | null) => {
      if (!before.has(no)) before.set(no, this.countOf(no)!);
      if (players === null) this.remove(no);
      else this.set(no, players);
    };
    const moves: Move[] = [];
    try {
      while (this.tables > 1 && this.total <= (this.tables - 1) * this.seats) {
        const closing = this.highestTable();
        const players = this.countOf(closing)!;
        change(closing, null);
        for (let k = 0; k < players; k++) {
          const n = this.minCount();
          const to = this.buckets[n][0];
          change(to, n + 1);
          moves.push({ from: closing, to, why: 'break' });
        }
      }
      const total = this.total;
      for (let guard = 0; guard < total; guard++) {
        const hi = this.maxCount();
        const lo = this.minCount();
        if (hi - lo < gap) break;
        const big = this.buckets[hi][this.buckets[hi].length - 1];
        const small = this.buckets[lo][0];
        change(big, hi - 1);
        change(small, lo + 1);
        moves.push({ from: big, to: small, why: 'balance' });
      }
    } finally {
      // Undone: the plan is what the field would do; the counts change as the moves are made.
      // (A closed table is set back; `set` leaves alone a count the moves brought back to where it was.)
      for (const [no, players] of before) this.set(no, players);
    }
    return moves;
  }

  private take(players: number, no: number): void {
    const b = this.buckets[players];
    const i = lowerBound(b, no);
    if (b[i] !== no) throw new Error(`field index: table ${no} not among the tables of ${players}`);
    b.splice(i, 1);
  }

  private minCount(): number {
    for (let n = 0; n < this.buckets.length; n++) if (this.buckets[n].length > 0) return n;
    return 0;
  }

  private maxCount(): number {
    for (let n = this.buckets.length - 1; n >= 0; n--) if (this.buckets[n].length > 0) return n;
    return 0;
  }

  /** The highest table number (the next to close, T 6-6). */
  private highestTable(): number {
    let no = -Infinity;
    for (const b of this.buckets) if (b.length > 0 && b[b.length - 1] > no) no = b[b.length - 1];
    return no;
  }
}

/** The first index of sorted `a` whose value is not below `x`. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
