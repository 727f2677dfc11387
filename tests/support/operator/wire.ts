/**
 * Pieces the wire tests of watching share (operator-tournament-wire.test.ts, operator-watch-resume.test.ts).
 */
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import { MAX_WATCHED } from '../../../operator/server/watches';
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
