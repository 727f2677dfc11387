/**
 * Eliminations and the end (R-ELIM, T 8-16, T 1-5): busted groups ranked, places and prizes
 * paid as they are known (POBILAN), bounties (POGAIN), satellites' seats, the last prize. The third
 * link of the chain (tournament-core.ts).
 */
import { bountyShares, mayRebuy, sharedPrizes } from '../../shared/rules/tournament';
import type { Table } from '../tables/table';
import { roundGroups } from './places';
import { TournamentField } from './tournament-field';
import type { Entrant } from './tournament-types';

export abstract class TournamentEnd extends TournamentField {
  /** The field is final: the payouts are fixed and the places of players already out are known. */
  protected closeRegistration(): void {
    this.poolFinal = true;
    this.prizeList = this.prizeTable();
    // The guarantee's overlay goes into the fund with the final pool, in one step.
    if (this.spec.guarantee !== undefined) this.step(() => this.fundOverlay());
    else this.save();
    this.placeBusted();
    this.maybeFinish();
  }

  // ---------------------------------------------------------------------------------------------
  // Eliminations and prizes (R-ELIM, T 8-16; R-TOURN-RUN)

  /**
   * Groups of one hand at one table, best first, tied players together (shared/rules/table elimination).
   * A hand of a hand-for-hand round: its busts wait for the round's end, ranked with the other tables'
   * by their stack at the start of the hand (R-TOURN-RUN, T 8-16; flushRound).
   */
  protected eliminated(groups: { accountId: number; stackAtStart: number; by: number[] }[][], table?: Table): void {
    const inRound = table !== undefined && this.dealing.has(table);
    for (const g of [...groups].reverse()) {
      const out: Entrant[] = [];
      for (const x of g) {
        const e = this.entrants.get(x.accountId);
        if (!e || e.out) continue;
        this.setOut(e, true);
        e.table = null;
        e.stack = 0;
        // Bounty (`T/G`): to the winners of the pot that eliminated the player (POGAIN).
        if (e.bounty > 0) this.payBounty(e, x.by);
        if (e.pendingChips > 0) {
          // Chips bought during the hand that busted them: the player is back in with those (T 5-2).
          this.comeBack(e, e.pendingChips);
          continue;
        }
        if (inRound) {
          e.roundStack = x.stackAtStart;
          this.dirty.add(e);
          this.roundBusts.push(e);
        } else out.push(e);
      }
      if (out.length > 0) {
        const no = this.bustSeq++;
        for (const e of out) e.bust = no;
        this.busted.push(out);
      }
      // Practice players rebuy at zero while they may (a person asks with `rebuy`).
      for (const e of out) if (e.autoRebuy && mayRebuy(this.spec.structure, this.elapsed() ?? 0, 0, e.rebuys)) this.rebuyLater(e);
    }
    for (const g of groups) for (const x of g) this.touch(x.accountId);
    this.fieldDirty = true;
    if (this.poolFinal) this.placeBusted();
    this.maybeFinish();
    this.save();
  }

  /**
   * The hand-for-hand round is over: the players busted in it at every table ranked together by their
   * stack at the start of the hand, equal stacks sharing (T 8-16), then placed and paid.
   */
  protected flushRound(): void {
    if (this.roundBusts.length === 0) return;
    for (const g of roundGroups(this.roundBusts.splice(0).map((e) => ({ who: e, stack: e.roundStack ?? 0 })))) {
      const no = this.bustSeq++;
      for (const e of g) {
        e.bust = no;
        e.roundStack = null;
        this.dirty.add(e);
      }
      this.busted.push(g);
    }
    if (this.poolFinal) this.placeBusted();
    this.save();
  }

  /** A rebuy at zero decided inside a hand's settlement: paid now, seated between hands (afterHand). */
  protected rebuyLater(e: Entrant): void {
    const r = this.spec.structure.rebuy!;
    const paid = this.purchase(e, r.price, r.fee, `t-rebuy:${e.inscription}:${e.rebuys + 1}`, 'Recave');
    if (!paid.ok) return;
    e.rebuys++;
    this.rebuyCount++;
    this.comeBack(e, r.chips);
  }

  /** The bounty on `e`'s head, split between `by` (units left one each in the order given, R-ODDCHIP). */
  protected payBounty(e: Entrant, by: readonly number[]): void {
    let winners = by.map((id) => this.entrants.get(id)).filter((x): x is Entrant => x !== undefined);
    if (winners.length === 0) {
      // No pot names a winner (cannot happen in a settled hand): the chip leader collects it.
      const leader = this.order.filter((x) => !x.out).sort((a, b) => this.stackOf(b) - this.stackOf(a))[0];
      winners = leader ? [leader] : [e];
    }
    const shares = bountyShares(e.bounty, winners.length);
    e.bounty = 0;
    this.dirty.add(e);
    winners.forEach((w, i) => this.gain(w, shares[i], `t-bounty:${e.inscription}:${e.rebuys}:${e.reEntries}:${w.player.accountId}`, `Prime sur ${e.player.name}`));
  }

