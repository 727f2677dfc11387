/**
 * Bet sizing: the preset buttons, the slider step and reading a typed amount. Amounts are integers
 * (chips, or cents at real-money tables: DESIGN.md §3), always TO amounts for the round (T 7-9), and
 * every preset lies within the bounds `legalActions` gives (`BetBounds`).
 */
import type { BetBounds, HandState } from '../../../shared/rules/engine/types';
import { potTotal } from '../../../shared/rules/engine/betting';
import { isBoardPreflop } from './actions';

export type PresetId = 'min' | 'x2' | 'x2_5' | 'x3' | 'x4' | 'third' | 'half' | '2third' | '3q' | 'pot' | 'max' | 'allin';

/**
 * The sizes a player may choose to see (custom presets per betting structure), before
 * the flop while unraised (big-blind multiples) and after (pot fractions); `min`, the top (all-in or
 * the pot limit) always show. The default is what the bar always offered.
 */
export const CHOOSABLE_PRESETS = ['x2', 'x2_5', 'x3', 'x4', 'third', 'half', '2third', '3q', 'pot'] as const;
export type ChoosablePreset = (typeof CHOOSABLE_PRESETS)[number];
export const DEFAULT_PRESETS: readonly ChoosablePreset[] = ['x2_5', 'x3', 'x4', 'half', '3q', 'pot'];

export interface Preset {
  id: PresetId;
  /** The TO amount. */
  to: number;
}

export interface PresetContext {
  bounds: BetBounds;
  /** Chips gathered in the pot plus every bet of the round (`potTotal`). */
  pot: number;
  /** The level to call now, and our own bet this round. */
  currentBet: number;
  ourBet: number;
  /** Our stack as a TO amount (bet in front + chips behind). */
  allInTo: number;
  bigBlind: number;
  /** Board games' first street: big-blind multiples instead of pot fractions while unraised. */
  preflop: boolean;
}

/** The sizing context of our seat in this hand. */
export function presetContext(hand: HandState, seat: number, bounds: BetBounds): PresetContext {
  const p = hand.seats[seat];
  return {
    bounds,
    pot: potTotal(hand),
    currentBet: hand.currentBet,
    ourBet: p.bet,
    allInTo: p.bet + p.stack,
    bigBlind: hand.rules.bigBlind,
    preflop: isBoardPreflop(hand),
  };
}

/** Integer `num / den` of `x`, rounded half up, in integer arithmetic (x, num, den ≥ 0). */
function part(x: number, num: number, den: number): number {
  return Math.floor((x * num * 2 + den) / (den * 2));
}

/**
 * A bet or raise of `num/den` of the pot: the pot counts our call first (R-PL: "the pot after the
 * call"), so a pot-sized raise is TO current bet + pot + call.
 */
export function potFractionTo(ctx: PresetContext, num: number, den: number): number {
  const toCall = Math.max(0, ctx.currentBet - ctx.ourBet);
  return ctx.currentBet + part(ctx.pot + toCall, num, den);
}

/**
 * The presets, each within [min, max], integers, without two presets of the same amount. Limit games
 * offer the fixed amount only (and the big bet too where the Stud open pair allows either).
 */
export function betPresets(ctx: PresetContext, shown: readonly ChoosablePreset[] = DEFAULT_PRESETS): Preset[] {
  const { min, max } = ctx.bounds;
  if (ctx.bounds.exact) return min === max ? [{ id: ctx.allInTo <= min ? 'allin' : 'min', to: min }] : [{ id: 'min', to: min }, { id: 'max', to: max }];
  const all: Preset[] = [];
  const unraised = ctx.currentBet <= ctx.bigBlind;
  if (ctx.preflop && unraised && ctx.bigBlind > 0) {
    all.push({ id: 'x2', to: ctx.bigBlind * 2 }, { id: 'x2_5', to: part(ctx.bigBlind, 5, 2) }, { id: 'x3', to: ctx.bigBlind * 3 }, { id: 'x4', to: ctx.bigBlind * 4 });
  } else {
    all.push({ id: 'third', to: potFractionTo(ctx, 1, 3) }, { id: 'half', to: potFractionTo(ctx, 1, 2) }, { id: '2third', to: potFractionTo(ctx, 2, 3) }, { id: '3q', to: potFractionTo(ctx, 3, 4) });
  }
  all.push({ id: 'pot', to: potFractionTo(ctx, 1, 1) });
  const middle = all.filter((p) => (shown as readonly string[]).includes(p.id));
  const out: Preset[] = [{ id: min >= ctx.allInTo ? 'allin' : 'min', to: min }];
  if (min >= max) return out;
  const seen = new Set<number>([min, max]);
  for (const p of middle) {
    const to = p.to < min ? min : p.to > max ? max : p.to;
    if (seen.has(to)) continue;
    seen.add(to);
    out.push({ id: p.id, to });
  }
  // The top: all-in when the bounds reach our stack, else (pot limit) the pot.
  out.push({ id: max >= ctx.allInTo ? 'allin' : 'pot', to: max });
  return out;
}

