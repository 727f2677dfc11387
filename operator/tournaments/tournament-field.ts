/**
 * The running field (R-TOURN-RUN): the tournament's `Table`s and their hooks, seating (the
 * draw, late entries), breaking and balancing tables between hands (T 6-6 to 6-11), hand-for-hand on
 * the bubble, breaks all together, the operator's clock. The second link of the chain (core.ts).
 */
import { clockAt, handForHand, mayAddOn, registrationOpen, tableRulesAt } from '../../shared/rules/tournament';
import { Table } from '../tables/table';
import type { TimerHandle } from '../tables/timers';
import type { MoneyResult, TableHooks, TablePlayer, TableSpec } from '../tables/types';
import { FieldIndex } from './field-index';
import { TournamentCore } from './tournament-core';
import { LATE_TABLES, type Entrant, type Refusal, type SeatWhy } from './tournament-types';

export abstract class TournamentField extends TournamentCore {
  /** A hand's eliminations (tournament-end.ts). */
  protected abstract eliminated(groups: { accountId: number; stackAtStart: number; by: number[] }[][], table?: Table): void;
  /** The hand-for-hand round is over: its busts ranked together (tournament-end.ts). */
  protected abstract flushRound(): void;
  /** The field is final (tournament-end.ts). */
  protected abstract closeRegistration(): void;
  /** T 5-4 (tournament-entries.ts): practice players take it on the clock. */
  abstract addOn(accountId: number): { ok: true } | Refusal;
  /** Excluded players whose table is between hands leave (R-EXCLUDE, R-BANNED, T 13-1; tournament-end.ts). */
  protected abstract removeExcluded(): void;

  /** An excluded player's table held back from dealing: they leave first (mayDeal). */
  protected exclusionTimer: TimerHandle | null = null;

  /**
   * The clock as last told to the players (the `clock` notice): the level and whether on a break. A
   * hand is never dealt at a level they were not told first (rulesForNextHand).
   */
  protected told = { level: 0, onBreak: false };

  /**
   * The tables bucketed by player count (field-index.ts): whether anything must move,
   * and the plan, without scanning every table after each hand. Kept by the tables whose count may have
   * changed (`recount`: a seat, a leave, a bust), read again before the field is checked.
   */
  private fieldIndex: FieldIndex | null = null;
  private readonly recount = new Set<Table>();

  private index(): FieldIndex {
    this.fieldIndex ??= new FieldIndex(this.spec.seats);
    for (const t of this.recount) {
      const no = this.tableNo.get(t);
      if (no !== undefined) this.fieldIndex.set(no, t.seatsTaken);
    }
    this.recount.clear();
    return this.fieldIndex;
  }

  // ---------------------------------------------------------------------------------------------
  // Tables

