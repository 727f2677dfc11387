import { describe, expect, it } from 'vitest';
import { type Card, formatCards, parseCards } from '../cards';
import { EVAL_GAMES, type EvalGame, explainHand } from './explain';
import { evalHigh, evalOmahaHigh, highCategoryOf } from './high';
import { eval27, evalLow8, evalOmahaLow8, evalRazz } from './low';
import { dealHands } from './test-deal';

function cards(text: string): Card[] {
  const cs = parseCards(text);
  if (cs === null) throw new Error(`bad cards in test: ${text}`);
  return cs;
}
function explain(game: EvalGame, text: string, board?: string) {
  const e = explainHand(game, cards(text), board === undefined ? undefined : cards(board));
  if (e === null) throw new Error(`no hand for ${text}`);
  return { ...e, text: formatCards(e.cards, ' ') };
}

/** The value of the game's own evaluator, for all the cards (and board). */
function direct(game: EvalGame, hand: Card[], board: Card[]): number {
  const all = [...hand, ...board];
  switch (game) {
    case 'high':
      return evalHigh(all);
    case 'omaha-high':
      return evalOmahaHigh(hand, board);
    case 'omaha-low8':
      return evalOmahaLow8(hand, board);
    case 'low8':
      return evalLow8(all);
    case 'razz':
      return evalRazz(all);
    case '27-decree':
      return eval27(all, 'decree');
    case '27-international':
      return eval27(all, 'international');
  }
}

