import { describe, expect, it } from 'vitest';
import { playerNumbers, recordNames, shownNames } from './names';

const record = {
  tableSize: 6,
  seats: [
    { seat: 4, player: 'Zoé' },
    { seat: 1, player: 'Marc' },
    { seat: 2, player: 'Ana' },
  ],
} as Parameters<typeof recordNames>[0];

describe('names', () => {
  it('gives the record\'s names per seat', () => {
    expect(recordNames(record)).toEqual([null, 'Marc', 'Ana', null, 'Zoé', null]);
  });

  it('numbers the players in seat order, not in the record\'s order', () => {
    expect(playerNumbers(record)).toEqual([null, 1, 2, null, 3, null]);
  });

  it('hides every name on request', () => {
    const label = (n: number) => `Joueur ${n}`;
    expect(shownNames(record, true, label)).toEqual([null, 'Joueur 1', 'Joueur 2', null, 'Joueur 3', null]);
    expect(shownNames(record, false, label)).toEqual(recordNames(record));
  });
});
