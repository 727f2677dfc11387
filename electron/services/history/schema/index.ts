/**
 * The hand history's schema versions, one frozen migration each (issue 14 item 6: a migration never
 * calls live code, so adding version n + 1 cannot change what version n does). Index i brings the
 * schema from version i to i + 1. Values computed by live code (a hand's statistics, its all-in
 * adjusted net) are filled by the store after the migrations (store.ts `fillDerived`).
 */
import type { Migration } from '../../../../shared/node/sqlite';
import { v1 } from './v1';
import { v2 } from './v2';
import { v3 } from './v3';

export const HISTORY_MIGRATIONS: readonly Migration[] = [v1, v2, v3];
/** `PRAGMA application_id` of a Cercle history ("CRCH"). */
export const APPLICATION_ID = 0x43524348;
