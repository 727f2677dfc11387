/**
 * One tournament, from registration to prizes (R-TOURN, R-TOURN-FORMATS, -RUN, -LEAVE).
 *
 *   register ─ entry (buy-in + fee) from the wallet to the tournament's fund, POINSCRIT (R-NODEBT, R-INFO)
 *   unregister before the start ─ the whole entry back, POANNUL (R-TOURN-LEAVE)
 *   start (sit & go: full; scheduled: its time, or cancelled and refunded under the minimum field)
 *     ─ fees to the operator, random draw of tables and seats (R-RANDSEAT), the operator's clock starts
 *   every hand ─ on `Table`s in tournament mode: the level at its start (T 6-1), absent players dealt in
 *     and blinded (T 2-15), one POJEU with the tournament's Tech and inscriptions
 *   between hands ─ eliminations ranked (R-ELIM, T 8-16), prizes paid as they are won (POBILAN), tables
 *     broken (T 6-6) and balanced (T 6-8 to 6-11), hand-for-hand on the bubble, breaks all together
 *   the end ─ one player holds every chip (T 1-5): first prize, the fund is empty.
 *
 * Money: the tournament's fund is a `table_funds` row of the wallet (`tournament:<id>`), so the entries
 * move by the ledger like any buy-in: wallets + tables + tournaments + fees + rake = money in
 * (`tournamentAudit`). Entries are `buy-in` rows into the fund, refunds and prizes `cash-out` rows out
 * of it, the fees a `rake` row from it to the operator. Chips are the tournament's, not money: its
 * tables hold no money (their `TableMoney` is the tournament's chip bank).
 *
 * The class is a chain, each link a part of the tournament (no file over 600 lines):
 * tournament-core.ts (state, pool and prizes, money and records, saving) → tournament-field.ts (tables
 * and their hooks, seating, balancing, hand-for-hand, the clock) → tournament-end.ts (eliminations,
 * places, prizes, bounties, satellites) → tournament-entries.ts (registration, rebuys, add-ons,
 * re-entries) → here: the start, cancelling, a restart's restore, closing.
 */
import { drawSeats } from '../../shared/rules/tournament';
import type { TablePositions } from '../tables/types';
import type { SavedTournament } from './store';
import { TournamentEntries } from './tournament-entries';
import type { Entrant, SavedEntrant, SavedState, TournamentDeps } from './tournament-types';

export { LATE_TABLES, type Entrant, type ExclusionWhy, type Refusal, type TournamentDeps, type TournamentNotice, type TournamentState } from './tournament-types';

