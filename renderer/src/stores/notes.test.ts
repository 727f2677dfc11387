import { describe, expect, it } from 'vitest';
import { readNotes } from './notes';

describe('player notes kept locally', () => {
  it('reads what was kept and drops what is damaged', () => {
    expect(readNotes(null)).toEqual({});
    expect(readNotes('not json')).toEqual({});
    expect(readNotes(JSON.stringify({ alice: { note: 'bluffs the river', color: 'red' }, bob: { note: 'x', color: 'pink' }, eve: 7 }))).toEqual({
      alice: { note: 'bluffs the river', color: 'red' },
      bob: { note: 'x', color: null },
    });
    expect(readNotes(JSON.stringify({ long: { note: 'a'.repeat(900), color: null } })).long.note).toHaveLength(500);
  });
});
