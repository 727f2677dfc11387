/**
 * The history's filter form and what it asks the store (HistoryFilter, shared/api): periods in the
 * player's local days, selects that mean "any" when empty, the player's name trimmed. Pure.
 */
import type { HandMoney } from '../../../shared/history/money';
import type { HistoryFilter } from '../../../shared/api/contract';
import { VARIANT_CODES, type VariantCode } from '../../../shared/rules/variants';

export type Period = 'all' | 'today' | '7d' | '30d' | 'custom';
export type Tri = '' | 'yes' | 'no';

export interface FilterForm {
  period: Period;
  /** Custom period: first and last day, `YYYY-MM-DD` (the date inputs' format), inclusive. */
  from: string;
  to: string;
  variant: VariantCode | '';
  /** `money:stakes` (`play:100`), or '' for any. */
  stakes: string;
  tableId: string;
  result: '' | 'won' | 'lost';
  showdown: Tri;
  allIn: Tri;
  player: string;
  /** Cash hands or tournament hands, '' for both. */
  kind: '' | 'cash' | 'tournament';
  /** One tournament's hands (picked in the tournament list), '' for any. */
  tournamentId: string;
}

export function emptyForm(): FilterForm {
  return { period: 'all', from: '', to: '', variant: '', stakes: '', tableId: '', result: '', showdown: '', allIn: '', player: '', kind: '', tournamentId: '' };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a `YYYY-MM-DD` day, in ms; null when it is not a day. */
export function dayStart(day: string): number | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (d.getFullYear() !== Number(m[1]) || d.getMonth() !== Number(m[2]) - 1 || d.getDate() !== Number(m[3])) return null;
  return d.getTime();
}

/** Local midnight `daysBack` days before the day of `now`. */
function midnight(now: Date, daysBack: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();
}

/** `YYYY-MM-DD` of a local day (for the date inputs). */
export function dayText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export type FilterResult = { ok: true; filter: HistoryFilter } | { ok: false; reason: 'dates' };

function tri(x: Tri): boolean | undefined {
  return x === '' ? undefined : x === 'yes';
}

/** The store's filter for this form at `now`. Today and the last 7 or 30 days count whole local days. */
export function toHistoryFilter(form: FilterForm, now: Date): FilterResult {
  const f: HistoryFilter = {};
  switch (form.period) {
    case 'today':
      f.from = midnight(now, 0);
      break;
    case '7d':
      f.from = midnight(now, 6);
      break;
    case '30d':
      f.from = midnight(now, 29);
      break;
    case 'custom': {
      const from = form.from === '' ? null : dayStart(form.from);
      const toDay = form.to === '' ? null : dayStart(form.to);
      if ((form.from !== '' && from === null) || (form.to !== '' && toDay === null)) return { ok: false, reason: 'dates' };
      const to = toDay === null ? null : new Date(new Date(toDay).setDate(new Date(toDay).getDate() + 1)).getTime();
      if (from !== null && to !== null && from >= to) return { ok: false, reason: 'dates' };
      if (from !== null) f.from = from;
      if (to !== null) f.to = to;
      break;
    }
    case 'all':
      break;
  }
  if (form.variant !== '' && (VARIANT_CODES as readonly string[]).includes(form.variant)) f.variant = form.variant;
  const stakes = /^(real|play|usd|gbp|chips):(\d{1,15})$/.exec(form.stakes);
  if (stakes) {
    f.money = stakes[1] as HandMoney;
    f.stakes = Number(stakes[2]);
  }
  const table = form.tableId.trim();
  if (table !== '') f.tableId = table.slice(0, 64);
  if (form.result !== '') f.result = form.result;
  const showdown = tri(form.showdown);
  if (showdown !== undefined) f.showdown = showdown;
  const allIn = tri(form.allIn);
  if (allIn !== undefined) f.allIn = allIn;
  const player = form.player.trim();
  if (player !== '') f.player = player.slice(0, 64);
  if (form.kind === 'cash' || form.kind === 'tournament') f.kind = form.kind;
  // One tournament's hands are tournament hands whatever the kind chosen.
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,59}$/.test(form.tournamentId)) {
    f.tournamentId = form.tournamentId;
    f.kind = 'tournament';
  }
  return { ok: true, filter: f };
}

/** A hand id typed by the player, trimmed; null when it cannot be one. */
export function lookupId(text: string): string | null {
  const id = text.trim().replace(/^#/, '');
  return id.length >= 1 && id.length <= 200 ? id : null;
}
