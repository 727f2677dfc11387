/**
 * Tournament and tournament-table names as a player reads them, French first, never codes
 * (R-INFO): a sit & go by its size and its game, a tournament table by its number.
 */
import { describe, expect, it } from 'vitest';
import { tableName } from '../format';
import { tournamentName, tournamentTableName } from './names';

describe('tournament names', () => {
  it('a sit & go reads as its size and its game, in the page’s language', () => {
    const sng = { name: 'Heads-up · Seven Card Stud Poker High/Low limit', variant: '7SJL' as const };
    expect(tournamentName(sng, 'fr')).toBe('Heads-up · Seven Card Stud Poker High/Low limit');
    expect(tournamentName(sng, 'en')).toBe('Heads-up · 7 Card Stud High/Low Limit');
    expect(tournamentName({ name: '6 max · Texas Hold\'em no limit', variant: 'THNL' }, 'en')).toBe('6 max · Texas Hold\'em no limit');
    expect(tournamentName({ name: '6-max · Texas Hold\'em no limit', variant: 'THNL' }, 'en')).toBe('6-max · Texas Hold\'em No Limit');
    expect(tournamentName({ name: '9 joueurs · Texas Hold\'em No Limit', variant: 'THNL' }, 'en')).toBe('9 players · Texas Hold\'em No Limit');
  });

  it('names kept from before (results, history) with the game’s code read the same way', () => {
    expect(tournamentName({ name: 'Heads-up 7SJL', variant: '7SJL' }, 'fr')).toBe('Heads-up · Seven Card Stud Poker High/Low limit');
    expect(tournamentName({ name: 'Heads-up 7SJL', variant: '7SJL' }, 'en')).toBe('Heads-up · 7 Card Stud High/Low Limit');
    expect(tournamentName({ name: '9 joueurs THNL', variant: 'THNL' }, 'fr')).toBe('9 joueurs · Texas Hold\'em no limit');
  });

  it('an operator’s own name is shown as it is', () => {
    expect(tournamentName({ name: 'Le Grand Tournoi', variant: 'THNL' }, 'en')).toBe('Le Grand Tournoi');
    expect(tournamentName({ name: 'Heads-up OMAHA', variant: 'THNL' }, 'en')).toBe('Heads-up OMAHA');
  });

  it('a tournament table is “Table n”, by its id or its name', () => {
    expect(tournamentTableName('sng-thnl-6-2-t1', 'sng-thnl-6-2', 'fr')).toBe('Table 1');
    expect(tournamentTableName('sng-thnl-6-2-t12', 'sng-thnl-6-2', 'en')).toBe('Table 12');
    expect(tournamentTableName('other-t1', 'sng-thnl-6-2', 'fr')).toBe('other-t1');
    expect(tableName('Heads-up THNL, table 3', null, 'fr')).toBe('Table 3');
    expect(tableName('Practice Texas Hold\'em No Limit 2', null, 'fr')).toBe('Entraînement · Texas Hold\'em no limit 2');
  });
});