  protected openTable(no: number): Table {
    const tableId = `${this.spec.id}-t${no}`;
    const spec: TableSpec = {
      tableId,
      name: `${this.spec.name}, table ${no}`,
      // Tournament chips are not money: the tables hold none (the tournament's fund does).
      money: 'play',
      practice: this.spec.money === 'play',
      rules: tableRulesAt(this.spec.variant, this.spec.structure, 0),
      seats: this.spec.seats,
      buyIn: { min: 1, max: Number.MAX_SAFE_INTEGER },
      mode: 'tournament',
      tournamentId: this.spec.id,
    };
    let table: Table | null = null;
    const entrantOf = (p: TablePlayer): Entrant => {
      const e = this.entrants.get(p.accountId);
      if (!e) throw new Error(`${tableId}: ${p.name} is not in ${this.spec.id}`);
      return e;
    };
    // The level of the hand in play: the clock's when it was dealt (T 6-1), for its history.
    let level = 0;
    // People the hand in play eliminated (told their standing with the table's people after it).
    const bustedPeople: number[] = [];
    const chips = (amount: number): MoneyResult => ({ ok: true, movement: { avant: amount, mouvement: amount, apres: amount } });
    const hooks: TableHooks = {
      money: {
        // The tournament's chip bank: a player brings their stack to the table and takes it away when moved.
        buyIn: (p, amount) => {
          const e = entrantOf(p);
          if (e.stack !== amount) throw new Error(`${tableId}: ${p.name} brings ${amount}, holds ${e.stack}`);
          e.table = table;
          this.dirty.add(e);
          this.recount.add(table!);
          return chips(amount);
        },
        // Chips bought (rebuy, add-on: paid already, tournament.purchase) reach the table.
        topUp: (p, amount) => {
          const e = entrantOf(p);
          e.pendingChips = Math.max(0, e.pendingChips - amount);
          e.stack += amount;
          this.dirty.add(e);
          return chips(amount);
        },
        cashOut: (p, amount) => {
          const e = entrantOf(p);
          e.stack = amount;
          e.table = null;
          this.dirty.add(e);
          this.recount.add(table!);
          return chips(amount);
        },
        handStarted: () => undefined,
        settle: (_handId, _rake, stacks, positions) => {
          this.handsPlayed++;
          // The button and blinds after this hand, in its step: a restart goes on from them.
          this.deps.store?.saveTable(this.spec.id, no, JSON.stringify(positions));
          for (const s of stacks) {
            const e = this.entrants.get(s.accountId);
            if (e) {
              e.stack = s.stack;
              this.dirty.add(e);
            }
          }
        },
        handCancelled: () => undefined,
        participationClosed: () => undefined,
      },
      trace: {
        // POINSCRIT and POBILAN are the tournament's (registration, elimination), not each table's.
        joined: () => undefined,
        purchased: () => undefined,
        left: () => undefined,
        hand: (data) => this.deps.outbox.put(this.pojeu(data)),
      },
      step: (fn) => this.step(fn),
      rulesForNextHand: () => {
        const c = clockAt(this.spec.structure, this.elapsed() ?? 0);
        level = c.level;
        // T 6-1: the level ended but its timer has not fired yet (a busy loop fires timers
        // late): the players are told the new level before this hand starts, so that a client stores
        // each hand at the level it is dealt at (the level it knows when the hand starts).
        this.tellClock(c.level, c.onBreak);
        return tableRulesAt(this.spec.variant, this.spec.structure, level);
      },
      // R-HISTORY: each person's hands, with the tournament and the level the hand was dealt at.
      history: this.deps.history ? (accountId, tid, handId, endedAt, record) => this.deps.history!.add(accountId, tid, handId, endedAt, record, { tournamentId: this.spec.id, level }) : undefined,
      mayDeal: () => this.mayDeal(table!),
      eliminated: (_handId, groups) => {
        for (const g of groups) for (const x of g) if (this.entrants.get(x.accountId)?.player.practice === false) bustedPeople.push(x.accountId);
        this.recount.add(table!);
        this.eliminated(groups, table!);
      },
      afterHand: () => {
        this.guard(() => this.afterHand(table!));
        // The people who played the hand are told their standing; nothing for practice players.
        const people = table!.people();
        if (people.length + bustedPeople.length > 0) this.notify({ type: 'hand', tournamentId: this.spec.id, tableId, accountIds: [...people, ...bustedPeople.splice(0)] });
      },
      error: this.deps.error,
      voided: (v) => this.deps.log?.(`${tableId}: hand ${v.pool} voided (${v.reason}): stakes back on the caves`),
      playtime: this.playtimeHooks(tableId),
    };
    table = new Table(spec, hooks, { betweenHandsMs: 1500, ...this.deps.table, timers: this.deps.timers, idOper: this.deps.idOper, random: this.random });
    this.tables.set(no, table);
    this.tableNo.set(table, no);
    this.recount.add(table);
    return table;
  }

