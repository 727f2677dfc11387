/**
 * The history list draws only the rows in view (fixed row height), so a million stored hands cost
 * what a screenful does; it asks for the next page when the view comes near the end of what is loaded.
 */

export interface Window {
  /** First row drawn (inclusive) and last (exclusive). */
  start: number;
  end: number;
  /** Pixels above the first row drawn (its offset in the scrolled box). */
  offset: number;
  /** Height of the whole list, in pixels. */
  height: number;
}

/** Rows to draw for a box scrolled to `scrollTop` showing `viewport` pixels, with `overscan` rows either side. */
export function visibleWindow(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 6): Window {
  const height = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offset: 0, height: 0 };
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, height - viewport)));
  const first = Math.floor(top / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, Math.ceil((top + Math.max(viewport, 0)) / rowHeight) + overscan);
  return { start, end: Math.max(start, end), offset: start * rowHeight, height };
}

/** Whether to fetch the next page: more exists, none is loading, and the view is within `ahead` rows of the end. */
export function wantsMore(w: Window, count: number, hasMore: boolean, loading: boolean, ahead = 40): boolean {
  return hasMore && !loading && w.end + ahead >= count;
}

/** The scroll position that brings row `index` into a box of `viewport` pixels (unchanged if already in view). */
export function scrollToRow(index: number, scrollTop: number, viewport: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return top + rowHeight - viewport;
  return scrollTop;
}
