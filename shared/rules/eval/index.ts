/**
 * Hand evaluation for every variant (R-HIGH, R-LOW8, R-RAZZ, R-27; D art. 5-7).
 *
 * Every evaluator returns a deterministic integer: within one game, a higher value is a better hand
 * and an equal value is an exact tie (D art. 6 IV: the pot is split). Values of different games are
 * not comparable with each other. See `tables.ts` for the value scales and how the lookups work.
 */
export {
  HIGH_CATEGORIES,
  HIGH_MAX,
  type HighCategory,
  evalHigh,
  evalHigh5,
  evalHigh6,
  evalHigh7,
  evalOmahaHigh,
  highCategoryOf,
} from './high';
export {
  DEUCE_DECREE_BEST,
  DEUCE_INTL_BEST,
  type DeuceReading,
  LOW8_BEST,
  RAZZ_BEST,
  eval27,
  eval27Five,
  evalLow8,
  evalOmahaLow8,
  evalRazz,
  evalRazz7,
} from './low';
export { EVAL_GAMES, type EvalGame, type HandExplanation, explainHand } from './explain';
