/**
 * R-ELIM's check on a finished tournament's places: every place from 1 to N covered exactly once,
 * players tied on one hand (same stack at its start, T 8-16) sharing the places they cover, each
 * holding the first of them. null when they do; else what is wrong. Used by the tests and by a back
 * office reading the store.
 */
export function placesProblem(places: readonly (number | null)[]): string | null {
  const sorted = [...places].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  let next = 1;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    if (sorted[i] !== next) return `place ${String(sorted[i])} where ${next} was due`;
    next += j - i;
    i = j;
  }
  return next === places.length + 1 ? null : `places cover ${next - 1} of ${places.length}`;
}

/**
 * Players busted during one hand-for-hand round, at any of its tables, ranked together by their stack
 * at the start of that hand (R-TOURN-RUN, T 8-16): the groups the worst first, equal stacks one group
 * (they share the places they cover and their prizes), each group in the order the players came in.
 */
export function roundGroups<T>(busts: readonly { who: T; stack: number }[]): T[][] {
  const byStack = new Map<number, T[]>();
  for (const b of busts) byStack.set(b.stack, [...(byStack.get(b.stack) ?? []), b.who]);
  return [...byStack.keys()].sort((a, b) => a - b).map((k) => byStack.get(k)!);
}
