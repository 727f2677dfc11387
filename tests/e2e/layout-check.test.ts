import { describe, expect, it } from 'vitest';
import { inside, layoutProblems, overlapArea, type TileMeasure } from './layout-check';

const tile = { x: 0, y: 0, width: 600, height: 300 };
const readable = (): TileMeasure => ({
  tile: 'tile-t',
  box: tile,
  parts: [
    { name: 'board', x: 220, y: 120, width: 160, height: 42 },
    { name: 'pot', x: 260, y: 95, width: 80, height: 18 },
    { name: 'seat-plate-0', x: 250, y: 250, width: 100, height: 40 },
    { name: 'hole-cards', x: 265, y: 205, width: 62, height: 44 },
    { name: 'action-fold', x: 480, y: 260, width: 100, height: 30 },
  ],
  texts: [{ name: 'practice-01', px: 12 }],
  cards: [{ name: 'A♠', x: 220, y: 120, width: 30, height: 42 }],
});

describe('layoutProblems', () => {
  it('passes a readable tile, parts that only touch included', () => {
    const m = readable();
    // The pot's bottom edge on the board's top edge, a plate flush with the tile's bottom.
    m.parts.push({ name: 'touching', x: 200, y: 162, width: 20, height: 10 });
    expect(layoutProblems(m)).toEqual([]);
  });

  it('finds hole cards on the board', () => {
    const m = readable();
    m.parts[3] = { ...m.parts[3], y: 150 };
    expect(layoutProblems(m)).toEqual(['tile-t: board and hole-cards overlap (744 px²)']);
  });

  it('finds a plate on a button, and a button out of its tile', () => {
    const m = readable();
    m.parts.push({ name: 'seat-plate-1', x: 470, y: 250, width: 100, height: 40 });
    m.parts.push({ name: 'action-call', x: 560, y: 310, width: 80, height: 30 });
    const found = layoutProblems(m);
    expect(found).toContain('tile-t: action-fold and seat-plate-1 overlap (2700 px²)');
    expect(found).toContain('tile-t: action-call (80×30 at 560,310) leaves the tile (600×300 at 0,0)');
    expect(found).toHaveLength(2);
  });

  it('finds text under 11 px and a card under 30 × 42 px', () => {
    const m = readable();
    m.texts.push({ name: 'Couché', px: 9 });
    m.cards.push({ name: 'back', x: 0, y: 0, width: 24, height: 34 });
    expect(layoutProblems(m)).toEqual(['tile-t: text "Couché" at 9 px, under 11 px', 'tile-t: card back 24×34 px, under 30×42']);
  });

  it('ignores parts not drawn (no box)', () => {
    const m = readable();
    m.parts.push({ name: 'made-hand', x: 0, y: 0, width: 0, height: 0 });
    expect(layoutProblems(m)).toEqual([]);
  });
});

describe('overlapArea and inside', () => {
  it('measures shared area, none for touching edges', () => {
    expect(overlapArea({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 5, width: 10, height: 10 })).toBe(25);
    expect(overlapArea({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 })).toBe(0);
  });
  it('tells a rect inside another', () => {
    expect(inside({ x: 1, y: 1, width: 5, height: 5 }, tile)).toBe(true);
    expect(inside({ x: -3, y: 1, width: 5, height: 5 }, tile)).toBe(false);
  });
});
