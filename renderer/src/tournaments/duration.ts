/**
 * The expected duration of a tournament, shown in the lobby and on its page: a stated estimate from
 * its structure and its field (R-TOURN-STRUCTURE), as docs/tournaments.md "The expected duration"
 * writes it:
 *
 * - the chips in play: the field × the starting stack (rebuys and add-ons not counted);
 * - the tournament is expected to end during the first level whose big blind (Stud: small bet) makes
 *   the average stack of the last two players at most END_AVERAGE_BIG_BLINDS big blinds, i.e.
 *   chips ≤ 2 × 20 × big blind;
 * - its duration: the levels up to and including that one × the level's minutes, plus the breaks
 *   before it (one after every `everyLevels` levels). A structure whose last level comes first is
 *   counted to its last level, "at least" (the last level goes on).
 *
 * Worked example: 100 players of the regular structure (10,000 chips, 10-minute levels, a 5-minute
 * break every 6 levels): 1,000,000 chips; a big blind of at least 25,000 is level 23; 23 × 10 min + 3
 * breaks × 5 min = 245 min, about 4 h 05.
 */
import type { TournamentSummary } from '../../../shared/protocol/tournament';
import { bigBlindOf } from './bar';
import type { Structure } from './lobby';
import { afterLevel } from '../../../shared/rules/tournament/structure';

/** The last two players' average stack, in big blinds, at which a tournament is expected to end. */
export const END_AVERAGE_BIG_BLINDS = 20;

export interface ExpectedDuration {
  /** Levels played (1-based: the level it is expected to end in). */
  levels: number;
  /** Breaks before that level. */
  breaks: number;
  minutes: number;
  /** The structure ends before that point: at least this long. */
  atLeast: boolean;
}

export function expectedDuration(s: Pick<Structure, 'levels' | 'levelMinutes' | 'breaks' | 'startingStack'>, field: number): ExpectedDuration {
  const chips = Math.max(2, field) * s.startingStack;
  let index = s.levels.findIndex((l) => bigBlindOf(l) > 0 && chips <= 2 * END_AVERAGE_BIG_BLINDS * bigBlindOf(l));
  const atLeast = index === -1;
  if (atLeast) index = s.levels.length - 1;
  // The breaks the operator's clock takes before that level (structure.ts `afterLevel`, R-TOURN-RUN).
  let breaks = 0;
  for (let j = 0; j < index; j++) if (afterLevel(s, j)?.kind === 'break') breaks++;
  return { levels: index + 1, breaks, minutes: (index + 1) * s.levelMinutes + breaks * (s.breaks?.minutes ?? 0), atLeast };
}

/** The field the estimate is for: a sit & go's seats (it starts full); a scheduled one's entries, at least its minimum. */
export function expectedField(t: Pick<TournamentSummary, 'format' | 'maxEntrants' | 'minEntrants' | 'entries'>): number {
  return t.format === 'sit-and-go' ? t.maxEntrants : Math.max(t.minEntrants, t.entries);
}

/** Minutes as hours and minutes ("4 h 05", "33 min"): the same in French and English. */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')}` : `${m} min`;
}
