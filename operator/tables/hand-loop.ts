/**
 * A table's hand loop (table.ts split into its streams, its hand loop and its
 * requests), authoritative (DESIGN.md §1):
 *
 *   planNextHand ─▶ startHand ─▶ { deal from the CSPRNG deck (R-DEAL) | a decision } ─▶ …
 *     decisions: a person (action clock, then time bank; timeout: check, else fold),
 *                a practice player's Brain (it sees only viewFor(its seat)),
 *                the operator for a player who is leaving (check, else fold)
 *     ─▶ settle: rake through TableMoney, one POJEU, records to history, afterHand
 *   between hands: pending top-ups (POACHAT), leaves (cash-out, POBILAN), repeated timeouts sit out
 *   a hand voided (the table stops, or a fault): every stake back on its cave, the reason in the
 *     operator's log; no POJEU, no POANNUL (docs/trace.md)
 *   records written without the player's action (time-outs, the disconnection grace, the table
 *   stopping, practice players) carry `supervision` (A 1.3.6.c)
 */
import { randomBytes } from 'node:crypto';
import { handViewFor } from '../../shared/protocol/hand';
import type { Card } from '../../shared/rules/cards';
import { actionFor, apply, legalActions, startHand, viewFor, type Action, type HandPlan, type HandState, type LegalActions, type PotResult } from '../../shared/rules/engine';
import { recordOf, type HandRecord } from '../../shared/rules/record';
import { addChips, afterHand, leave as leaveSeat, planNextHand, sitOut, type Seating } from '../../shared/rules/table';
import { VARIANTS } from '../../shared/rules/variants';
import { Deck } from './deck';
import { describeTable, pojeuOf } from '../trace/pojeu';
import type { TimerHandle } from './timers';
import type { CancelReason, MoneyResult, RecordOrigin, TablePositions, TableRefusal } from './types';
import { TableStreams, type HandInPlay, type Member, type Turn } from './streams';

/** A record of the player's own doing (A 1.3.6.c: no `supervision`). */
export const PLAYER: RecordOrigin = { supervision: false };

export function refusal(code: TableRefusal['code'], message: string, extra: Partial<TableRefusal> = {}): TableRefusal {
  return { ok: false, code, message, ...extra };
}

/** What the clock (or the operator, for a player leaving) does: check if possible, else fold (R-FORCED: a bring-in is posted). */
export function timeoutAction(legal: LegalActions): Action {
  const seat = legal.seat as number;
  switch (legal.next) {
    case 'draw':
      return { type: 'draw', seat, discards: [] };
    case 'show':
      return legal.muck ? { type: 'muck', seat } : { type: 'show', seat };
    default:
      if (legal.check) return { type: 'check', seat };
      if (legal.bringIn !== null) return { type: 'bringIn', seat };
      return { type: 'fold', seat };
  }
}

/** The hand loop over the table's streams; the table's requests (table.ts) build on it. */
export abstract class HandLoop extends TableStreams {
  private readonly runId = Date.now().toString(36) + randomBytes(2).toString('hex');
  private turnToken = 0;
  protected nextHandTimer: TimerHandle | null = null;
  private readonly game: 'blinds' | 'stud' = VARIANTS[this.spec.rules.variant].forcedBets === 'ante-bring-in' ? 'stud' : 'blinds';
  /** Hands finished here. */
  handsPlayed = 0;

  // -------------------------------------------------------------------------------------------
  // The hand loop

  protected inHand(m: Member): boolean {
    return this.hand !== null && this.hand.plan.dealtIn.includes(m.seat) && this.hand.who[m.seat]?.accountId === m.player.accountId;
  }

  private humanPresent(): boolean {
    return this.humans.some((m) => m.connected && this.seating.seats[m.seat]?.status !== 'sitting-out');
  }

  /** Runs `fn`; a bug or I/O failure is reported, the hand cancelled, and the table goes on. */
  /** A money movement and its record as one durable step (TableHooks.step). */
  protected step<T>(fn: () => T): T {
    return this.hooks.step ? this.hooks.step(fn) : fn();
  }

