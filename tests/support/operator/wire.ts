/**
 * Pieces the wire tests of watching share (operator-tournament-wire.test.ts, operator-watch-resume.test.ts).
 */
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import { tablesOf } from '../../../operator/config/config';
import type { OperatorOptions } from '../../../operator/server/operator';
import { MAX_WATCHED } from '../../../operator/server/watches';
import { scaledTimers } from '../../../operator/tables/timers';
import type { TestClient } from './test-client';

/** One more cash table than a connection may watch: the first deals hands (practice players), the others are quiet. */
export const WATCH_TABLES = Array.from({ length: MAX_WATCHED + 1 }, (_, i) => ({
  id: `w-${String(i + 1).padStart(2, '0')}`,
  name: `Watch ${i + 1}`,
  variant: 'THNL' as const,
  money: 'play' as const,
  stakes: { smallBlind: 10, bigBlind: 20 },
  seats: 6,
  buyIn: { min: 400, max: 2000 },
  practicePlayers: i === 0 ? 3 : 0,
}));

/**
 * The operator both watch tests start on `dataDir` with WATCH_TABLES: 40 times faster (3-minute levels
 * in 4.5 s, the 30 s action clock in 750 ms), practice players acting at once and dealing with nobody
 * seated, no message rate in the way.
 */
export function watchOperatorOptions(dataDir: string, idOper: string): OperatorOptions {
  return {
    dataDir,
    lobby: tablesOf({ version: 1, operator: { idOper, idCoffre: 1, name: 'Test' }, tables: WATCH_TABLES }),
    timers: scaledTimers(40),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    practiceNeedsPeople: false,
    practice: { samples: 2 },
    rateLimit: { perSecond: 100_000, burst: 100_000, abuse: 1_000_000 },
    durability: 'normal',
    log: () => undefined,
  };
}

/** The client's `authed` (its account, token and session). */
export const authedOf = (c: TestClient): ServerMessageOf<'authed'> => c.received.find((m): m is ServerMessageOf<'authed'> => m.type === 'authed')!;

/** Waits until `ok()` holds, or fails naming `what`. */
export async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