/** How far one nudge of the slider moves: a big blind (small bet in limit games), at least 1. */
export function betStep(rules: { bigBlind: number; smallBet: number }): number {
  return Math.max(1, rules.bigBlind || rules.smallBet || 1);
}

/** Moves the amount by `steps` nudges and clamps it; limit games move between their fixed choices. */
export function nudge(bounds: BetBounds, to: number, steps: number, step: number): number {
  if (bounds.exact) return steps > 0 ? bounds.max : steps < 0 ? bounds.min : to;
  // Land on a multiple of the step when nudging from an odd amount, as a slider would.
  let x = to + steps * step;
  if (steps !== 0 && to % step !== 0) x = steps > 0 ? Math.ceil(to / step) * step + (steps - 1) * step : Math.floor(to / step) * step + (steps + 1) * step;
  return x < bounds.min ? bounds.min : x > bounds.max ? bounds.max : x;
}

// ---------------------------------------------------------------------------------------------
// Typed amounts

export type AmountError = 'empty' | 'notNumber' | 'decimals' | 'negative' | 'tooLarge';

export type ParsedAmount = { ok: true; value: number } | { ok: false; error: AmountError };

/**
 * Reads an amount typed by the player. `chips` (play money and every table amount shown in chips):
 * an integer; thousands may be grouped with spaces (`1 500`, also the French narrow no-break space),
 * `,` or `.` in groups of three (`1,500`, `1.500`); anything else after `,` or `.` is a decimal,
 * refused (`decimals`). `euros` (real money shown in euros): up to two decimals after `,` or `.`
 * (`12,50`, `12.5`), returned in cents; a `€` sign is ignored.
 */
export function parseAmount(text: string, unit: 'chips' | 'euros' = 'chips'): ParsedAmount {
  let s = text.replace(/[\s\u00a0\u202f']/g, '');
  if (unit === 'euros') s = s.replace(/€$|^€|eur$/i, '');
  if (s === '') return { ok: false, error: 'empty' };
  if (s.startsWith('-')) return { ok: false, error: 'negative' };
  if (s.startsWith('+')) s = s.slice(1);
  if (!/^[0-9]+([.,][0-9]+)*$/.test(s)) return { ok: false, error: 'notNumber' };
  const parts = s.split(/[.,]/);
  const seps = s.replace(/[0-9]/g, '');
  let whole = s;
  let fraction = '';
  if (seps.length > 0) {
    const same = seps.split('').every((c) => c === seps[0]);
    const grouped = parts[0].length <= 3 && parts[0][0] !== '0' && parts.slice(1).every((x) => x.length === 3);
    if (same && grouped) {
      whole = parts.join(''); // thousands: 1,500 / 1.500 / 1.500.000
    } else {
      const last = s.length - parts[parts.length - 1].length - 1;
      const head = s.slice(0, last);
      const other = s[last] === ',' ? '.' : ',';
      const headOk = /^[0-9]+$/.test(head) || (new RegExp(`^[0-9]{1,3}(\\${other}[0-9]{3})+$`).test(head));
      if (!headOk) return { ok: false, error: 'notNumber' };
      whole = head.replace(/[.,]/g, '');
      fraction = s.slice(last + 1);
      if (unit === 'chips' || fraction.length > 2) return { ok: false, error: 'decimals' };
    }
  }
  const digits = whole.replace(/^0+(?=[0-9])/, '') + (unit === 'euros' ? fraction.padEnd(2, '0') : '');
  if (digits.length > 15) return { ok: false, error: 'tooLarge' };
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return { ok: false, error: 'tooLarge' };
  return { ok: true, value };
}
