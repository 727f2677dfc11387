/**
 * One table, authoritative (DESIGN.md §1): seats, money in and out, the hands, the action clock, and
 * every frame its players receive. Its parts: the streams, who sees what
 * (streams.ts), the hand loop (hand-loop.ts), and here what players ask for.
 *
 *   join ──▶ seat at random (R-RANDSEAT) ──▶ buy-in through TableMoney (R-NODEBT) ──▶ POINSCRIT
 *   act ──▶ the one decision path (shared/rules decide; its refusal goes out as it is) ──▶ the hand loop
 *   leave, top-up, sit out / in, resume (rebind, attach), disconnection (detach), close
 *
 * Money: every movement goes through TableMoney together with who holds the chips (the seat, each
 * settled hand's stacks, the hand in play), so an operator that stops without closing its tables
 * returns every stack on the next start (R-CASH; recovery.ts).
 */
import type { Move, TableInfo } from '../../shared/protocol/messages';
import { legalActions } from '../../shared/rules/engine';
import { decide } from '../../shared/rules/decide';
import { freeSeats, inRange, joinRange, playerToMoveForBalancing, seatForBalancing, seatPlayer, setWaitForBigBlind, sitIn, sitOut, topUpRange } from '../../shared/rules/table';
import { addressKey } from '../login-throttle';
import { newInscription } from '../trace/inscription';
import type { Brain, MoneyResult, TablePlayer, TablePositions, TableRefusal } from './types';
import { HandLoop, PLAYER, refusal, timeoutAction } from './hand-loop';
import type { Member } from './streams';

export { tableSettings, type TableOptions } from './streams';
export { timeoutAction } from './hand-loop';

export type ActionOutcome = ({ ok: true } | TableRefusal) & { replayed: boolean };

const ACTION_RESULTS_KEPT = 256;

export class Table extends HandLoop {
  // -------------------------------------------------------------------------------------------
  // Who is here

  get tableId(): string {
    return this.spec.tableId;
  }

  get seatsTaken(): number {
    return this.members.size;
  }

  get handInProgress(): boolean {
    return this.hand !== null;
  }

  /** The people seated here (practice players aside): a tournament tells them their standing after each hand. */
  people(): number[] {
    return this.humans.map((m) => m.player.accountId);
  }

  isSeated(accountId: number): boolean {
    return this.members.has(accountId);
  }

  /** Chips the player bought during the hand in play, added when it ends (a stake already asked for: R-LIMITS). */
  pendingTopUp(accountId: number): number {
    return this.members.get(accountId)?.pendingTopUp ?? 0;
  }

  seatOf(accountId: number): number | null {
    return this.members.get(accountId)?.seat ?? null;
  }

  /** Everyone seated: account, practice or not, chips on the table between hands. */
  players(): { accountId: number; name: string; practice: boolean; seat: number; stack: number; sittingOut: boolean }[] {
    return [...this.members.values()].map((m) => {
      const p = this.seating.seats[m.seat]!;
      return { accountId: m.player.accountId, name: m.player.name, practice: m.player.practice, seat: m.seat, stack: p.stack, sittingOut: p.status === 'sitting-out' };
    });
  }

  /**
   * Σ chips belonging to the players here: what the wallet holds for this table (seating stacks stay at
   * their start-of-hand value until the hand is settled, and the rake leaves with the settlement).
   */
  chipsOnTable(): number {
    return this.seating.seats.reduce((a, p) => a + (p?.stack ?? 0), 0);
  }

