/**
 * Joins a table over the client's link as the join dialog does (R-INFO): reads the
 * lobby, then joins with the version of the table's rules and the conditions of play it read.
 */
import type { OperatorLink } from '../../electron/services/link';
import { rulesVersion } from '../../shared/protocol/conditions';

export async function joinAsShown(link: OperatorLink, tableId: string, buyIn: number): ReturnType<OperatorLink['join']> {
  const lobby = await link.lobby();
  if (!lobby.ok) throw new Error(`no lobby: ${lobby.code}`);
  const table = lobby.tables.find((t) => t.tableId === tableId);
  if (!table) throw new Error(`no table ${tableId} in the lobby`);
  return link.join(tableId, buyIn, { rulesVersion: rulesVersion(table, lobby.conditions.version) });
}
