import { afterEach, describe, expect, it } from 'vitest';
import { readyStructure } from '../../shared/rules/tournament';
import type { Action, HandState, LegalActions } from '../../shared/rules/engine/types';
import type { Brain } from '../tables/types';
import { books, cleanupEnvs, env, expectRankedOnce, playOut, practice, tournament } from '../../tests/support/operator/tournament-env';
import { roundGroups } from './places';

afterEach(cleanupEnvs);

/** A player who puts every chip in whenever it may (heads-up tables bust someone most hands). */
class Shover implements Brain {
  decide(_view: HandState, legal: LegalActions): Action {
    const seat = legal.seat!;
    if (legal.next === 'show') return { type: 'show', seat };
    if (legal.bet) return { type: 'bet', seat, to: legal.bet.max };
    if (legal.call !== null) return { type: 'call', seat };
    if (legal.bringIn !== null) return { type: 'bringIn', seat };
    if (legal.draw) return { type: 'draw', seat, discards: [] };
    return legal.check ? { type: 'check', seat } : { type: 'fold', seat };
  }
}

describe('hand-for-hand: the busts of one round ranked together across tables (R-TOURN-RUN, T 8-16; issue 16)', () => {
  it('equal stacks share a group; the groups come out the worst first', () => {
    expect(roundGroups([{ who: 'a', stack: 300 }, { who: 'b', stack: 100 }, { who: 'c', stack: 300 }, { who: 'd', stack: 200 }])).toEqual([['b'], ['d'], ['a', 'c']]);
    expect(roundGroups([])).toEqual([]);
  });

  it('two tables bust a player each in the same round: the one who started the hand with more chips gets the better place', () => {
    // 20 players at 3-seat tables, 3 paid: the bubble (4 left) is played on two tables of two.
    let rounds = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const e = env();
      const structure = { ...readyStructure('THNL', 'hyper-turbo'), lateRegistrationLevels: 0 };
      const t = tournament(e, { id: `mtt-hfh-${seed}`, format: 'scheduled', seats: 3, maxEntrants: 20, minEntrants: 20, startAt: e.timers.now() + 1000, structure }, seed);
      for (let i = 0; i < 20; i++) expect(t.register(practice(e), t.version, { brain: new Shover() }).ok).toBe(true);
      e.timers.advance(1000);
      expect(t.state).toBe('running');
      // The stacks at the start of each hand-for-hand round (every table between hands), and who went
      // out in it from which table.
      let atStart = new Map<number, number>();
      let tableOf = new Map<number, string>();
      let round: { id: number; stack: number; table: string }[] = [];
      const roundsSeen: (typeof round)[] = [];
      playOut(e, t, () => {
        if (t.state !== 'running') return;
        const live = t.liveTables();
        const gone = t.all().filter((x) => x.out && tableOf.has(x.player.accountId) && atStart.has(x.player.accountId) && !round.some((r) => r.id === x.player.accountId));
        for (const x of gone) round.push({ id: x.player.accountId, stack: atStart.get(x.player.accountId)!, table: tableOf.get(x.player.accountId)! });
        if (live.every((x) => !x.handInProgress)) {
          if (round.length > 0) roundsSeen.push(round);
          round = [];
          atStart = new Map();
          tableOf = new Map();
          if (t.inHandForHand) {
            for (const x of t.all()) if (!x.out && x.table) {
              atStart.set(x.player.accountId, x.stack);
              tableOf.set(x.player.accountId, x.table.tableId);
            }
          }
        }
      });
      if (round.length > 0) roundsSeen.push(round);
      expect(e.errors).toEqual([]);
      expectRankedOnce(t);
      books(e);
      for (const r of roundsSeen) {
        if (new Set(r.map((x) => x.table)).size < 2) continue;
        rounds++;
        // Across tables: more chips at the hand's start, a better (smaller) place; equal stacks share it.
        for (const a of r)
          for (const b of r) {
            const pa = t.entrant(a.id)!.place!;
            const pb = t.entrant(b.id)!.place!;
            if (a.stack > b.stack) expect(pa).toBeLessThan(pb);
            if (a.stack === b.stack) expect(pa).toBe(pb);
          }
      }
    }
    // The deck decides how often both tables bust a player in one round: some of these seeds do.
    expect(rounds).toBeGreaterThan(0);
  });
});
