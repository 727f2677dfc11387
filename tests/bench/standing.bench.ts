/**
 * The tournament standing's cost with a large field (DESIGN.md §4: figures, never
 * timed tests), in one process, no sockets: the 10,000-entrant freezeout of mtt-field.ts,
 * registered, started, and played for a moment (the stacks spread out); its tables play on between reads.
 *
 * - `standing-10000-tells-per-s:cercle`: what is sent after a settled hand (`tournament.state`): the
 *   standing (clock, field, stack, rank) of each person of one 9-seat table, computed by the hub
 *   (`TournamentHub.standings`); a table after another, round the field, while the tournament plays on
 *   (its stacks change with every hand: the order of stacks follows each event's changed entrants).
 * - Its peer, `standing-10000-tells-per-s:one-pass`, in the same run: the
 *   same ranks counted in one pass over the field per message (the operator's way before the order of
 *   stacks: O(field) per message), written out here.
 *
 * Both are measured in alternated rounds (the best round of each kept); every 1,000th read checks
 * that both agree. `npm run bench -- standing`.
 */
import { performance } from 'node:perf_hooks';
import { TournamentHub } from '../../operator/tournaments/hub';
import type { LiveTournament as Tournament } from '../../operator/tournaments/live';
import { registeredField } from './mtt-field';
import { opsPerSecond, type BenchResult } from './types';

const FIELD = 10_000;

/** Ranks counted in one pass over the field (1 + the players in with more chips), as before the order of stacks. */
function onePassRanks(t: Tournament, ids: readonly number[]): Map<number, number> {
  const mine = ids.map((id) => t.entrant(id)!).map((e) => (e.out ? 0 : e.stack + e.pendingChips));
  const sorted = [...new Set(mine)].sort((a, b) => a - b);
  const above = new Array<number>(sorted.length + 1).fill(0);
  for (const e of t.all()) {
    if (e.out) continue;
    const s = e.stack + e.pendingChips;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    above[0]++;
    above[lo]--;
  }
  const rankOf = new Map<number, number>();
  let run = 0;
  for (let i = 0; i < sorted.length; i++) {
    run += above[i];
    rankOf.set(sorted[i], run + 1);
  }
  return new Map(ids.map((id, i) => [id, rankOf.get(mine[i])!]));
}

export default async function standingBench(): Promise<BenchResult[]> {
  const { t, deps, accounts, errors, close } = registeredField('standing-bench', FIELD);
  const hub = new TournamentHub({ ...deps, accounts });
  try {
    t.start();
    // A moment of play: the stacks spread out (and some players are out).
    const until = performance.now() + 3000;
    while (performance.now() < until && errors.length === 0) await new Promise((r) => setTimeout(r, 50));
    if (errors.length > 0) throw errors[0] as Error;
    const tables = t.liveTables().map((x) => x.players().map((p) => p.accountId));
    process.stderr.write(`  ${t.remaining} of ${FIELD} in at ${tables.length} tables, ${t.handsPlayed} hands played\n`);

    let i = 0;
    let checks = 0;
    const read = (ranks: (ids: number[]) => Map<number, number>) => () => {
      const ids = tables[i++ % tables.length];
      const got = ranks(ids);
      if (i % 1000 === 0) {
        const want = onePassRanks(t, ids);
        // (0: a player out, who has no standing.)
        for (const id of ids) {
          if (got.get(id) === 0) continue;
          if (got.get(id) !== want.get(id)) throw new Error(`rank of ${id}: ${got.get(id)}, one pass ${want.get(id)}`);
          checks++;
        }
      }
      return 1;
    };
    // Alternated rounds, the best of each kept: a machine shared with other work slows both alike.
    const hubRead = read((ids) => new Map([...hub.standings(t, ids)].map(([id, s]) => [id, s.you?.rank ?? 0])));
    const onePassRead = read((ids) => onePassRanks(t, ids));
    let cercle = 0;
    let onePass = 0;
    for (let round = 0; round < 4; round++) {
      cercle = Math.max(cercle, opsPerSecond(hubRead, 600));
      onePass = Math.max(onePass, opsPerSecond(onePassRead, 600));
    }
    if (checks === 0) throw new Error('no read was checked');
    process.stderr.write(`  hub ${cercle.toFixed(0)}/s, one pass ${onePass.toFixed(0)}/s: ×${(cercle / onePass).toFixed(1)}\n`);
    return [
      { name: 'standing-10000-tells-per-s:cercle', unit: 'tables/s', value: cercle },
      { name: 'standing-10000-tells-per-s:one-pass', unit: 'tables/s', value: onePass },
    ];
  } finally {
    close();
  }
}