export class Tournament extends TournamentEntries {
  /**
   * A tournament found unfinished in the store after the operator stopped without closing it (a
   * crash): as of its last saved step. A hand that was in play is void: its players' chips are those
   * of the last settled hand (every bet back; T 1-5's chips conserved), it left no POJEU. A running
   * tournament's tables open again with their players in their seats and the button and blinds where
   * the table's last settled hand left them, and the clock goes on from where the
   * last save left it.
   */
  static restore(saved: SavedTournament, deps: TournamentDeps): Tournament {
    const t = new Tournament(saved.spec, deps);
    const st = JSON.parse(saved.data) as SavedState;
    const rows = saved.entrants.map((d) => JSON.parse(d) as SavedEntrant).sort((a, b) => a.n - b.n);
    const seats = new Map<Entrant, { table: number | null; seat: number | null }>();
    for (const r of rows) {
      const e: Entrant = { ...r, brain: r.brain ? (deps.brain?.() ?? null) : null, table: null };
      t.entrants.set(e.player.accountId, e);
      t.order.push(e);
      t.stacks.touch(e);
      seats.set(e, { table: r.table, seat: r.seat });
      t.registered = Math.max(t.registered, e.n + 1);
      if (e.out) t.outCount++;
      t.removedTotal += e.removedChips ?? 0;
    }
    t.poolFinal = st.poolFinal;
    t.entryCount = st.entryCount;
    t.rebuyCount = st.rebuyCount;
    t.addOnCount = st.addOnCount;
    t.paidFromPool = st.paidFromPool;
    // The prizes follow from the counts and the field (payouts.ts): not saved with every hand.
    if (t.poolFinal) t.prizeList = t.prizeTable();
    t.overlayIn = st.overlay ?? 0;
    t.bustSeq = st.bustSeq;
    const groups = new Map<number, Entrant[]>();
    for (const e of t.order) if (e.bust !== null) groups.set(e.bust, [...(groups.get(e.bust) ?? []), e]);
    for (const k of [...groups.keys()].sort((a, b) => a - b)) t.busted.push(groups.get(k)!);
    if (saved.state !== 'running') return t;
    deps.timers.clear(t.startTimer);
    t.startTimer = null;
    t.state = 'running';
    t.startedAt = deps.timers.now() - Math.round((st.elapsed ?? 0) / t.clockRate);
    t.seating = true;
    try {
      // An excluded player still in was in the voided hand: not seated again, they leave below.
      const alive = t.order.filter((e) => !e.out && !e.excluded);
      const tables = [...new Set(alive.map((e) => seats.get(e)!.table).filter((x): x is number => x !== null))].sort((a, b) => a - b);
      for (const no of tables) t.openTable(no);
      const loose: Entrant[] = [];
      for (const e of alive) {
        const at = seats.get(e)!;
        const table = at.table === null ? undefined : t.tables.get(at.table);
        // Chips bought but not yet at the table are added to the stack the player sits with.
        e.stack += e.pendingChips;
        e.pendingChips = 0;
        if (!table || !t.seat(e, table, at.seat ?? undefined, false)) loose.push(e);
      }
      // Each table's button and blinds as its last settled hand left them.
      for (const row of saved.tables) t.tables.get(row.no)?.restorePositions(JSON.parse(row.data) as TablePositions);
      for (const e of loose) t.seatLate(e);
      for (const e of alive) t.dirty.add(e);
    } finally {
      t.seating = false;
    }
    if (t.poolFinal && st.overlay === undefined && t.spec.guarantee !== undefined) {
      // Saved before v9: the prizes paid so far had their overlay part granted beside the fund; the
      // rest of the overlay goes into the fund now, before any prize is paid.
      const granted = t.order.reduce((s, e) => s + (e.prize ?? 0), 0) - st.paidFromPool;
      t.step(() => t.fundOverlay(t.poolParts().overlay - granted));
    }
    // Busted in a hand-for-hand round the stop cut short (its hand in play voided): ranked now (T 8-16).
    t.roundBusts.push(...t.order.filter((e) => e.out && e.bust === null && e.roundStack != null));
    t.flushRound();
    // Excluded during the hand the stop voided (R-EXCLUDE, R-BANNED): they leave now, as its end would have had them.
    for (const e of t.order) if (!e.out && e.excluded) t.excludedIn.add(e);
    t.removeExcluded();
    t.save();
    t.scheduleClock();
    t.releaseAll();
    if (!t.poolFinal && !t.fieldOpen()) t.closeRegistration();
    // Stopped between its last prizes and its end: it ends now.
    t.maybeFinish();
    return t;
  }

  // ---------------------------------------------------------------------------------------------
  // The start

  /** Starts (sit & go: full; scheduled: its time), or cancels under the minimum field. */
  start(): void {
    if (this.state !== 'registering') return;
    this.deps.timers.clear(this.startTimer);
    this.startTimer = null;
    if (this.order.length < this.spec.minEntrants) {
      this.cancel(`Tournoi annulé : ${this.order.length} inscrits, moins que le minimum de ${this.spec.minEntrants}`);
      return;
    }
    if (this.spec.fee > 0) this.step(() => this.collectFee(this.spec.fee * this.order.length, `t-fees:${this.spec.id}`));
    this.state = 'running';
    this.startedAt = this.deps.timers.now();
    if (!this.fieldOpen()) this.closeRegistration();
    // R-RANDSEAT: every player at a random table and seat, the tables as even as can be.
    const places = drawSeats(this.order.length, this.spec.seats, this.random);
    const count = places.reduce((a, [t]) => Math.max(a, t + 1), 0);
    this.seating = true;
    try {
      for (let t = 0; t < count; t++) this.openTable(t + 1);
      this.order.forEach((e, i) => {
        const [t, seat] = places[i];
        if (!this.seat(e, this.tables.get(t + 1)!, seat, false)) this.seatLate(e);
      });
    } finally {
      this.seating = false;
    }
    this.save();
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'running' });
    this.scheduleClock();
    this.releaseAll();
  }

  /** Cancelled before its start: every entry refunded whole, with a POANNUL (A 1.3.6.c.6). */
  cancel(motif: string): void {
    if (this.state !== 'registering') throw new Error(`${this.spec.id}: only a tournament not started is cancelled`);
    this.deps.timers.clear(this.startTimer);
    this.startTimer = null;
    for (const e of [...this.order]) {
      const r = this.refund(e, motif, true);
      if (!r.ok) throw new Error(`${this.spec.id}: refund of ${e.player.name} refused: ${r.code} ${r.message}`);
    }
    this.state = 'cancelled';
    this.save();
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'cancelled' });
  }

  /** Stops the tournament's timers (the operator closing); its tables close with it. */
  close(): void {
    this.deps.timers.clear(this.startTimer);
    this.deps.timers.clear(this.clockTimer);
    this.deps.timers.clear(this.exclusionTimer);
    for (const t of this.liveTables()) t.close();
  }
}
