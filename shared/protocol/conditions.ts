/**
 * The conditions of play and the rules version a player confirms.
 *
 * R-RULES (D art. 3, 8 II 2°): the conditions under which bets are made (the action clock and time
 * bank, what a time-out does, when a player is sat out, the disconnection grace period, when a hand is
 * voided and what becomes of its bets) are the operator's: it writes them from its own settings
 * (operator/tables/conditions.ts) and serves them with its lobby, versioned, in French and English;
 * the client shows them as sent.
 *
 * R-INFO (D art. 8 II 3°): the player confirms a table's rules before sitting; `table.join` carries
 * the version of what was shown ({@link rulesVersion}) and the operator refuses a join whose version
 * is not the table's current one (`RULES_CHANGED`). One function, here, for both sides.
 */
import { hash53 } from '../validate/hash53';
import type { TableRules } from '../rules/tableRules';
import { arr, obj, str, type Infer } from '../validate';

/** A version: 14 hex digits of a 53-bit hash (the client and the operator compute it alike). */
export const versionText = str({ min: 14, max: 14, pattern: /^[0-9a-f]{14}$/ });

const paragraphs = arr(str({ min: 1, max: 1000 }), { min: 1, max: 40 });

/** The operator's conditions of play, as served with the lobby. */
export const playConditionsSchema = obj({
  /** {@link conditionsVersion} of the texts. */
  version: versionText,
  /** French first (the decree's language), then English: the same paragraphs in the same order. */
  fr: paragraphs,
  en: paragraphs,
});
export type PlayConditions = Infer<typeof playConditionsSchema>;

/** JSON with object keys sorted, so that the same value hashes alike whatever order its keys came in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** A 14-hex-digit version of any JSON value (keys sorted): rules shown, a tournament's information. */
export function version(v: unknown): string {
  return hash53(canonical(v)).toString(16).padStart(14, '0');
}

/** The version of conditions' texts. */
export function conditionsVersion(texts: { fr: readonly string[]; en: readonly string[] }): string {
  return version({ fr: texts.fr, en: texts.en });
}

/** What a player is shown of a table before sitting (R-INFO): the game and its rules, the cave. */
export interface RulesShown {
  variant: string;
  rules: TableRules;
  buyIn: { min: number; max: number };
}

/**
 * The version of a table's rules as shown (R-INFO) under the operator's conditions of play (R-RULES):
 * a change to either (a stake, the clock, the cave, a reading, a condition) gives another version.
 */
export function rulesVersion(table: RulesShown, conditions: string): string {
  return version({ variant: table.variant, rules: table.rules, buyIn: table.buyIn, conditions });
}
