/**
 * A multi-table tournament's field (R-TOURN-RUN): how many tables, the initial random draw
 * (R-RANDSEAT), which tables close and in what order (T 6-6), balancing (T 6-8) and hand-for-hand
 * play on the bubble. Which player moves and where they sit at the new table are the table's
 * choices (shared/rules/table/balancing.ts, T 6-9 to 6-11).
 *
 * Pure: the caller supplies the random numbers (the operator's CSPRNG; a seeded one in tests).
 */

/** A table in play: its number (tables close highest number first, T 6-6), its players and seats. */
export interface FieldTable {
  readonly table: number;
  readonly players: number;
  readonly seats: number;
}

/** Tables needed for `players` at tables of `seats`. */
export function tablesNeeded(players: number, seats: number): number {
  return players <= 0 ? 0 : Math.ceil(players / seats);
}

/**
 * The initial draw (R-RANDSEAT): the players spread over the fewest tables, as evenly as can be
 * (sizes differ by at most one), each player at a random table and seat. `random(n)` returns an
 * integer in [0, n). Returns, for each player in order, `[table index, seat]`.
 */
export function drawSeats(players: number, seats: number, random: (n: number) => number): [number, number][] {
  const tables = tablesNeeded(players, seats);
  // Every (table, seat) place of an even spread: the first `players % tables` tables get one more.
  const places: [number, number][] = [];
  const base = Math.floor(players / Math.max(1, tables));
  const extra = players - base * tables;
  for (let t = 0; t < tables; t++) {
    const size = base + (t < extra ? 1 : 0);
    // Which seats of the table are used: a random choice of `size` among `seats`.
    const free = Array.from({ length: seats }, (_, s) => s);
    for (let k = 0; k < size; k++) {
      const j = k + random(seats - k);
      [free[k], free[j]] = [free[j], free[k]];
      places.push([t, free[k]]);
    }
  }
  // Then a random permutation of the places over the players (Fisher-Yates).
  for (let i = places.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [places[i], places[j]] = [places[j], places[i]];
  }
  return places;
}

/** One move of a player to another table: closing a table, or balancing (T 6-7 tells them apart). */
export interface Move {
  readonly from: number;
  readonly to: number;
  readonly why: 'break' | 'balance';
}

/**
 * What the field does between hands: close tables the remaining players no longer need, in the
 * pre-set order (highest table number first, T 6-6), their players going to the tables with the most
 * free seats; then balance: while the largest table has `gap` players more than the smallest (3, or 2
 * late in the tournament: T 6-8), one player goes from the largest to the smallest (ties: the higher
 * table number gives, the lower receives). The moves are returned in order; applied one by one they
 * leave at most `tablesNeeded` tables with sizes within `gap - 1`.
 */
export function fieldMoves(tables: readonly FieldTable[], options: { late: boolean }): Move[] {
  const gap = options.late ? 2 : 3;
  const live = tables.map((t) => ({ ...t })).sort((a, b) => a.table - b.table);
  const total = live.reduce((a, t) => a + t.players, 0);
  const seats = live.length > 0 ? live[0].seats : 0;
  const moves: Move[] = [];
  // Close: the remaining players fit at one table fewer (T 6-6).
  while (live.length > 1 && total <= (live.length - 1) * seats) {
    const closing = live.pop()!;
    for (let k = 0; k < closing.players; k++) {
      const to = live.reduce((best, t) => (t.seats - t.players > best.seats - best.players || (t.seats - t.players === best.seats - best.players && t.players < best.players) ? t : best));
      to.players++;
      moves.push({ from: closing.table, to: to.table, why: 'break' });
    }
  }
  // Balance (T 6-8).
  for (let guard = 0; guard < total; guard++) {
    let big = live[0];
    let small = live[0];
    for (const t of live) {
      if (t.players > big.players || (t.players === big.players && t.table > big.table)) big = t;
      if (t.players < small.players || (t.players === small.players && t.table < small.table)) small = t;
    }
    if (big.players - small.players < gap) break;
    big.players--;
    small.players++;
    moves.push({ from: big.table, to: small.table, why: 'balance' });
  }
  return moves;
}

/**
 * Hand-for-hand (R-TOURN-RUN: no one gains by stalling near the money): from when one more
 * elimination puts the remaining players in the money, every table deals its next hand only when all
 * the tables have finished theirs, until the money is reached. Only meaningful with several tables.
 */
export function handForHand(remaining: number, paid: number, tables: number): boolean {
  return tables > 1 && paid > 0 && remaining === paid + 1;
}
