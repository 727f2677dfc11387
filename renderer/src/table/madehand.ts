/**
 * The player's own made hand, shown at the table as it stands ("paire de dames"):
 * the rules package's own explanation of the cards we hold and the board, in the game's reading
 * (high, Omaha two-plus-three, Stud's best five of seven, Razz, 2-7), with the low of high/low games
 * when one qualifies (R-LOW8). Nothing before the cards make a hand, nor after we folded.
 */
import type { Card } from '../../../shared/rules/cards';
import type { HandState } from '../../../shared/rules/engine/types';
import { explainHand, type EvalGame } from '../../../shared/rules/eval';
import { gamesOf } from '../../../shared/rules/record';
import { VARIANTS } from '../../../shared/rules/variants';

export function madeHand(hand: HandState | null, seat: number | null, fr: boolean): string | null {
  if (hand === null || seat === null) return null;
  const p = hand.seats[seat];
  if (!p || (p.status !== 'in' && p.status !== 'allin') || p.hole.length === 0 || p.hole.some((c) => c === null)) return null;
  const hole = p.hole as Card[];
  const v = VARIANTS[hand.variant];
  const games = gamesOf(hand);
  const explain = (game: EvalGame) => (v.family === 'omaha' ? explainHand(game, hole, hand.board) : explainHand(game, v.family === 'holdem' ? hole.concat(hand.board) : hole));
  const high = explain(games.high);
  if (high === null) return null;
  const low = games.low === null ? null : explain(games.low);
  const label = (x: { labelFr: string; labelEn: string }) => (fr ? x.labelFr : x.labelEn);
  return low === null ? label(high) : `${label(high)} · ${label(low)}`;
}
