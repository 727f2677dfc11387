/** The one rule of the trace's `supervision` flag (A 1.3.6.c), case by case. */
import { describe, expect, it } from 'vitest';
import { supervision, type Cause } from './trace';

describe('supervision (A 1.3.6.c: "transmis par l\'opérateur sans acquittement du joueur")', () => {
  const person = { auto: false, absent: false, excluded: null };
  const cases: [string, Parameters<typeof supervision>[0], Cause, boolean][] = [
    ['a registration, a rebuy, a re-entry: the player asked', person, 'request', false],
    ['a bounty won, a place reached in a hand the player played', person, 'hand', false],
    ['the same for a player absent (blinded, hand dead: T 2-14, 2-15)', { ...person, absent: true }, 'hand', true],
    ['the place of a player the operator took out (T 13-1)', { ...person, excluded: 'banned' }, 'hand', true],
    ['a cancellation, an exclusion refunded', person, 'operator', true],
    ["anything of a practice player (the operator plays them)", { ...person, auto: true }, 'request', true],
  ];
  for (const [what, e, cause, flag] of cases) it(what, () => expect(supervision(e, cause)).toBe(flag));
});
