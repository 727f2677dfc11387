/**
 * What a hand is, for people: the five cards that play, its category and a label in French and
 * English (R-RESULTS: "who won what, with which hand"). Not a hot path: it tries every choice of
 * five and keeps the best, with the same values as the fast evaluators.
 *
 * Categories
 * ----------
 * - High games (`high`, `omaha-high`): `straight-flush`, `four-of-a-kind`, `full-house`, `flush`,
 *   `straight`, `three-of-a-kind`, `two-pair`, `pair`, `high-card` (R-HIGH, D art. 5 II).
 * - A-5 lows (`low8`, `omaha-low8`, `razz`): an unpaired hand is `<top>-low` after its highest card,
 *   `8-low` … `5-low` (the wheel 5-4-3-2-A), in Razz up to `K-low` (ten is written `10`, as in
 *   `10-low`); a paired Razz hand is `pair`, `two-pair`, `three-of-a-kind`, `full-house` or
 *   `four-of-a-kind`.
 * - 2-7 (`27-decree`, `27-international`): an unpaired hand is `<top>-<second>-low`, e.g. `7-5-low`,
 *   `8-6-low`, `A-K-low`; paired hands as above; under the international reading also `straight`,
 *   `flush`, `straight-flush`, which count against the hand.
 *
 * `cards` lists the five cards best first: grouped cards first (the four, the three, the pairs, from
 * the higher group), then by rank from the highest (the ace counts low in A-5 lows and in the wheel,
 * which reads 5-4-3-2-A), then by suit.
 */
import type { Card } from '../cards';
import { HIGH_CATEGORIES, type HighCategory, evalHigh5, highCategoryOf } from './high';
import { type DeuceReading, eval27Five } from './low';
import * as tables from './tables';

// Tables as module-local constants: a property read through an import binding (a getter in
// CommonJS and test transforms) on every lookup costs more than the lookup itself.
const DEUCE_INTL_CATEGORY_OF_VALUE = tables.DEUCE_INTL_CATEGORY_OF_VALUE;
const HIGH_OFFSET5 = tables.HIGH_OFFSET5;
const LOW8_BY_MASK = tables.LOW8_BY_MASK;
const LOW_BIT = tables.LOW_BIT;
const LOW_INDEX = tables.LOW_INDEX;
const RANK_KEY = tables.RANK_KEY;
const RAZZ5 = tables.RAZZ5;

export type EvalGame =
  | 'high'
  | 'omaha-high'
  | 'omaha-low8'
  | 'low8'
  | 'razz'
  | '27-decree'
  | '27-international';

export const EVAL_GAMES: readonly EvalGame[] = [
  'high',
  'omaha-high',
  'omaha-low8',
  'low8',
  'razz',
  '27-decree',
  '27-international',
];

export interface HandExplanation {
  game: EvalGame;
  /** The game's value of the hand (the same number as the game's evaluator gives). */
  value: number;
  category: string;
  labelFr: string;
  labelEn: string;
  /** The five cards that play, best first. */
  cards: Card[];
}

type FiveEvaluator = (c0: Card, c1: Card, c2: Card, c3: Card, c4: Card) => number;

function low8Five(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card): number {
  return LOW8_BY_MASK[LOW_BIT[c0] | LOW_BIT[c1] | LOW_BIT[c2] | LOW_BIT[c3] | LOW_BIT[c4]];
}

