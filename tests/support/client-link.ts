/**
 * Playing through a client link in integration tests: a practice-like player that acts on its turn
 * through the link, and the hand ids each side holds (the operator's record, the link's store, the
 * history file), to compare them after reconnections.
 */
import type { HistoryStore } from '../../electron/services/history/store';
import type { ActResult, OperatorLink } from '../../electron/services/link';
import type { RunningOperator } from '../../operator/server/operator';
import type { Move } from '../../shared/protocol/messages';
import { legalActions, type HandState, type LegalActions } from '../../shared/rules/engine';
import { prng } from '../../shared/rules/engine/test-support';

export async function until(cond: () => boolean, ms = 20_000, why: () => string = () => ''): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out ${why()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}


function choose(hand: HandState, legal: LegalActions, r: () => number): Move {
  if (legal.next === 'show') return legal.muck && r() < 0.3 ? { type: 'muck' } : { type: 'show' };
  if (legal.next === 'draw') {
    const hole = (hand.seats[legal.seat!].hole as number[]).slice();
    const k = Math.floor(r() * ((legal.draw?.max ?? 0) + 1));
    const discards: number[] = [];
    for (let i = 0; i < k; i++) discards.push(hole.splice(Math.floor(r() * hole.length), 1)[0]);
    return { type: 'draw', discards };
  }
  const x = r();
  if (legal.bringIn !== null) return legal.bet && x < 0.3 ? { type: 'bet', to: legal.bet.min } : { type: 'bringIn' };
  if (legal.bet && x < 0.25) {
    const b = legal.bet;
    return { type: 'bet', to: b.exact || r() < 0.6 ? b.min : b.min + Math.floor(r() * (b.max - b.min + 1)) };
  }
  if (legal.fold && legal.call !== null && x < 0.4) return { type: 'fold' };
  if (legal.call !== null) return { type: 'call' };
  if (legal.check) return { type: 'check' };
  return { type: 'fold' };
}

/**
 * Waits, with the player paused, for a decision of ours in a hand we are dealt into. Clock timeouts
 * while the connection was down may have sat us out (two in a row): we sit back in, as a player would.
 * Busted in the hand just before the pause (the paused player tops up no more), we buy chips back
 * first: sitting in with none is refused, and we would wait for a turn that never comes.
 */
export async function ourTurn(link: OperatorLink, model: NonNullable<ReturnType<OperatorLink['table']>>, play: { idle(): boolean }): Promise<void> {
  let sitting = false;
  await until(
    () => {
      const seat = model.heroSeat;
      if (seat !== null && model.view?.seats[seat]?.status === 'sitting-out' && !sitting && link.state === 'connected') {
        sitting = true;
        const busted = model.view.seats[seat].stack === 0 && model.view.you?.pendingTopUp === 0;
        void (busted ? link.topUp(model.tableId, model.view.buyIn.max) : Promise.resolve())
          .then(() => link.sitIn(model.tableId, false))
          .finally(() => (sitting = false));
      }
      const hand = model.hand;
      return play.idle() && hand !== null && seat !== null && hand.plan.dealtIn.includes(seat) && model.view!.turn?.seat === seat && legalActions(hand).seat === seat;
    },
    20_000,
    () => `seat ${model.heroSeat} ${JSON.stringify(model.heroSeat === null ? null : model.view?.seats[model.heroSeat])} turn ${JSON.stringify(model.view?.turn)}`,
  );
}

/**
 * Plays our seat through the link: on our turn (the operator's `turn` naming our seat, and the
 * engine agreeing), a random legal move; between hands, tops up a short stack and sits back in.
 */
export function autoPlay(link: OperatorLink, tableId: string, seed: number) {
  const rng = prng(seed);
  const results: ActResult[] = [];
  let busy = false;
  let paused = false;
  let topping = false;
  let topUps = 0;
  const tick = (): void => {
    const m = link.table(tableId);
    if (paused || busy || !m || m.status !== 'live' || m.isHeld) return;
    const seat = m.heroSeat;
    const hand = m.hand;
    if (seat === null || m.view!.you?.leaving) return;
    const mine = m.view!.seats[seat];
    if ((hand === null || !hand.plan.dealtIn.includes(seat)) && mine && !topping && link.state === 'connected') {
      if (mine.stack < 1000 || mine.status === 'sitting-out') {
        topping = true;
        void (async () => {
          const room = 5000 - mine.stack - (m.view!.you?.pendingTopUp ?? 0);
          if (mine.stack < 1000 && room > 0 && (await link.topUp(tableId, room)).ok) topUps++;
          if (link.table(tableId)?.view?.seats[seat]?.status === 'sitting-out') await link.sitIn(tableId, false);
          topping = false;
          setImmediate(tick);
        })();
      }
    }
    if (hand === null || m.view!.turn?.seat !== seat) return;
    const legal = legalActions(hand);
    if (legal.seat !== seat || legal.next === 'deal' || legal.next === 'done') return;
    busy = true;
    void link.act(tableId, choose(hand, legal, rng)).then((r) => {
      results.push(r);
      busy = false;
      setImmediate(tick);
    });
  };
  const offs = [link.on('table', (e) => e.tableId === tableId && tick()), link.on('state', () => setImmediate(tick))];
  tick();
  return {
    results,
    get topUps() {
      return topUps;
    },
    pause: () => void (paused = true),
    /** Nothing of ours in flight (pause, then wait for this before acting by hand). */
    idle: () => !busy && !topping,
    resume: () => {
      paused = false;
      tick();
    },
    stop: () => offs.forEach((f) => f()),
    /** Refusals a correct client never gets (races with the clock, or with leaving, aside). */
    unexpected: () => results.filter((r) => !r.ok && !['NOT_YOUR_TURN', 'STALE', 'NO_HAND', 'NOT_SEATED'].includes(r.code)),
  };
}

/** Hand ids stored through the tracker, counted per id; `fromHistory`: those fetched after a snapshot. */
export function storedIds(link: OperatorLink): Map<string, number> & { fromHistory: number } {
  const ids = Object.assign(new Map<string, number>(), { fromHistory: 0 });
  link.on('table', (e) => {
    if (e.change.type !== 'hand-stored' || !e.change.stored) return;
    ids.set(e.change.handId, (ids.get(e.change.handId) ?? 0) + 1);
    if (e.change.via === 'history') ids.fromHistory++;
  });
  return ids;
}

/** Every hand id of the account in the operator's history (R-HISTORY), all pages. */
export function operatorHandIds(o: RunningOperator, accountId: number): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = o.history.page(accountId, cursor, 50);
    if (!page.ok) throw new Error('history page');
    ids.push(...page.hands.map((h) => h.handId));
    if (page.next === null) return ids;
    cursor = page.next;
  }
}

export function localHandIds(store: HistoryStore): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = store.page({}, { sort: 'time', dir: 'desc', limit: 200, cursor });
    if (!page.ok) throw new Error(page.reason);
    ids.push(...page.hands.map((h) => h.handId));
    if (page.next === null) return ids;
    cursor = page.next;
  }
}