  /** R-TIMELIMIT at a real-money tournament's tables: counted, never a stand-up (art. 16-1). */
  protected playtimeHooks(tableId: string): TableHooks['playtime'] {
    const watch = this.deps.playtime;
    if (!watch || this.spec.money !== 'real') return undefined;
    return { dealt: (id) => watch.handDealt(id, tableId), mayPlayOn: () => true, left: (id) => watch.left(id, tableId) };
  }

  /**
   * Seats a player with their stack at `table` (a seat the tournament chose, or drawn there). `why`: a move
   * balances unless told otherwise; else the start's draw while the field is
   * being seated, a late entry after it.
   */
  protected seat(e: Entrant, table: Table, seat: number | undefined, moved: boolean, why: SeatWhy = moved ? 'balance' : this.seating ? 'start' : 'late'): boolean {
    const r = table.join(e.player, e.stack, { waitForBigBlind: false, brain: e.brain ?? undefined, seat });
    if (!r.ok) return false;
    this.fieldDirty = true;
    this.recount.add(table);
    if (e.forfeited) table.sitOut(e.player.accountId);
    this.notify({ type: 'seated', tournamentId: this.spec.id, accountId: e.player.accountId, tableId: table.tableId, seat: r.seat, moved, why });
    return true;
  }

  /** A late entry: at the table with the most free seats, or a new table. */
  protected seatLate(e: Entrant, why?: SeatWhy): void {
    const open = this.liveTables().filter((t) => t.seatsTaken < this.spec.seats).sort((a, b) => a.seatsTaken - b.seatsTaken);
    for (const t of open) if (this.seat(e, t, undefined, false, why)) return this.afterSeating();
    const no = Math.max(0, ...this.tables.keys()) + 1;
    this.seat(e, this.openTable(no), undefined, false, why);
    this.afterSeating();
  }

  /** After players were seated or moved: the field rebalanced, idle tables given their next hand. */
  protected afterSeating(): void {
    this.rebalance();
    this.pokeAll();
  }

  protected mayDeal(table: Table): boolean {
    if (this.state !== 'running' || this.seating) return false;
    if (clockAt(this.spec.structure, this.elapsed() ?? 0).onBreak) return false;
    // R-EXCLUDE, R-BANNED: no hand is dealt to an excluded player. They leave when their hand ends
    // (afterHand); a hand voided by a fault has no such end, so they leave before the next one here.
    if (this.excludedIn.size > 0 && [...this.excludedIn].some((e) => e.table === table)) {
      this.exclusionTimer ??= this.deps.timers.set(() => {
        this.exclusionTimer = null;
        this.guard(() => {
          this.removeExcluded();
          if (this.state === 'running') this.afterSeating();
        });
      }, 0);
      return false;
    }
    // Hand-for-hand: one hand per table per round, the next round once every table has finished. A
    // round whose busts reach the money is played to its end (its busts are ranked together, T 8-16).
    if (!this.handForHand() && !this.roundOpen()) return true;
    if (!this.released.has(table)) return false;
    this.released.delete(table);
    this.dealing.add(table);
    return true;
  }

  /** The field is final (late registration over): the payouts are fixed. */
  get fieldFinal(): boolean {
    return this.poolFinal;
  }

  /** Hand-for-hand play is on (R-TOURN-RUN). */
  get inHandForHand(): boolean {
    return this.handForHand();
  }

  protected handForHand(): boolean {
    return this.poolFinal && handForHand(this.remaining, this.prizeList.length, this.tables.size);
  }

  /**
   * The hand-for-hand round under way (R-TOURN-RUN): its tables still to deal or finish their hand,
   * and the players busted in it so far with their stacks at the start of the hand (ranked together
   * when it ends, T 8-16). Read by the crash test that stops the operator in the middle of a round.
   */
  get round(): { tables: number; busted: { accountId: number; stack: number }[] } {
    return { tables: this.released.size + this.dealing.size, busted: this.roundBusts.map((e) => ({ accountId: e.player.accountId, stack: e.roundStack ?? 0 })) };
  }