  /** A gain during the tournament (a bounty): from the fund to the wallet with its POGAIN (A 1.3.6.c.5). */
  protected gain(w: Entrant, amount: number, key: string, what: string): void {
    if (amount <= 0) return;
    this.step(() => {
      const r = this.moveMoney(w.player, amount, 'out', key);
      if (!r.ok) throw new Error(`${this.spec.id}: bounty for ${w.player.name} refused: ${r.code} ${r.message}`);
      this.deps.outbox.put({ kind: 'POGAIN', ...this.record(w.player, w.inscription, r.movement, true), description: `${what}: ${this.description()}` });
      // Counted with the payment, saved in its step: the player's standing and result.
      w.won = (w.won ?? 0) + amount;
      this.dirty.add(w);
    });
  }

  /**
   * Places of the busted groups not placed yet: counted from the last place (the first out is last);
   * tied players share the places they cover and their prizes (sharedPrizes: the units left one each
   * in the order given). Each prize is paid at once with the player's POBILAN.
   */
  protected placeBusted(): void {
    // Groups are only appended once places are fixed (no one comes back then): each is placed once.
    for (; this.placedGroups < this.busted.length; this.placedGroups++) {
      const g = this.busted[this.placedGroups];
      const first = this.order.length - this.placedPlayers - g.length + 1;
      this.placedPlayers += g.length;
      if (g[0].place !== null) continue;
      const shares = sharedPrizes(this.prizeList, first - 1, g.length);
      // A satellite's seats go to every place they cover (T 1-5), also to players busted on the hand
      // that left fewer players than seats (a double elimination at three left for two seats).
      g.forEach((e, i) => (this.spec.satellite && first - 1 + i < this.seatsWon() ? this.qualify(e, shares[i]) : this.pay(e, first, shares[i], g.length)));
    }
  }

