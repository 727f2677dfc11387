/**
 * Whether a table tile can be read, from measured boxes (pure: the browser flow measures, this
 * judges). A tile is readable when none of its parts (hole cards, board, pot, seat plates, hand
 * strength, action buttons) lies on another or leaves the tile, no text is under 11 px and no card
 * is under 30 × 42 px (the floor the tiles keep instead of shrinking: MIN_TILE in renderer/src/tiling.ts).
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A part of a tile, named as the report will name it (its test id). */
export interface Part extends Rect {
  name: string;
}

export interface TileMeasure {
  /** The tile's name (its test id). */
  tile: string;
  box: Rect;
  /** Parts that must neither lie on one another nor leave the tile. */
  parts: Part[];
  /** Every piece of visible text in the tile, with its computed font size in px. */
  texts: { name: string; px: number }[];
  /** Every card drawn in the tile. */
  cards: Part[];
}

export const LIMITS = { minTextPx: 11, minCard: { width: 30, height: 42 } };

/** Sub-pixel rounding: boxes that only touch, or are flush with the tile's edge, pass. */
const EPS = 0.5;

/** The area two rects share, in px² (0 when they only touch). */
export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > EPS && h > EPS ? w * h : 0;
}

/** Whether `inner` lies inside `outer`. */
export function inside(inner: Rect, outer: Rect): boolean {
  return inner.x >= outer.x - EPS && inner.y >= outer.y - EPS && inner.x + inner.width <= outer.x + outer.width + EPS && inner.y + inner.height <= outer.y + outer.height + EPS;
}

const r = (n: number): number => Math.round(n);
const show = (p: Rect): string => `${r(p.width)}×${r(p.height)} at ${r(p.x)},${r(p.y)}`;

/** Every way the tile cannot be read, one line each; empty when it can. */
export function layoutProblems(m: TileMeasure, limits = LIMITS): string[] {
  const out: string[] = [];
  const parts = m.parts.filter((p) => p.width > 0 && p.height > 0);
  for (let i = 0; i < parts.length; i++) {
    if (!inside(parts[i], m.box)) out.push(`${m.tile}: ${parts[i].name} (${show(parts[i])}) leaves the tile (${show(m.box)})`);
    for (let j = i + 1; j < parts.length; j++) {
      const area = overlapArea(parts[i], parts[j]);
      if (area > 0) out.push(`${m.tile}: ${parts[i].name} and ${parts[j].name} overlap (${r(area)} px²)`);
    }
  }
  for (const t of m.texts) if (t.px < limits.minTextPx) out.push(`${m.tile}: text "${t.name}" at ${t.px} px, under ${limits.minTextPx} px`);
  for (const c of m.cards) {
    if (c.width < limits.minCard.width - EPS || c.height < limits.minCard.height - EPS) out.push(`${m.tile}: card ${c.name} ${r(c.width)}×${r(c.height)} px, under ${limits.minCard.width}×${limits.minCard.height}`);
  }
  return out;
}
