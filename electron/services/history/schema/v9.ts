/**
 * Schema version 9 of the hand history: each hand's money kept apart, and observed hands (R-RESULTS:
 * currencies are never added together; a hand without the player is stored, never in their results).
 * Frozen: literal SQL only, no live code. Additive: one partial index; the rest is what the columns
 * of version 1 may now hold.
 *
 *   hands.flags bits 6 to 8  the hand's money when neither euros nor play money: 2 dollars, 3 pounds,
 *     4 a tournament's chips (imported site files: shared/history/money.ts). 0 there is euros or, with
 *     bit 0, play money, as versions 1 to 8 wrote them: their hands need no change.
 *   hands.flags bit 9 (512)  an observed hand: the player was not at the table (no name of theirs, no
 *     hidden cards dealt to the file's writer). hero_seat is -1, hero_net, hero_rake, stats and
 *     hero_cards 0; it is in no total, no graph piece, no statistic.
 *   day_totals.money, hour_totals.money, hour_stats.money, hour_series.money  the money's code
 *     (0 euros, 1 play money, 2 dollars, 3 pounds), no longer only 0 or 1.
 *   INDEX hands_observed (id) WHERE flags & 512: the observed hands, read when the player names
 *     themselves (Settings, my names) to give them back their hands.
 *
 * A version 8 file holds no observed hand and no money but euros and play money (the site import
 * of that version kept only hands with a hero, as euros or play money): nothing to fill. An older
 * Cercle refuses a version 9 file (its version is unknown there) rather than adding dollars to euros.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v9: Migration = (db) => {
  db.exec('CREATE INDEX hands_observed ON hands(id) WHERE (flags & 512) != 0;');
};
