/**
 * R-ELIM, T 8-16: players eliminated on the same hand are ranked by their stack at the start of that
 * hand, the larger stack ranking higher (finishing in the better place).
 *
 * Ties (equal starting stacks) are not settled by T 8-16; we follow the TDA practice it is compiled
 * from: such players tie for the places they cover (they share them, and their prizes), so they are
 * returned together in one group. Within a group the input order is kept (it carries no meaning).
 */
export interface BustedPlayer {
  id: string;
  /** Chips at the start of the hand in which they were eliminated. */
  stackAtStart: number;
}

/**
 * The busted players in finishing order, best first, as groups of players tied for the same
 * places. With 5 players left after the hand, `[[a], [b, c]]` means a finishes 6th and b and c
 * share 7th and 8th.
 */
export function eliminationOrder(busted: readonly BustedPlayer[]): string[][] {
  const sorted = busted
    .map((b, i) => ({ ...b, i }))
    .sort((x, y) => y.stackAtStart - x.stackAtStart || x.i - y.i);
  const groups: string[][] = [];
  let previous: number | null = null;
  for (const b of sorted) {
    if (previous !== null && b.stackAtStart === previous) groups[groups.length - 1].push(b.id);
    else groups.push([b.id]);
    previous = b.stackAtStart;
  }
  return groups;
}