  /**
   * The end (T 1-5): one player holds every chip; a satellite ends when the remaining players are all
   * qualified (as many as the seats it pays), each with a seat.
   */
  protected maybeFinish(): void {
    if (this.state !== 'running' || !this.poolFinal) return;
    // Counted first: the field is read only at the end (after every bust of a 30,000-player field otherwise).
    if (this.remaining > Math.max(1, this.seatsWon())) return;
    const alive = this.order.filter((e) => !e.out);
    if (alive.length > Math.max(1, this.seatsWon())) return;
    if (this.finishing) return;
    this.finishing = true;
    // The last round's busts are placed before the players left (a round cannot leave one player with
    // two tables of two or more, but the places must hold whatever the field).
    this.flushRound();
    this.deps.timers.clear(this.clockTimer);
    this.clockTimer = null;
    // The last tables close first (the chips back to the bank), then the prizes: the players left share
    // the places they cover (a satellite's seats; else the winner alone). The last prizes, the winner's
    // own bounty and the end are one step: a crash leaves all of them or none (then the next start
    // finishes it: restore).
    for (const t of this.liveTables()) this.closeTable(t);
    const shares = sharedPrizes(this.prizeList, 0, Math.max(1, alive.length));
    this.step(() => {
      alive.forEach((e, i) => {
        this.setOut(e, true);
        this.dirty.add(e);
        // The winner's own bounty is theirs (no one eliminated them).
        if (e.bounty > 0) this.payBounty(e, [e.player.accountId]);
        if (this.spec.satellite) this.qualify(e, shares[i]);
        else this.pay(e, 1, shares[i], alive.length);
      });
      this.state = 'finished';
    });
    const left = this.deps.wallet.tableHeld(this.fundId)?.held ?? 0;
    if (left !== 0) this.deps.error(new Error(`${this.spec.id}: the fund holds ${left} after the last prize`));
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'finished' });
  }

  /**
   * A satellite's seat (T 1-5): the prize, then the entry in the target tournament bought with it.
   * Written policy: if the target refuses (closed, full, gone), the player keeps the prize in cash.
   */
  protected qualify(e: Entrant, prize: number): void {
    this.pay(e, 1, prize);
    const target = this.deps.directory?.(this.spec.satellite!.target);
    if (!target || prize !== target.spec.buyIn + target.spec.fee) {
      this.deps.log?.(`${this.spec.id}: ${e.player.name} keeps ${prize} in cash (target ${this.spec.satellite!.target} not open or not worth it)`);
      return;
    }
    const r = target.register(e.player, target.version, { brain: e.brain ?? undefined, autoRebuy: e.autoRebuy });
    if (!r.ok) this.deps.log?.(`${this.spec.id}: ${e.player.name} keeps ${prize} in cash (${target.spec.id}: ${r.code})`);
  }

  /**
   * The player's place and prize: from the fund to the wallet with the POBILAN, in one step. A
   * guarantee's overlay is in the fund already (fundOverlay, when the pool became final).
   */
  protected pay(e: Entrant, place: number, prize: number, tied = 1): void {
    this.step(() => {
      const r = this.moveMoney(e.player, prize, 'out', `t-prize:${e.inscription}`);
      if (!r.ok) throw new Error(`${this.spec.id}: prize of ${e.player.name} refused: ${r.code} ${r.message}`);
      this.paidFromPool += prize;
      this.deps.outbox.put({ kind: 'POBILAN', ...this.record(e.player, e.inscription, r.movement, e.forfeited || e.brain !== null) });
      // Saved with the prize (the step's end): a player paid is never placed and paid again after a crash.
      e.place = place;
      e.prize = prize;
      this.dirty.add(e);
    });
    // `tied`: the group sharing the places from `place` (T 8-16), told so the player's banner can say it.
    this.notify({ type: 'finished', tournamentId: this.spec.id, accountId: e.player.accountId, place, tied, prize, bounties: e.won ?? 0 });
  }

  // ---------------------------------------------------------------------------------------------
  // Exclusion (R-EXCLUDE, R-BANNED): the player leaves as a disqualified player does (T 13-1)

  /**
   * Excluded players still in leave, each whose table is between hands (never in a hand: the hand they
   * are in ends first, and they leave at its end as a bust is processed, before the next deal). A
   * player the hand busted is a bust like any other.
   */
  protected removeExcluded(): void {
    let left = false;
    for (const e of [...this.excludedIn]) {
      if (e.out) {
        this.excludedIn.delete(e);
        continue;
      }
      if (e.table?.handInProgress) continue;
      this.excludedIn.delete(e);
      this.disqualify(e);
      left = true;
    }
    if (left) this.maybeFinish();
  }

  /**
   * T 13-1, "Disqualification définitive du tournoi. Les jetons du joueur sont alors retirés", for a
   * person who may no longer play (R-EXCLUDE, R-BANNED), in one step:
   * - stood up from their table (told `table.left`), their chips out of play (`chipsRemoved`); the
   *   prize pool is unchanged (the entries stay in it, as a bust's do);
   * - ranked as a bust at this moment: below every player still in, above every player out before
   *   (the busts of the hand they finished included), and above the busts of a hand-for-hand round
   *   still being played, which are ranked at its end (T 8-16 ranks busts; they did not bust);
   * - their place's prize paid as any other (the exclusion protects the player, it is no sanction: what
   *   they won by outlasting the others is theirs, as withdrawals stay open to them); bounties they
   *   collected stay theirs, and the bounty on their own head is theirs (nobody eliminated them, as
   *   the winner's); a satellite seat they won already was paid (an entry not started is refunded).
   */
  protected disqualify(e: Entrant): void {
    const table = e.table;
    this.step(() => {
      // The table's cash-out hook gives the stack back to the entrant and frees the seat.
      if (table) table.standUpIfIdle(e.player.accountId);
      if (e.table) throw new Error(`${this.spec.id}: ${e.player.name} could not leave ${e.table.tableId}`);
      const back = this.comebacks.indexOf(e);
      if (back >= 0) this.comebacks.splice(back, 1);
      const chips = e.stack + e.pendingChips;
      e.removedChips = (e.removedChips ?? 0) + chips;
      this.removedTotal += chips;
      this.setOut(e, true);
      e.stack = 0;
      e.pendingChips = 0;
      if (e.bounty > 0) this.payBounty(e, [e.player.accountId]);
      if (this.roundOpen()) {
        // Ranked with the round's busts at its end, above all of them: a stack larger than any chips
        // a bust can have held at the start of the hand.
        e.roundStack = this.chipsIssued() + chips;
        this.roundBusts.push(e);
      } else {
        e.bust = this.bustSeq++;
        this.busted.push([e]);
      }
      this.dirty.add(e);
      this.fieldDirty = true;
      if (table && table.seatsTaken === 0 && this.tableNo.has(table)) this.closeTable(table);
      if (this.poolFinal) this.placeBusted();
    });
    this.notify({ type: 'removed', tournamentId: this.spec.id, accountId: e.player.accountId, why: e.excluded ?? 'closed' });
  }

  /** A busted player is in again with `chips` (not yet seated): their bust is forgotten. */
  protected comeBack(e: Entrant, chips: number): void {
    for (const g of this.busted) {
      const i = g.indexOf(e);
      if (i >= 0) g.splice(i, 1);
    }
    for (let i = this.busted.length - 1; i >= 0; i--) if (this.busted[i].length === 0) this.busted.splice(i, 1);
    e.bust = null;
    this.setOut(e, false);
    e.stack = chips;
    e.pendingChips = 0;
    e.table = null;
    this.dirty.add(e);
    this.comebacks.push(e);
  }
}