describe('explainHand agrees with the evaluators', () => {
  it('gives the evaluator value and five of the given cards, for random hands of every game', () => {
    // problems are collected and checked once: an expect() per hand would dominate the run time
    const problems: string[] = [];
    for (const game of EVAL_GAMES) {
      const omaha = game.startsWith('omaha');
      for (const deal of dealHands(2_000, 9, game.length)) {
        const hand = omaha ? deal.slice(0, 4) : deal.slice(0, 2);
        const board = omaha ? deal.slice(4, 9) : deal.slice(2, game.startsWith('27') ? 5 : 7);
        const e = explainHand(game, hand, board);
        const value = direct(game, hand, board);
        const where = `${game} ${formatCards(hand)} ${formatCards(board)}`;
        if (value === 0) {
          if (e !== null) problems.push(`${where}: explained a hand that does not qualify`);
          continue;
        }
        if (e === null) {
          problems.push(`${where}: no explanation`);
          continue;
        }
        const all = [...hand, ...board];
        // the five shown make the value on their own (Omaha: as a plain five-card hand)
        const alone = explainHand(omaha ? (game === 'omaha-high' ? 'high' : 'low8') : game, e.cards);
        if (
          e.game !== game ||
          e.value !== value ||
          new Set(e.cards).size !== 5 ||
          e.cards.some((c) => !all.includes(c)) ||
          // R-HIGH / R-LOW8 in Omaha: exactly two private cards
          (omaha && e.cards.filter((c) => hand.includes(c)).length !== 2) ||
          alone?.value !== value ||
          ((game === 'high' || game === 'omaha-high') && e.category !== highCategoryOf(value)) ||
          e.labelFr.length === 0 ||
          e.labelEn.length === 0
        ) {
          problems.push(`${where}: ${JSON.stringify(e)} (value ${value})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('is null when no low qualifies, or when the cards cannot make a hand of the game', () => {
    expect(explainHand('low8', cards('9c9dKhQsJcTd2h'))).toBeNull();
    expect(explainHand('omaha-low8', cards('AcAdKhKs'), cards('2c3d4hQsJc'))).toBeNull();
    expect(explainHand('high', cards('AcAd'), cards('Kh'))).toBeNull();
    expect(explainHand('omaha-high', cards('AcAdKhKs'))).toBeNull();
    expect(explainHand('razz', cards('AcAd2h3s4c5d6h7s'))).toBeNull();
  });
});

describe('high hands in French (D art. 5 II) and English', () => {
  it('names the royal flush and other straight flushes', () => {
    const royal = explain('high', 'TsJsQsKsAs2d3c');
    expect(royal.category).toBe('straight-flush');
    expect(royal.labelFr).toBe('quinte flush royale');
    expect(royal.labelEn).toBe('royal flush');
    expect(royal.text).toBe('As Ks Qs Js Ts');
    expect(explain('high', '9h8h7h6h5h').labelFr).toBe('quinte flush au neuf');
  });

  it('names four of a kind, full house, flush, straight and three of a kind', () => {
    expect(explain('high', 'AcAdAhAsKd').labelFr).toBe("carré d'as");
    const full = explain('high', 'KcAdKhAsAh2c');
    expect(full.labelFr).toBe('full aux as par les rois');
    expect(full.labelEn).toBe('full house, aces full of kings');
    expect(full.text).toBe('As Ah Ad Kh Kc');
    expect(explain('high', 'AhJh8h4h2h').labelFr).toBe("couleur à l'as");
    expect(explain('high', 'QhJh8h4h2h').labelFr).toBe('couleur à la dame');
    expect(explain('high', 'Tc9d8h7s6c').labelFr).toBe('quinte au dix');
    expect(explain('high', '7c7d7hKs2c').labelFr).toBe('brelan de sept');
    expect(explain('high', '7c7d7hKs2c').labelEn).toBe('three of a kind, sevens');
  });

  it('reads the wheel 5-4-3-2-A, with the ace last', () => {
    const wheel = explain('high', 'Ac2d3h4s5cKd');
    expect(wheel.category).toBe('straight');
    expect(wheel.labelFr).toBe('quinte au cinq');
    expect(wheel.text).toBe('5c 4s 3h 2d Ac');
  });

  it('lists two pair from the higher pair, kicker last, and names pairs and high cards', () => {
    const twoPair = explain('high', 'QcKdKhQs2c9d');
    expect(twoPair.labelFr).toBe('double paire, rois et dames');
    expect(twoPair.labelEn).toBe('two pair, kings and queens');
    expect(twoPair.text).toBe('Kh Kd Qs Qc 9d');
    expect(explain('high', '8c8dKhQs2c').labelFr).toBe('paire de huit');
    expect(explain('high', '8c8dKhQs2c').labelEn).toBe('pair of eights');
    expect(explain('high', 'Ac8dKhQs2c').labelFr).toBe('carte haute, as');
  });

  it('explains Omaha with two private cards only: four suited on the board and one in hand is no flush', () => {
    const e = explain('omaha-high', 'AhKs7c2d', 'QhJh8h3h9c');
    expect(e.category).toBe('high-card');
    expect(e.text).toBe('Ah Ks Qh Jh 9c');
    const flush = explain('omaha-high', 'Ah2h7c8d', 'QhJh3h9c9d');
    expect(flush.category).toBe('flush');
    expect(flush.text).toBe('Ah Qh Jh 3h 2h');
  });
});

describe('low hands', () => {
  it('names A-5 lows after their highest card and lists them from the top, ace last', () => {
    const e = explain('low8', '8c6d4h2sAcKdKh');
    expect(e.category).toBe('8-low');
    expect(e.text).toBe('8c 6d 4h 2s Ac');
    expect(e.labelEn).toBe('8 low: 8-6-4-2-A');
    expect(e.labelFr).toBe('basse 8 : 8-6-4-2-A');
    expect(explain('omaha-low8', 'Ac2dKhKs', '3c4d5hQsJc').category).toBe('5-low');
  });

  it('names Razz hands: unpaired up to K-low (ten written 10), paired ones by their category', () => {
    expect(explain('razz', 'KcQdJhTs9c').category).toBe('K-low');
    expect(explain('razz', 'Tc8d6h4s2c').category).toBe('10-low');
    const pair = explain('razz', 'AcAd2h3s4cAhAs');
    expect(pair.category).toBe('pair');
    expect(pair.text).toBe('Ad Ac 4c 3s 2h');
    expect(pair.labelEn).toBe('pair of aces: A-A-4-3-2');
  });

  it('names 2-7 hands after their two highest cards, and straights and flushes under the international reading', () => {
    expect(explain('27-decree', '7c5d4h3s2c').category).toBe('7-5-low');
    expect(explain('27-decree', '7h5h4h3h2h').category).toBe('7-5-low');
    expect(explain('27-international', '7h5h4h3h2h').category).toBe('flush');
    expect(explain('27-international', '6c5d4h3s2c').category).toBe('straight');
    expect(explain('27-decree', '6c5d4h3s2c').category).toBe('6-5-low');
    const aceHigh = explain('27-international', 'Ac2d3h4s5c');
    expect(aceHigh.category).toBe('A-5-low');
    expect(aceHigh.text).toBe('Ac 5c 4s 3h 2d');
    expect(explain('27-international', '7c5d4h3s2c').labelFr).toBe('basse 7-5 : 7-5-4-3-2');
  });
});
