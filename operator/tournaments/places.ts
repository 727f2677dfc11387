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
