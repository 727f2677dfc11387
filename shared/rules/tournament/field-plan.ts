/**
 * The floor's plan of breaks and balancing moves (T 6-6 to 6-8) made from the tables' numbers by
 * player count, exactly the moves of `fieldMoves` (field.ts) and `FieldIndex.plan` (field-index.ts),
 * for the machine's floor (machine/floor.ts), which makes one from its state's counts after many
 * events. Every table a plan moves is the lowest or the highest number of its count: each count is
 * read from its sorted list by two ends that only close in, the tables a move brings to the count
 * kept in a short sorted list beside. `FieldIndex.plan` spliced the large sorted lists on every move
 * instead: at 100,000 entrants (11,112 tables) a plan of thousands of waiting moves copied millions
 * of numbers, after nearly every hand.
 */
import type { Move } from './field';

/** The tables of one count: `base` read from both ends, `added` the tables moved to it (sorted). */
class Count {
  private lo = 0;
  private hi: number;
  private readonly added: number[] = [];
  private head = 0;

  constructor(private readonly base: readonly number[]) {
    this.hi = base.length;
  }

  get size(): number {
    return this.hi - this.lo + this.added.length - this.head;
  }

  lowest(): number {
    const a = this.lo < this.hi ? this.base[this.lo] : Infinity;
    const b = this.head < this.added.length ? this.added[this.head] : Infinity;
    return a < b ? a : b;
  }

  highest(): number {
    const a = this.lo < this.hi ? this.base[this.hi - 1] : -Infinity;
    const b = this.head < this.added.length ? this.added[this.added.length - 1] : -Infinity;
    return a > b ? a : b;
  }

  takeLowest(): number {
    const no = this.lowest();
    if (this.lo < this.hi && this.base[this.lo] === no) this.lo++;
    else this.head++;
    return no;
  }

  takeHighest(): number {
    const no = this.highest();
    if (this.lo < this.hi && this.base[this.hi - 1] === no) this.hi--;
    else this.added.pop();
    return no;
  }

  add(no: number): void {
    const a = this.added;
    let i = a.length;
    // Tables arrive mostly in ascending order (each taken as the lowest of the count below).
    while (i > this.head && a[i - 1] > no) i--;
    a.splice(i, 0, no);
  }
}

/**
 * The moves of the field whose tables of `n` players are numbered `bySize[n]` (ascending, every table
 * with `seats` seats), in `fieldMoves`'s order: the highest-numbered table closes while the others can
 * seat everyone, each of its players to the table with the fewest players (ties: the lowest number);
 * then from the largest (ties: the highest number) to the smallest (ties: the lowest) while they
 * differ by the gap (3, or 2 late: T 6-8).
 */
export function planMoves(seats: number, bySize: readonly (readonly number[])[], options: { late: boolean }): Move[] {
  const counts: Count[] = [];
  let tables = 0;
  let total = 0;
  for (let n = 0; n <= seats + 1; n++) {
    const b = bySize[n] ?? [];
    counts.push(new Count(b));
    tables += b.length;
    total += n * b.length;
  }
  // The fewest players only grow and the most only shrink while a plan is made (a move takes a table
  // from the fewest up one, or from the most down one; a closed table leaves its count): each is
  // found by moving on from where it was, not by reading every count again for each move.
  let low = 0;
  let high = counts.length - 1;
  const fewest = () => {
    while (low < counts.length - 1 && counts[low].size === 0) low++;
    return low;
  };
  const most = () => {
    while (high > 0 && counts[high].size === 0) high--;
    return high;
  };
  const moves: Move[] = [];
  while (tables > 1 && total <= (tables - 1) * seats) {
    let players = -1;
    let closing = -Infinity;
    for (let n = 0; n < counts.length; n++) {
      const no = counts[n].highest();
      if (no > closing) [closing, players] = [no, n];
    }
    counts[players].takeHighest();
    tables--;
    total -= players;
    for (let k = 0; k < players; k++) {
      const n = fewest();
      const to = counts[n].takeLowest();
      counts[n + 1].add(to);
      total++;
      moves.push({ from: closing, to, why: 'break' });
    }
  }
  const gap = options.late ? 2 : 3;
  for (let guard = 0; guard < total; guard++) {
    const hi = most();
    const lo = fewest();
    if (hi - lo < gap) break;
    const big = counts[hi].takeHighest();
    const small = counts[lo].takeLowest();
    counts[hi - 1].add(big);
    counts[lo + 1].add(small);
    moves.push({ from: big, to: small, why: 'balance' });
  }
  return moves;
}