  protected guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.hooks.error(e);
      this.cancelHand('fault');
      this.scheduleNextHand();
    }
  }

  private scheduleNextHand(): void {
    if (this.closed || this.nextHandTimer !== null) return;
    this.nextHandTimer = this.timers.set(() => {
      this.nextHandTimer = null;
      this.guard(() => this.maybeStart());
    }, this.opt.betweenHandsMs);
  }

  protected maybeStart(): void {
    if (this.hand !== null || this.closed || this.nextHandTimer !== null) return;
    if (this.opt.requireHuman && !this.humanPresent()) return;
    const plan = planNextHand(this.seating, { game: this.game, mode: this.spec.mode, firstButton: this.random(this.spec.seats) });
    if (!plan.ok) return;
    // A tournament holds its tables between hands (start, breaks, hand-for-hand).
    if (this.hooks.mayDeal && !this.hooks.mayDeal()) return;
    const rules = this.hooks.rulesForNextHand();
    const no = ++this.handNo;
    const id = `${this.spec.tableId}-${this.runId}-${no}`;
    const enginePlan: HandPlan = {
      button: plan.button,
      smallBlind: plan.smallBlind,
      bigBlind: plan.bigBlind,
      extraBigBlinds: plan.extraBigBlinds,
      deadSmallBlinds: plan.deadSmallBlinds,
      dealtIn: plan.dealtIn,
    };
    const seats = this.seating.seats.map((p) => (p === null ? null : { player: p.id, stack: p.stack }));
    const state = startHand({ rules, seats, plan: enginePlan, handId: id });
    const now = this.timers.now();
    const who = this.bySeat.map((m) =>
      m === null
        ? null
        : { accountId: m.player.accountId, practice: m.player.practice, player: m.player, idJoueur: String(m.player.accountId), ipJoueur: m.player.ip, inscription: m.inscription },
    );
    // Written before the hand goes on: a hand found in play after a crash is void (recovery.ts).
    this.hooks.money.handStarted(
      id,
      plan.dealtIn.flatMap((seat) => (who[seat] ? [who[seat].accountId] : [])),
      plan.bigBlind,
    );
    // R-TIMELIMIT: the first hand dealt to a person at this table opens their stretch of play.
    const playtime = this.hooks.playtime;
    if (playtime) for (const seat of plan.dealtIn) if (who[seat] && !who[seat].practice) this.safely(() => playtime.dealt(who[seat]!.accountId));
    this.hand = { no, id, plan, state, deck: new Deck(this.options.dealRandom), times: state.log.map(() => now), who, turn: null, supervised: false };
    this.emit((seat) => ({ type: 'handStart', handNo: no, hand: handViewFor(state, seat) })); // A view, not the engine's state
    this.advance();
  }

  /** Plays the hand forward until a person must decide, a practice player thinks, or it ends. */
  protected advance(): void {
    for (let guard = 0; guard < 100_000; guard++) {
      const h = this.hand;
      if (h === null) return;
      const legal = legalActions(h.state);
      if (legal.next === 'done') {
        this.finishHand();
        return;
      }
      if (legal.next === 'deal') {
        this.commit(h.deck.next(h.state, legal), 'dealer');
        continue;
      }
      const seat = legal.seat as number;
      const m = this.bySeat[seat];
      const absent = m === null || m.leaving || (this.spec.mode === 'tournament' && this.seating.seats[seat]?.status === 'sitting-out');
      if ((legal.next === 'show' && !legal.muck) || absent) {
        // Nothing to choose (all-in showdown, T 8-4), or the player is leaving / absent (T 2-15): the
        // latter is the operator acting for them (supervision, A 1.3.6.c).
        if (absent) h.supervised = true;
        this.commit(timeoutAction(legal), 'operator');
        continue;
      }
      if (m.brain) {
        // Each practice decision is its own turn of the event loop (even without a delay), so that busy
        // practice tables never hold up people's frames for longer than one decision.
        const [lo, hi] = this.opt.practiceDelayMs;
        this.startTurn(seat, 'practice', hi <= 0 ? 0 : lo + this.random(Math.max(1, hi - lo)), m);
        return;
      }
      this.startTurn(seat, 'action', h.state.rules.actionSeconds * 1000, m);
      return;
    }
    throw new Error(`${this.spec.tableId}: the hand did not progress`);
  }

  private practiceMove(m: Member, legal: LegalActions): void {
    const h = this.hand!;
    const decided = m.brain!.decide(viewFor(h.state, m.seat), legal);
    const r = apply(h.state, decided);
    if (r.ok) this.commitApplied(decided, r.state, 'player');
    else this.commit(timeoutAction(legal), 'operator');
  }

  private startTurn(seat: number, phase: Turn['phase'], ms: number, m: Member): void {
    const h = this.hand!;
    const token = ++this.turnToken;
    const now = this.timers.now();
    h.turn = { seat, token, phase, since: now, startedAt: now, endsAt: now + ms, timer: this.timers.set(() => this.guard(() => this.onTurnTimer(token)), ms) };
    if (!this.audience) return;
    const actionMs = phase === 'practice' ? h.state.rules.actionSeconds * 1000 : ms;
    this.emit(() => ({ type: 'turn', turn: { seat, actionMs, timeBankMs: m.brain ? 0 : m.timeBankMs } }));
  }

  private onTurnTimer(token: number): void {
    const h = this.hand;
    if (!h || !h.turn || h.turn.token !== token) return;
    const seat = h.turn.seat;
    const m = this.bySeat[seat];
    const legal = legalActions(h.state);
    if (h.turn.phase === 'practice' && m?.brain) {
      h.turn = null;
      this.practiceMove(m, legal);
      this.advance();
      return;
    }
    if (h.turn.phase === 'action' && m && m.timeBankMs > 0) {
      // The action time is over: the time bank runs.
      const now = this.timers.now();
      h.turn = { seat, token, phase: 'bank', since: h.turn.since, startedAt: now, endsAt: now + m.timeBankMs, timer: this.timers.set(() => this.guard(() => this.onTurnTimer(token)), m.timeBankMs) };
      this.emit(() => ({ type: 'turn', turn: { seat, actionMs: 0, timeBankMs: m.timeBankMs } }));
      return;
    }
    h.turn = null;
    h.supervised = true; // a time-out: the operator acts for the player (A 1.3.6.c, supervision)
    if (m) {
      m.timeBankMs = 0;
      m.timeouts++;
    }
    this.commit(timeoutAction(legal), 'clock');
    if (m && m.timeouts >= this.opt.maxTimeouts && this.seating.seats[seat]?.status !== 'sitting-out') {
      const c = sitOut(this.seating, m.player.name);
      if (c.ok) this.seating = c.seating;
      this.syncSeats();
    }
    this.advance();
  }

  /** The person acted (or is leaving): the clock stops; time bank used is spent. */
  protected stopClock(m: Member, acted: boolean): void {
    const h = this.hand;
    if (!h || !h.turn || h.turn.seat !== m.seat) return;
    this.timers.clear(h.turn.timer);
    if (h.turn.phase === 'bank') m.timeBankMs = Math.max(0, m.timeBankMs - (this.timers.now() - h.turn.startedAt));
    if (acted) m.timeouts = 0;
    h.turn = null;
  }

  protected commit(action: Action, by: 'dealer' | 'player' | 'clock' | 'operator'): void {
    const r = apply(this.hand!.state, action);
    if (!r.ok) throw new Error(`${this.spec.tableId}: the engine refused the table's own ${action.type}: ${r.rule} ${r.message}`);
    this.commitApplied(action, r.state, by);
  }

  protected commitApplied(action: Action, after: HandState, by: 'dealer' | 'player' | 'clock' | 'operator'): void {
    const h = this.hand!;
    const before = h.state;
    h.state = after;
    const now = this.timers.now();
    for (let i = before.log.length; i < after.log.length; i++) h.times.push(now);
    if (!this.audience) return;
    this.emit((seat) => {
      let seen = actionFor(before, action, seat);
      if (seen.type === 'show') {
        // Shown cards are public once shown: taken from the recipient's own view of the state after.
        seen = { ...seen, cards: viewFor(after, seat).seats[seen.seat].hole as Card[] };
      }
      return { type: 'action', action: seen, by };
    });
  }

  /**
   * Settles the hand. Everything that can fail on a bug is computed first (the record, the POJEU, the
   * next seating), then the money moves (the rake, R-RAKE, with the new stacks): from that point the
   * hand is settled, and a failure writing the trace or the history is reported without undoing it.
   */
  private finishHand(): void {
    const h = this.hand!;
    const final = h.state;
    const result = final.result!;
    const endedAt = this.timers.now();
    const record = recordOf(final);
    const pojeu = pojeuOf(record, {
      tech: this.spec.tableId,
      pool: h.id,
      idOper: this.options.idOper,
      seats: h.who,
      times: h.times,
      description: describeTable(final.rules, this.spec.money),
      info: `${this.spec.name}, hand ${h.no}`,
      scale: this.spec.money === 'real' ? 2 : 0,
      test: this.spec.money === 'play',
      supervision: h.supervised,
    });
    const after = afterHand(this.seating, { plan: h.plan, finalStacks: h.plan.dealtIn.map((seat) => ({ seat, stack: final.seats[seat].stack })) });
    if (!after.ok) throw new Error(`${this.spec.tableId}: afterHand refused: ${after.reason} ${after.detail ?? ''}`);

    // The rake (R-RAKE) and the stacks after the hand, in one write: a crash leaves both or neither.
    const stacks = [...this.members.values()].map((m) => ({ accountId: m.player.accountId, stack: after.seating.seats[m.seat]?.stack ?? 0 }));
    const positions = this.positionsOf(after.seating);
    // With its POJEU, in one step: a hand whose record cannot be written is not
    // settled; the error reaches guard(), which voids it (every stake back on its cave).
    this.step(() => {
      this.hooks.money.settle(h.id, result.rake, stacks, positions);
      this.hooks.trace.hand(pojeu);
    });
    this.seating = after.seating;
    this.hand = null;
    this.handsPlayed++;

    // Results and history, each rendered from the recipient's view (R-RESULTS, R-HISTORY).
    const seen = new Map<number | null, HandRecord>();
    const recordFor = (seat: number | null): HandRecord => {
      let rec = seen.get(seat);
      if (!rec) seen.set(seat, (rec = recordOf(viewFor(final, seat))));
      return rec;
    };
    const history = this.hooks.history;
    if (history) {
      for (const seat of h.plan.dealtIn) {
        const who = h.who[seat];
        if (who && !who.practice) this.safely(() => history(who.accountId, this.spec.tableId, h.id, endedAt, recordFor(seat)));
      }
    }
    this.emit((seat) => ({ type: 'handEnd', handNo: h.no, record: recordFor(seat) }));
    // Tournament: the players busted leave once they have seen the hand's end (T 8-15).
    if (after.eliminated.length > 0) this.eliminate(h.id, after.eliminated, h);
    this.betweenHands();
    this.syncSeats();
    this.scheduleNextHand();
    this.hooks.afterHand?.();
  }

  /** The blinds' positions of a seating, and the members here who have played. */
  protected positionsOf(seating: Seating): TablePositions {
    const played: number[] = [];
    for (const m of this.members.values()) if (seating.seats[m.seat]?.hasPlayed) played.push(m.player.accountId);
    return { last: seating.last, played };
  }

  /**
   * Tournament players eliminated by the hand (T 8-15): their seats are already empty in the seating;
   * they leave the table (told with `table.left`, nothing to cash out) and the tournament ranks them
   * (R-ELIM, T 8-16: groups from afterHand).
   */
  private eliminate(handId: string, groups: string[][], h: HandInPlay): void {
    const byName = new Map([...this.members.values()].map((m) => [m.player.name, m]));
    const out = groups.map((g) =>
      g.flatMap((name) => {
        const m = byName.get(name);
        if (!m) return [];
        this.members.delete(m.player.accountId);
        this.bySeat[m.seat] = null;
        this.humans = this.humans.filter((x) => x !== m);
        this.timers.clear(m.graceTimer);
        m.graceTimer = null;
        if (m.sink) m.sink(JSON.stringify({ type: 'table.left', rid: null, tableId: this.spec.tableId, cashedOut: 0 }));
        m.sink = null;
        return [{ accountId: m.player.accountId, stackAtStart: h.plan.atStart[m.seat]?.stack ?? 0, by: this.eliminatedBy(h, m.seat) }];
      }),
    );
    this.safely(() => this.hooks.eliminated?.(handId, out));
  }

  /** The winners of the last pot `seat` was in (a bounty's collectors), in that pot's odd-chip order. */
  private eliminatedBy(h: HandInPlay, seat: number): number[] {
    return bountyCollectors(h.state.result?.pots ?? [], seat).flatMap((x) => (h.who[x] ? [h.who[x].accountId] : []));
  }

  /** A write that follows money already moved: a failure is reported, never allowed to undo the movement. */
  protected safely(fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (e) {
      this.hooks.error(e);
      return false;
    }
  }

  /** Pending top-ups (POACHAT), then leaves (cash-out, POBILAN). */
  private betweenHands(): void {
    const playtime = this.hooks.playtime;
    for (const m of [...this.members.values()]) {
      // R-TIMELIMIT (art. 16-1): "no further game operation from the end of the hand in progress";
      // R-EXCLUDE, R-BANNED likewise. The operator stands the person up: no top-up, stack back.
      if (playtime && !m.leaving && !m.player.practice && !playtime.mayPlayOn(m.player.accountId)) {
        m.leaving = true;
        m.leaveBy = 'operator';
        m.pendingTopUp = 0;
      }
      // Asking may have stood the player up already: the "reached" warning it sends makes the operator
      // stand up at once a player between hands (server/operator.ts). Removed twice, the second removal
      // met an empty seat, and the action that ended the hand was answered INTERNAL.
      if (this.members.get(m.player.accountId) !== m) continue;
      if (m.pendingTopUp > 0) {
        const amount = m.pendingTopUp;
        m.pendingTopUp = 0;
        // Answered `ok` while the hand was in play, refused now (a stake limit lowered since, the money
        // gone: R-LIMITS, R-NODEBT): the player is told why their stack did not grow.
        const done = this.applyTopUp(m, amount);
        if (!done.ok) this.tellRefused(m, done);
      }
      if (m.leaving) this.removeMember(m, true);
    }
  }

  /** A refusal of something the player asked earlier (no request to answer now): an `error` without `rid`. */
  private tellRefused(m: Member, r: TableRefusal): void {
    const { code, message, rule } = r;
    m.sink?.(JSON.stringify({ type: 'error', rid: null, code, message, tableId: this.spec.tableId, ...(rule ? { rule } : {}) }));
  }

  protected applyTopUp(m: Member, amount: number): { ok: true } | TableRefusal {
    const c = addChips(this.seating, m.player.name, amount);
    if (!c.ok) throw new Error(`${this.spec.tableId}: addChips refused: ${c.reason}`);
    // The top-up and its POACHAT in one step.
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.topUp(m.player, amount, `top-up:${m.inscription}:${++m.topUps}`);
        if (r.ok) this.hooks.trace.purchased(m.player, m.inscription, r.movement, PLAYER);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      paid = refusal('INTERNAL', 'the operator could not record the top-up; nothing was taken');
    }
    if (!paid.ok) {
      this.syncYou(m);
      return paid;
    }
    this.seating = c.seating;
    this.syncSeats();
    return { ok: true };
  }

  protected removeMember(m: Member, notify: boolean): number {
    const stack = this.seating.seats[m.seat]!.stack;
    const key = `cash-out:${m.inscription}`;
    const refused = (r: TableRefusal) => new Error(`${this.spec.tableId}: cash-out of ${m.player.name} refused: ${r.code} ${r.message}`);
    // The cash-out, its POBILAN and the seat forgotten, in one step. The money goes
    // back whatever happens (R-CASH): if the record cannot be written, the cash-out alone, and the
    // kept seat has the next start write the POBILAN (recovery.ts).
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.cashOut(m.player, stack, key);
        if (!r.ok) throw refused(r);
        this.hooks.trace.left(m.player, m.inscription, r.movement, { supervision: m.leaveBy === 'operator' });
        this.hooks.money.participationClosed(m.inscription);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      paid = this.hooks.money.cashOut(m.player, stack, key);
      if (!paid.ok) throw refused(paid);
    }
    const c = leaveSeat(this.seating, m.player.name);
    if (!c.ok) throw new Error(`${this.spec.tableId}: leave refused: ${c.reason}`);
    this.seating = c.seating;
    this.members.delete(m.player.accountId);
    this.bySeat[m.seat] = null;
    const playtime = this.hooks.playtime;
    if (playtime && !m.player.practice) this.safely(() => playtime.left(m.player.accountId));
    this.humans = this.humans.filter((x) => x !== m);
    this.timers.clear(m.graceTimer);
    m.graceTimer = null;
    if (notify && m.sink) m.sink(JSON.stringify({ type: 'table.left', rid: null, tableId: this.spec.tableId, cashedOut: stack }));
    m.sink = null;
    this.syncSeats();
    return stack;
  }

  /**
   * The hand is void (the table stops, or a bug stopped it): every stack stays as it was before it
   * (the seating's stacks change only when a hand is settled, and nothing was paid out). Not a POANNUL:
   * that cancels an inscription "et tous les évènements qui lui sont liés" (A 1.3.6.c.6), and these
   * players stay seated; no POJEU either, the hand having no outcome. The operator's log keeps the
   * reason and each stake given back (docs/trace.md).
   */
  protected cancelHand(reason: CancelReason): void {
    const h = this.hand;
    if (!h) return;
    if (h.turn) this.timers.clear(h.turn.timer);
    this.hand = null;
    this.safely(() => this.hooks.money.handCancelled(h.id));
    this.safely(() =>
      this.hooks.voided?.({
        pool: h.id,
        reason,
        participants: h.plan.dealtIn.flatMap((seat) => {
          const who = h.who[seat];
          if (!who) return [];
          return [{ idJoueur: who.idJoueur, inscription: who.inscription, stake: h.state.seats[seat]?.committed ?? 0, cave: this.seating.seats[seat]?.stack ?? 0 }];
        }),
      }),
    );
    this.emit(() => ({ type: 'handCancelled', handNo: h.no }));
    for (const m of [...this.members.values()]) if (m.leaving && !this.closed) this.removeMember(m, true);
  }
}

/**
 * Who collects a busted player's bounty: the winners of the last pot they were in, in the order the
 * engine gave that pot's shares, which is R-ODDCHIP's order for the pot (from the button's left; in
 * Stud, which has no button, the highest card by suit; in high/low, the high half first), so an odd
 * unit of a shared bounty goes where the pot's odd chip went.
 */
export function bountyCollectors(pots: readonly PotResult[], seat: number): number[] {
  const pot = [...pots].reverse().find((p) => p.eligible.includes(seat)) ?? pots[0];
  return [...new Set((pot?.shares ?? []).map((x) => x.seat))].filter((x) => x !== seat);
}