function razzFive(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card): number {
  const k = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4];
  return RAZZ5[HIGH_OFFSET5[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

function deuceFive(reading: DeuceReading): FiveEvaluator {
  return (c0, c1, c2, c3, c4) => eval27Five(c0, c1, c2, c3, c4, reading);
}

const FIVE: Record<EvalGame, FiveEvaluator> = {
  high: evalHigh5,
  'omaha-high': evalHigh5,
  'omaha-low8': low8Five,
  low8: low8Five,
  razz: razzFive,
  '27-decree': deuceFive('decree'),
  '27-international': deuceFive('international'),
};

/**
 * Explains the best hand of `cards` (plus `board`, if any) in `game`. Omaha games take the private
 * cards in `cards` (2..6) and the board (3..5) in `board`; other games take 5..7 cards in all.
 * `null` when no low qualifies in `low8`/`omaha-low8` (R-LOW8), or when the cards cannot make a
 * hand of the game (too few or too many).
 */
export function explainHand(game: EvalGame, cards: readonly Card[], board?: readonly Card[]): HandExplanation | null {
  const five = FIVE[game];
  let best = 0;
  let chosen: Card[] | null = null;
  if (game === 'omaha-high' || game === 'omaha-low8') {
    if (!board || cards.length < 2 || cards.length > 6 || board.length < 3 || board.length > 5) return null;
    for (let a = 0; a < cards.length; a++)
      for (let b = a + 1; b < cards.length; b++)
        for (let i = 0; i < board.length; i++)
          for (let j = i + 1; j < board.length; j++)
            for (let k = j + 1; k < board.length; k++) {
              const v = five(cards[a], cards[b], board[i], board[j], board[k]);
              if (v > best) {
                best = v;
                chosen = [cards[a], cards[b], board[i], board[j], board[k]];
              }
            }
  } else {
    const all = board ? [...cards, ...board] : [...cards];
    const n = all.length;
    if (n < 5 || n > 7) return null;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let c = b + 1; c < n; c++)
          for (let d = c + 1; d < n; d++)
            for (let e = d + 1; e < n; e++) {
              const v = five(all[a], all[b], all[c], all[d], all[e]);
              if (v > best) {
                best = v;
                chosen = [all[a], all[b], all[c], all[d], all[e]];
              }
            }
  }
  if (chosen === null) return null; // no qualifying low (R-LOW8)
  return describe(game, best, chosen);
}

// ---------------------------------------------------------------------------------------------

const RANK_SYMBOL_EN = ['', '', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const RANK_SYMBOL_FR = ['', '', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A'];
const NAME_EN = ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'];
const PLURAL_EN = ['', '', 'twos', 'threes', 'fours', 'fives', 'sixes', 'sevens', 'eights', 'nines', 'tens', 'jacks', 'queens', 'kings', 'aces'];
// D art. 5 I: as, roi, dame, valet, dix … deux
const NAME_FR = ['', '', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'valet', 'dame', 'roi', 'as'];
const PLURAL_FR = ['', '', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'valets', 'dames', 'rois', 'as'];

/** "de rois", "d'as". */
function deFr(r: number): string {
  return r === 14 ? "d'as" : `de ${PLURAL_FR[r]}`;
}
/** "au roi", "à la dame", "à l'as". */
function aFr(r: number): string {
  if (r === 14) return "à l'as";
  if (r === 12) return 'à la dame';
  return `au ${NAME_FR[r]}`;
}

interface Shape {
  /** Ranks 2..14 of the five, best first (grouped, then high to low; `aceLow` puts aces last). */
  ranks: number[];
  /** Group sizes, largest first: [4,1], [3,2], [3,1,1], [2,2,1], [2,1,1,1] or [1,1,1,1,1]. */
  groups: number[];
  ordered: Card[];
}

function shapeOf(five: Card[], aceLow: boolean, wheelAceLast: boolean): Shape {
  const rankOf = (c: Card): number => (c >> 2) + 2;
  const count = new Map<number, number>();
  for (const c of five) count.set(rankOf(c), (count.get(rankOf(c)) ?? 0) + 1);
  const isWheel =
    wheelAceLast && count.size === 5 && [14, 5, 4, 3, 2].every((r) => count.has(r));
  const order = (r: number): number => ((aceLow || isWheel) && r === 14 ? 1 : r);
  const ordered = [...five].sort(
    (x, y) =>
      (count.get(rankOf(y)) as number) - (count.get(rankOf(x)) as number) ||
      order(rankOf(y)) - order(rankOf(x)) ||
      (y & 3) - (x & 3),
  );
  const groups = [...count.values()].sort((a, b) => b - a);
  return { ranks: ordered.map(rankOf), groups, ordered };
}

const PAIRED_CATEGORY: Record<string, HighCategory> = {
  '4,1': 'four-of-a-kind',
  '3,2': 'full-house',
  '3,1,1': 'three-of-a-kind',
  '2,2,1': 'two-pair',
  '2,1,1,1': 'pair',
  '1,1,1,1,1': 'high-card',
};

function highLabels(category: HighCategory, r: number[]): { fr: string; en: string } {
  switch (category) {
    case 'straight-flush':
      return r[0] === 14
        ? { fr: 'quinte flush royale', en: 'royal flush' }
        : { fr: `quinte flush ${aFr(r[0])}`, en: `straight flush, ${NAME_EN[r[0]]} high` };
    case 'four-of-a-kind':
      return { fr: `carré ${deFr(r[0])}`, en: `four of a kind, ${PLURAL_EN[r[0]]}` };
    case 'full-house':
      return {
        fr: `full aux ${PLURAL_FR[r[0]]} par les ${PLURAL_FR[r[3]]}`,
        en: `full house, ${PLURAL_EN[r[0]]} full of ${PLURAL_EN[r[3]]}`,
      };
    case 'flush':
      return { fr: `couleur ${aFr(r[0])}`, en: `flush, ${NAME_EN[r[0]]} high` };
    case 'straight':
      return { fr: `quinte ${aFr(r[0])}`, en: `straight, ${NAME_EN[r[0]]} high` };
    case 'three-of-a-kind':
      return { fr: `brelan ${deFr(r[0])}`, en: `three of a kind, ${PLURAL_EN[r[0]]}` };
    case 'two-pair':
      return {
        fr: `double paire, ${PLURAL_FR[r[0]]} et ${PLURAL_FR[r[2]]}`,
        en: `two pair, ${PLURAL_EN[r[0]]} and ${PLURAL_EN[r[2]]}`,
      };
    case 'pair':
      return { fr: `paire ${deFr(r[0])}`, en: `pair of ${PLURAL_EN[r[0]]}` };
    case 'high-card':
      return { fr: `carte haute, ${NAME_FR[r[0]]}`, en: `high card, ${NAME_EN[r[0]]}` };
  }
}

function describe(game: EvalGame, value: number, five: Card[]): HandExplanation {
  const aceLow = game === 'low8' || game === 'omaha-low8' || game === 'razz';
  const highGame = game === 'high' || game === 'omaha-high';
  const shape = shapeOf(five, aceLow, highGame);
  const r = shape.ranks;
  const seqEn = r.map((x) => RANK_SYMBOL_EN[x]).join('-');
  const seqFr = r.map((x) => RANK_SYMBOL_FR[x]).join('-');
  let category: string;
  let labelFr: string;
  let labelEn: string;
  if (highGame) {
    const cat = highCategoryOf(value);
    const l = highLabels(cat, r);
    category = cat;
    labelFr = l.fr;
    labelEn = l.en;
  } else {
    const cat: HighCategory =
      game === '27-international'
        ? HIGH_CATEGORIES[8 - DEUCE_INTL_CATEGORY_OF_VALUE[value]]
        : PAIRED_CATEGORY[shape.groups.join(',')];
    if (cat === 'high-card') {
      // an unpaired low, named after its highest card(s)
      const name = aceLow ? `${RANK_SYMBOL_EN[r[0]]}` : `${RANK_SYMBOL_EN[r[0]]}-${RANK_SYMBOL_EN[r[1]]}`;
      const nameFr = aceLow ? `${RANK_SYMBOL_FR[r[0]]}` : `${RANK_SYMBOL_FR[r[0]]}-${RANK_SYMBOL_FR[r[1]]}`;
      category = `${name}-low`;
      labelEn = `${name} low: ${seqEn}`;
      labelFr = `basse ${nameFr} : ${seqFr}`;
    } else {
      const l = highLabels(cat, r);
      category = cat;
      labelEn = `${l.en}: ${seqEn}`;
      labelFr = `${l.fr} : ${seqFr}`;
    }
  }
  return { game, value, category, labelFr, labelEn, cards: shape.ordered };
}