  info(): TableInfo {
    const r = this.spec.rules;
    return {
      tableId: this.spec.tableId,
      name: this.spec.name,
      money: this.spec.money,
      practice: this.spec.practice,
      variant: r.variant,
      stakes: { smallBlind: r.smallBlind, bigBlind: r.bigBlind, ante: r.ante, bringIn: r.bringIn, smallBet: r.smallBet, bigBet: r.bigBet },
      rules: r,
      buyIn: { ...this.spec.buyIn },
      seatsTaken: this.members.size,
      seatsMax: this.spec.seats,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  /**
   * Seats a player with `buyIn` chips. `opts.seat`: the seat the operator chose (a tournament player
   * moved in to balance the tables sits in the worst free position, T 6-10); else drawn.
   */
  join(player: TablePlayer, buyIn: number, opts: { waitForBigBlind: boolean; brain?: Brain; seat?: number }): { ok: true; seat: number; stack: number } | TableRefusal {
    if (this.closed) return refusal('SHUTTING_DOWN', 'the table is closing');
    if (this.members.has(player.accountId)) return refusal('ALREADY_SEATED', 'one seat per player at a table', { rule: 'R-ONEHAND' });
    if (player.practice && !this.spec.practice) throw new Error(`practice players never sit at ${this.spec.tableId}`);
    if (!player.practice) {
      // R-NOBOT, D art. 2: no two accounts from one address at one table.
      const key = addressKey(player.ip) ?? player.ip;
      if (this.humans.some((m) => (addressKey(m.player.ip) ?? m.player.ip) === key)) {
        return refusal('SAME_ADDRESS', 'another account from your address plays at this table', { rule: 'R-NOBOT' });
      }
    }
    // R-INFO: the range the join dialog offered (shared/rules/table/buy-in.ts); the wallet checks the balance (R-NODEBT).
    const range = joinRange(this.spec.buyIn);
    if (!inRange(buyIn, range)) {
      return refusal('BUY_IN_RANGE', `the buy-in is between ${range.min} and ${range.max}`, { min: range.min, max: range.max, rule: 'R-INFO' });
    }
    const free = freeSeats(this.seating);
    if (free.length === 0) return refusal('TABLE_FULL', 'every seat is taken', { rule: 'R-SEATS' });
    // R-RANDSEAT: the operator picks the seat (drawn, or the one a tournament chose).
    const seat = opts.seat !== undefined && free.includes(opts.seat) ? opts.seat : free[this.random(free.length)];
    const inscription = newInscription(this.spec.tableId);
    const change = seatPlayer(this.seating, { id: player.name, seat, stack: buyIn, waitForBigBlind: opts.waitForBigBlind });
    if (!change.ok) throw new Error(`${this.spec.tableId}: seating refused ${player.name} at free seat ${seat}: ${change.reason}`);
    // The buy-in and its POINSCRIT in one step: a record that cannot be written takes nothing.
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.buyIn(player, buyIn, `buy-in:${inscription}`, { inscription, seat });
        if (r.ok) this.hooks.trace.joined(player, inscription, r.movement, PLAYER);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      return refusal('INTERNAL', 'the operator could not record the buy-in; nothing was taken');
    }
    if (!paid.ok) return paid;
    this.seating = change.seating;
    const m: Member = {
      player,
      seat,
      inscription,
      brain: opts.brain ?? null,
      sink: null,
      connected: true,
      graceTimer: null,
      seq: this.seqBase,
      ring: [],
      dropped: this.seqBase,
      youKey: '',
      timeBankMs: this.spec.rules.timeBankSeconds * 1000,
      timeouts: 0,
      leaving: false,
      leaveBy: 'player',
      pendingTopUp: 0,
      topUps: 0,
      results: new Map(),
    };
    this.members.set(player.accountId, m);
    this.bySeat[seat] = m;
    // A watcher who takes a seat here (a tournament's move, a cash join) has its seat's stream from now on.
    this.watchers.delete(player.accountId);
    if (!m.brain) this.humans = [...this.humans, m];
    this.syncSeats();
    this.maybeStart();
    return { ok: true, seat, stack: buyIn };
  }

  /**
   * The operator stands the person up (R-TIMELIMIT, R-EXCLUDE): now when they are not in the hand in
   * progress (sitting out, waiting for the big blind, between hands); otherwise they finish the hand
   * (art. 16-1: "à l'issue de la main en cours") and `betweenHands` stands them up through
   * `hooks.playtime.mayPlayOn`.
   */
  standUpIfIdle(accountId: number): void {
    const m = this.members.get(accountId);
    if (!m || this.inHand(m)) return;
    // Told with `table.left` as one stood up after a hand is (`betweenHands`): the player did not ask,
    // so no answer to a request carries it, and without it the client keeps a seat the operator forgot.
    m.leaveBy = 'operator';
    this.removeMember(m, true);
  }

  /**
   * Leaves now between hands (the stack is returned, R-CASH), or at the end of the hand the player is in.
   * `by`: the player asked, or the operator decided (the disconnection grace is over): its records then
   * carry `supervision` (A 1.3.6.c).
   */
  leave(accountId: number, by: 'player' | 'operator' = 'player'): { ok: true; cashedOut: number | null } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    if (!m.leaving) m.leaveBy = by;
    if (this.inHand(m)) {
      if (!m.leaving) {
        m.leaving = true;
        this.syncYou(m);
        this.guard(() => {
          // The player may be the one to act: the operator checks or folds for them now.
          if (this.hand?.turn?.seat === m.seat) {
            this.stopClock(m, false);
            this.hand.supervised = true;
            this.commit(timeoutAction(legalActions(this.hand.state)), 'operator');
            this.advance();
          }
        });
      }
      return { ok: true, cashedOut: null };
    }
    return { ok: true, cashedOut: this.removeMember(m, false) };
  }

