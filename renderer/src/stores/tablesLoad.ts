import { useTableDecisionsStore } from './tableDecisions';
import { useTableSeatsStore } from './tableSeats';
import { useTablesStore } from './tables';
import { useTableWindowsStore } from './tableWindows';
import { useTournamentTablesStore } from './tournamentTables';

/**
 * Makes the table stores, each of which reacts to the tables' stream from when it is made (tables.ts
 * `react`): the seats' reactions first (leave or sit out after the hand, auto top-up), then the
 * decisions' (auto-muck), as a push has always been followed. Then main's pushes are followed and
 * the tables read; the player's tournaments last, so that a move's old table is there to stand in.
 */
export async function loadTables(): Promise<void> {
  useTableSeatsStore();
  useTableDecisionsStore();
  useTableWindowsStore();
  const tables = useTablesStore();
  const tournamentTables = useTournamentTablesStore();
  tables.listen();
  tournamentTables.listen();
  await tables.refresh();
  await tournamentTables.catchUp();
}
