/**
 * The hand history's schema versions, one frozen migration each (a migration never
 * calls live code, so adding version n + 1 cannot change what version n does). Index i brings the
 * schema from version i to i + 1. Values computed by live code (a hand's statistics, its all-in
 * adjusted net, its exchange number, the hero's cards, the graph's hour pieces) are filled by the
 * store after the migrations (writer.ts `fillDerived`).
 *
 * Versions 3 and 4 hold the exchange number and the hero's cards, 5 the graph's hour pieces
 * (`hour_series`): a file at version 4 only gets version 5. Version 6 holds tournaments and their hands,
 * 7 tournament money when it moves and refunded registrations; 8 keeps a tied finish (how many share the
 * place); 9 keeps each hand's money apart (dollars, pounds, tournament chips) and observed hands.
 */
import type { Migration } from '../../../../shared/node/sqlite';
import { v1 } from './v1';
import { v2 } from './v2';
import { v3 } from './v3';
import { v4 } from './v4';
import { v5 } from './v5';
import { v6 } from './v6';
import { v7 } from './v7';
import { v8 } from './v8';
import { v9 } from './v9';

export const HISTORY_MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4, v5, v6, v7, v8, v9];
/** `PRAGMA application_id` of a Cercle history ("CRCH"). */
export const APPLICATION_ID = 0x43524348;