  /** A hand-for-hand round is being played: tables released, or dealing its hand. */
  protected roundOpen(): boolean {
    return this.released.size > 0 || this.dealing.size > 0;
  }

  /** In hand-for-hand, every table that can play is released (a new round); then all are dealt to. */
  protected releaseAll(): void {
    this.released = this.handForHand() ? new Set(this.liveTables().filter((t) => t.seatsTaken >= 2)) : new Set();
    this.pokeAll();
  }

  protected pokeAll(): void {
    for (const t of this.liveTables()) t.dealWhenReady();
  }

  /** A table finished a hand: eliminations are ranked already; the field is rebalanced. */
  protected afterHand(table?: Table): void {
    if (this.state !== 'running') return;
    // This table's hand of the round is over; the round's busts are ranked once every table's is.
    if (table) this.dealing.delete(table);
    if (!this.roundOpen()) this.flushRound();
    // R-EXCLUDE, R-BANNED: excluded players leave at the end of their hand, before the next deal, when
    // a bust is processed (T 13-1: disqualified, their chips removed; tournament-end.ts disqualify).
    if (this.excludedIn.size > 0) {
      this.removeExcluded();
      if (this.state !== 'running') return;
    }
    // Players back in (a rebuy at zero) are seated now, between hands.
    for (const e of this.comebacks.splice(0)) this.seatLate(e, 'back');
    const touched = this.rebalance(table);
    const hfh = this.handForHand() || this.roundOpen();
    if (hfh) {
      // The next round when every table has finished its hand and used its turn (nobody gains by stalling).
      if (this.handForHand() && !this.roundOpen() && this.liveTables().every((t) => !t.handInProgress)) this.releaseAll();
    } else if (this.wasHandForHand) {
      // The money is reached and the round is over: every table deals again.
      this.pokeAll();
    } else {
      // Tables deal on their own between hands; those a move gave players may deal now.
      for (const t of touched) if (this.tableNo.has(t)) t.dealWhenReady();
    }
    this.wasHandForHand = hfh;
  }

  /**
   * Tables broken and balanced between hands (T 6-6 to 6-11, field.ts): a move out of a table happens
   * when it is between hands; a table in a hand gives its player at the end of it. The player moved
   * to balance is the next big blind (T 6-9), sitting in the worst free position (T 6-10); a broken
   * table's players sit where the draw puts them (T 6-11).
   */
  protected rebalance(finished?: Table): Set<Table> {
    const touched = new Set<Table>();
    if (this.moving || this.state !== 'running') return touched;
    // The table that ended its hand is counted again whatever changed there (a bust, a player gone).
    if (finished) this.recount.add(finished);
    // The plan depends only on the tables' counts: it is made again when they changed (a bust, a seat),
    // or when a table a move waits for ends its hand; not after every other table's hand (at 30,000
    // players, 3,300 tables planned again after each hand took most of the loop).
    if (!this.fieldDirty && !(finished && this.waitingFor.has(finished))) return touched;
    this.waitingFor.clear();
    const index = this.index();
    const late = { late: index.size <= LATE_TABLES };
    // Nothing to move (most hands): no table the players left no longer need, sizes within the gap
    // (T 6-6, 6-8), read from the buckets.
    if (index.settled(late)) {
      this.fieldDirty = false;
      return touched;
    }
    this.moving = true;
    let stale = false;
    try {
      // One plan for the field as it is (field.ts); the moves out of tables in a hand wait for the
      // next rebalance, after that hand (a 10,000-player field: no plan recomputed per move).
      // The moves `fieldMoves` (shared/rules/tournament/field.ts) makes, from the buckets (field-index.ts).
      for (const move of index.plan(late)) {
        const from = this.tables.get(move.from);
        const to = this.tables.get(move.to);
        // A table the plan names was closed by an earlier move of this plan: planned again after the next hand.
        if (!from || !to) {
          stale = true;
          continue;
        }
        if (from.handInProgress) {
          this.waitingFor.add(from);
          continue;
        }
        const who = move.why === 'balance' ? from.balancing().moveOut : (from.players()[0]?.accountId ?? null);
        if (who === null) continue;
        const e = this.entrants.get(who)!;
        const seatIn = move.why === 'balance' ? (to.balancing().seatIn ?? undefined) : undefined;
        const left = from.leave(who, 'operator');
        this.recount.add(from);
        if (!left.ok) throw new Error(`${from.tableId}: ${e.player.name} could not be moved: ${left.code}`);
        // R-NOBOT may refuse a table (one address per table), or it may be full: the next table with a free seat, else back.
        const why = move.why === 'break' ? 'broken' : 'balance';
        const at = this.seat(e, to, seatIn, true, why)
          ? to
          : [...this.liveTables().filter((t) => t !== to && t !== from && t.seatsTaken < this.spec.seats), from].find((t) => this.seat(e, t, undefined, t !== from, why));
        if (!at) throw new Error(`${this.spec.id}: ${e.player.name} could not be seated anywhere`);
        touched.add(at);
        if (from.seatsTaken === 0) this.closeTable(from);
        else touched.add(from);
      }
    } finally {
      this.moving = false;
      // Planned again when the counts change, or when a table in `waitingFor` ends its hand.
      this.fieldDirty = stale;
    }
    return touched;
  }

