/**
 * Tournament and tournament-table names as a player reads them (R-INFO: names, not codes), in the
 * page's language, French first. The operator names a sit & go by its size and its game's French
 * name (operator/tournaments/config.ts `sitAndGoName`: `Heads-up · Texas Hold'em no limit`), and its
 * tables `<tournament>-t<n>`; names kept from before (`Heads-up 7SJL`, in results and history) read
 * the same way. Any other name is the operator's own and shown as it is.
 */
import { VARIANTS, type VariantCode } from '../../../shared/rules/variants';

const fr = (locale: string) => locale.startsWith('fr');

/** The size of a sit & go in words: heads-up, 6-max, else the players ("9 joueurs", "9 players"). */
function sizeName(seats: number, locale: string): string {
  if (seats === 2) return 'Heads-up';
  if (seats === 6) return '6-max';
  return fr(locale) ? `${seats} joueurs` : `${seats} players`;
}

/** `<size> · <game>` (or `<size> <code>`, before): the seats it names, or null for another name. */
function sitAndGoSeats(name: string, variant: VariantCode): number | null {
  const m = /^(Heads-up|6-max|(\d{1,2}) joueurs)( · | )(.+)$/.exec(name);
  if (!m) return null;
  const v = VARIANTS[variant];
  const game = m[4];
  if (game !== variant && game !== v.nameFr && game !== v.nameEn) return null;
  return m[1] === 'Heads-up' ? 2 : m[1] === '6-max' ? 6 : Number(m[2]);
}

/** A tournament's name in the page's language: a sit & go's size and game, any other as it is. */
export function tournamentName(t: { name: string; variant: VariantCode }, locale: string): string {
  const seats = sitAndGoSeats(t.name, t.variant);
  if (seats === null) return t.name;
  const v = VARIANTS[t.variant];
  return `${sizeName(seats, locale)} · ${fr(locale) ? v.nameFr : v.nameEn}`;
}

/** A tournament table (`<tournamentId>-t<n>`) is "Table n"; another id is shown as it is. */
export function tournamentTableName(tableId: string, tournamentId: string, _locale: string): string {
  const prefix = `${tournamentId}-t`;
  if (!tableId.startsWith(prefix)) return tableId;
  const n = tableId.slice(prefix.length);
  return /^\d+$/.test(n) ? `Table ${n}` : tableId;
}

/** A tournament table's name as the operator gives it (`<tournament>, table <n>`): "Table n"; null for another name. */
export function tournamentTableTitle(name: string): string | null {
  const m = /, table (\d+)$/.exec(name);
  return m ? `Table ${m[1]}` : null;
}