  /** Chips added between hands (R-NODEBT: through the wallet); during the player's hand, when it ends. */
  topUp(accountId: number, amount: number): { ok: true; applied: boolean } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const stack = this.seating.seats[m.seat]!.stack;
    // R-INFO: the range the top-up dialog offered (shared/rules/table/buy-in.ts); the wallet checks the balance (R-NODEBT).
    const range = topUpRange(stack, m.pendingTopUp, this.spec.buyIn);
    if (!inRange(amount, range)) {
      return refusal('BUY_IN_RANGE', `a top-up brings the stack to between ${this.spec.buyIn.min} and ${this.spec.buyIn.max}`, { min: range.min, max: range.max, rule: 'R-INFO' });
    }
    if (this.inHand(m)) {
      m.pendingTopUp += amount;
      this.syncYou(m);
      return { ok: true, applied: false };
    }
    const done = this.applyTopUp(m, amount);
    if (!done.ok) return done;
    this.maybeStart();
    return { ok: true, applied: true };
  }

  sitOut(accountId: number): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = sitOut(this.seating, m.player.name);
    if (!c.ok) return refusal(c.reason === 'already-sitting-out' ? 'ALREADY_SITTING_OUT' : 'NOT_SEATED', c.reason, { rule: c.rule });
    this.seating = c.seating;
    this.syncSeats();
    return { ok: true };
  }

  sitIn(accountId: number, waitForBigBlind: boolean): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = sitIn(this.seating, m.player.name, { waitForBigBlind });
    if (!c.ok) {
      const code = c.reason === 'not-sitting-out' ? 'NOT_SITTING_OUT' : c.reason === 'no-chips' ? 'NO_CHIPS' : 'NOT_SEATED';
      return refusal(code, c.reason, { rule: c.rule });
    }
    this.seating = c.seating;
    m.timeouts = 0;
    this.syncSeats();
    this.maybeStart();
    return { ok: true };
  }

  /** R-BUTTON: while owing an entry, wait for the big blind or post to come in sooner. */
  setWaitForBigBlind(accountId: number, wait: boolean): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = setWaitForBigBlind(this.seating, m.player.name, wait);
    if (!c.ok) return refusal('NOT_SEATED', c.reason, { rule: c.rule });
    this.seating = c.seating;
    this.syncSeats();
    this.maybeStart();
    return { ok: true };
  }

  /**
   * A person's decision, with their action id: a repeated id is applied once and answered with the
   * first result (`replayed`); the same id for another move is refused. The engine validates it.
   */
  act(accountId: number, actionId: string, move: Move): ActionOutcome {
    const m = this.members.get(accountId);
    if (!m) return { ...refusal('NOT_SEATED', 'you have no seat at this table'), replayed: false };
    const fingerprint = JSON.stringify(move);
    const prior = m.results.get(actionId);
    if (prior) {
      if (prior.fingerprint !== fingerprint) return { ...refusal('ACTION_ID_REUSED', `action id ${actionId} was used for another move`), replayed: false };
      return { ...prior.result, replayed: true };
    }
    let result: { ok: true } | TableRefusal = refusal('INTERNAL', 'the action could not be applied');
    this.guard(() => {
      result = this.tryAct(m, move);
    });
    m.results.set(actionId, { fingerprint, result });
    if (m.results.size > ACTION_RESULTS_KEPT) m.results.delete(m.results.keys().next().value as string);
    return { ...result, replayed: false };
  }

  private tryAct(m: Member, move: Move): { ok: true } | TableRefusal {
    // The one decision path (shared/rules decide): its refusal goes out as it is.
    const d = decide(this.hand?.state ?? null, m.seat, move);
    if (!d.ok) return d;
    const h = this.hand!;
    const turn = h.turn;
    if (turn?.seat === m.seat) {
      // R-NOBOT: how long the person took, from the turn announced (fair-play report, fairplay.ts).
      const decision = { handId: h.id, move: move.type, turnAt: turn.since, ms: Math.max(0, this.timers.now() - turn.since) };
      this.safely(() => this.hooks.decided?.(m.player, decision));
    }
    this.stopClock(m, true);
    this.commitApplied(d.action, d.applied, 'player');
    this.advance();
    return { ok: true };
  }

  // -------------------------------------------------------------------------------------------
  // Streams

  /**
   * The seated person now connects from `where` (a resume or a login, perhaps from another address):
   * R-NOBOT's one address per table is checked again (D art. 2: before, a player could resume from the
   * address of another player at the table and play beside them), and if it holds, the seat takes the
   * new address and session, so that every record from now on carries them (IPJoueur, IDSession). A refusal
   * changes nothing.
   */
  rebind(accountId: number, where: { ip: string; sessionId: string }): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m || m.brain) return refusal('NOT_SEATED', 'you have no seat at this table');
    const key = addressKey(where.ip) ?? where.ip;
    if (this.humans.some((o) => o !== m && (addressKey(o.player.ip) ?? o.player.ip) === key)) {
      return refusal('SAME_ADDRESS', 'another account from your address plays at this table', { rule: 'R-NOBOT' });
    }
    if (m.player.ip === where.ip && m.player.sessionId === where.sessionId) return { ok: true };
    m.player = { ...m.player, ip: where.ip, sessionId: where.sessionId };
    // The hand in play records the address at its settlement (its POJEU is written then).
    const w = this.hand?.who[m.seat];
    if (this.hand && w && w.accountId === accountId) this.hand.who[m.seat] = { ...w, player: m.player, ipJoueur: where.ip };
    this.safely(() => this.hooks.money.moved?.(m.inscription, m.player));
    return { ok: true };
  }

  /** A person's connection is back (or new): frames go to `sink` from now on. */
  attach(accountId: number, sink: (frame: string) => void): boolean {
    const m = this.members.get(accountId);
    if (!m || m.brain) return false;
    m.sink = sink;
    m.connected = true;
    this.timers.clear(m.graceTimer);
    m.graceTimer = null;
    this.syncSeats();
    this.maybeStart();
    return true;
  }

  /**
   * The connection dropped: the seat is kept for the grace period, then the player leaves (R-CASH). A
   * tournament player keeps the seat for good, dealt in and blinded away (T 2-15, R-TOURN-LEAVE).
   */
  detach(accountId: number): void {
    const m = this.members.get(accountId);
    if (!m || m.brain) return;
    m.sink = null;
    m.connected = false;
    this.timers.clear(m.graceTimer);
    if (this.spec.mode === 'tournament') {
      this.syncSeats();
      return;
    }
    m.graceTimer = this.timers.set(() => {
      m.graceTimer = null;
      if (this.members.get(accountId) === m && !m.connected) this.guard(() => void this.leave(accountId, 'operator'));
    }, this.opt.disconnectGraceMs);
    this.syncSeats();
  }

  /** A tournament released the table (its start, a break's end, the next hand-for-hand round): deal if it can. */
  dealWhenReady(): void {
    if (this.hand === null) this.guard(() => this.maybeStart());
  }

  /** Where the blinds stand now (saved by a tournament with each settled hand). */
  positions(): TablePositions {
    return this.positionsOf(this.seating);
  }

  /**
   * A tournament restarted after a crash: the positions of the last hand settled at
   * this table, so the button, the blinds (T 6-3 to 6-5) and the newcomers' waits (T 6-12) go on from
   * there instead of being drawn again. Only before the table's first hand; players not seated here
   * are ignored, a button seat now empty is a dead button (T 6-18).
   */
  restorePositions(p: TablePositions): void {
    if (this.hand !== null || this.handsPlayed > 0) throw new Error(`${this.spec.tableId}: positions are restored before the first hand only`);
    const n = this.spec.seats;
    const inRange = (s: number) => Number.isInteger(s) && s >= 0 && s < n;
    if (p.last !== null && ![p.last.button, p.last.smallBlind, p.last.bigBlind].every(inRange)) throw new RangeError(`${this.spec.tableId}: saved positions out of range`);
    const played = new Set(p.played.map((id) => this.members.get(id)?.player.name).filter((x): x is string => x !== undefined));
    this.seating = {
      ...this.seating,
      last: p.last,
      seats: this.seating.seats.map((x) => (x !== null && played.has(x.id) ? { ...x, hasPlayed: true, status: x.status === 'new' ? 'active' : x.status } : x)),
    };
  }

  /**
   * For balancing a tournament's tables (T 6-9, 6-10): the player who would post the next
   * big blind (the one moved out), and the worst free seat (where a player moved in sits).
   */
  balancing(): { moveOut: number | null; seatIn: number | null } {
    const out = playerToMoveForBalancing(this.seating, { mode: 'tournament' });
    const m = out === null ? undefined : this.bySeat[out.seat];
    return { moveOut: m ? m.player.accountId : null, seatIn: seatForBalancing(this.seating) };
  }

  // -------------------------------------------------------------------------------------------
  // Closing

  /**
   * Stops the table: a hand in progress is voided (every stack back to its start-of-hand value, no
   * rake, the reason in the operator's log), every player cashed out (R-CASH) with a POBILAN flagged
   * `supervision` (the operator's doing, not theirs).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timers.clear(this.nextHandTimer);
    this.nextHandTimer = null;
    this.cancelHand('stop');
    for (const m of [...this.members.values()]) {
      m.leaving = true;
      m.leaveBy = 'operator'; // the table stops: not the player's action (A 1.3.6.c, supervision)
      this.removeMember(m, true);
    }
    // Watchers are told the table is gone for them: `table.left`, nothing cashed out.
    for (const w of this.watchers.values()) w.sink(JSON.stringify({ type: 'table.left', rid: null, tableId: this.spec.tableId, cashedOut: 0 }));
    this.watchers.clear();
    this.hooks.closed?.();
  }
}
