/**
 * The operator's databases open through the one SQLite opener the client's history uses too
 * (shared/node/sqlite.ts, issue 14 item 5); this name stays so operator modules import it as before.
 */
export { DatabaseTooNewError, openDatabase, schemaVersion, type Db, type Migration, type OpenDatabaseOptions } from '../shared/node/sqlite';