  protected closeTable(t: Table): void {
    const no = this.tableNo.get(t)!;
    this.tables.delete(no);
    this.tableNo.delete(t);
    this.recount.delete(t);
    this.fieldIndex?.remove(no);
    this.released.delete(t);
    this.dealing.delete(t);
    this.waitingFor.delete(t);
    this.deps.store?.dropTable(this.spec.id, no);
    t.close();
  }

  // ---------------------------------------------------------------------------------------------
  // The clock (R-TOURN-RUN: the operator's clock drives levels and breaks)

  /** The players told where the clock stands, once per change (by its timer, or by a hand dealt first). */
  protected tellClock(level: number, onBreak: boolean): void {
    if (level === this.told.level && onBreak === this.told.onBreak) return;
    this.told = { level, onBreak };
    this.notify({ type: 'clock', tournamentId: this.spec.id, level, onBreak });
  }

  protected scheduleClock(): void {
    const c = clockAt(this.spec.structure, this.elapsed() ?? 0);
    if (c.msToNext === null) return;
    this.clockTimer = this.deps.timers.set(() => this.guard(() => this.tick()), Math.ceil(c.msToNext / this.clockRate));
  }

  protected tick(): void {
    this.clockTimer = null;
    if (this.state !== 'running') return;
    const c = clockAt(this.spec.structure, this.elapsed() ?? 0);
    this.tellClock(c.level, c.onBreak);
    // Practice players take the add-on while they may (T 5-4).
    for (const e of this.order) if (e.autoRebuy && !e.out && mayAddOn(this.spec.structure, this.elapsed() ?? 0, e.addOn)) this.addOn(e.player.accountId);
    if (!this.poolFinal && !this.fieldOpen()) this.closeRegistration();
    this.scheduleClock();
    // A break's end: every table deals again (a level change needs nothing: it applies from the next hand, T 6-1).
    if (this.state === 'running' && !c.onBreak) {
      this.afterHand();
      this.pokeAll();
    }
  }

  /**
   * The field or the pool may still grow: late registration, or the rebuy period and the add-on after
   * it (T 5-2, 5-4). Until then places are not known (busted players may come back).
   */
  protected fieldOpen(): boolean {
    const elapsed = this.elapsed() ?? 0;
    if (registrationOpen(this.spec.structure, elapsed)) return true;
    const r = this.spec.structure.rebuy;
    if (r === null) return false;
    const level = clockAt(this.spec.structure, elapsed).level;
    return level < r.untilLevel || (this.spec.structure.addOn !== null && level === r.untilLevel);
  }
}
