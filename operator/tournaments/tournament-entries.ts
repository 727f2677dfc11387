/**
 * Registration and purchases (R-TOURN-LEAVE, R-NODEBT, R-INFO, T 5-1 to 5-5): register,
 * unregister, sit in again, rebuy, add-on, re-entry, each entry's money with its record in one step.
 * The fourth link of the chain (tournament-core.ts).
 */
import { mayAddOn, mayRebuy, registrationOpen } from '../../shared/rules/tournament';
import type { Brain, MoneyResult, TablePlayer } from '../tables/types';
import { newInscription } from '../trace/inscription';
import { formatCode } from './spec';
import { TournamentEnd } from './tournament-end';
import { excludedRefusal, refusal, type Entrant, type ExclusionWhy, type Refusal } from './tournament-types';

/** The POANNUL's motif of a registration cancelled by an exclusion (A 1.3.6.c.6; R-EXCLUDE, R-BANNED). */
const EXCLUDED_MOTIF: Record<ExclusionWhy, string> = {
  'self-excluded': 'Auto-exclusion du joueur avant le début du tournoi (remboursement intégral)',
  banned: 'Joueur inscrit au fichier des interdits de jeu avant le début du tournoi (remboursement intégral)',
  closed: 'Compte du joueur clôturé avant le début du tournoi (remboursement intégral)',
};

export abstract class TournamentEntries extends TournamentEnd {
  // ---------------------------------------------------------------------------------------------
  // Registration (R-TOURN-LEAVE, R-NODEBT, R-INFO)

  /**
   * Registers a player who confirmed the tournament's information at `version` (R-INFO): the entry
   * (buy-in + fee) moves from their wallet to the tournament's fund with its POINSCRIT, in one step.
   * `brain`: a practice player of the operator (play money only).
   */
  register(player: TablePlayer, version: string, opts: { brain?: Brain; autoRebuy?: boolean } = {}): { ok: true; inscription: string } | Refusal {
    if (version !== this.version) return refusal('RULES_CHANGED', 'the tournament changed since it was shown: read it again', 'R-INFO');
    const known = this.entrants.get(player.accountId);
    if (known?.excluded) return excludedRefusal(known.excluded);
    // A busted player registering again within late registration re-enters.
    if (known && known.out && known.place === null && this.state === 'running') return this.reEnter(known);
    if (player.practice && this.spec.money !== 'play') throw new Error(`practice players never enter ${this.spec.id}`);
    const late = this.state === 'running' && !this.poolFinal && registrationOpen(this.spec.structure, this.elapsed());
    if (this.state !== 'registering' && !late) return refusal('REGISTRATION_CLOSED', 'registration is closed', 'R-TOURN-FORMATS');
    if (this.entrants.has(player.accountId)) return refusal('ALREADY_REGISTERED', 'you are registered already');
    if (this.order.length >= this.spec.maxEntrants) return refusal('TOURNAMENT_FULL', 'the tournament is full');
    const inscription = newInscription(this.spec.id);
    const entry = this.spec.buyIn + this.spec.fee;
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.moveMoney(player, entry, 'in', `t-entry:${inscription}`);
        if (!r.ok) return r;
        this.deps.outbox.put({
          kind: 'POINSCRIT',
          ...this.record(player, inscription, r.movement, false),
          description: this.description(),
          format: formatCode(this.spec),
        });
        // A late entry's fee goes to the operator at once (the others' at the start).
        if (late && this.spec.fee > 0) this.collectFee(this.spec.fee, `t-fee:${inscription}`);
        return r;
      });
    } catch (e) {
      this.deps.error(e);
      return refusal('INTERNAL', 'the operator could not record the registration; nothing was taken');
    }
    if (!paid.ok) return paid;
    const e: Entrant = {
      player,
      brain: opts.brain ?? null,
      inscription,
      stack: this.spec.structure.startingStack,
      table: null,
      out: false,
      place: null,
      prize: null,
      forfeited: false,
      rebuys: 0,
      addOn: false,
      reEntries: 0,
      bounty: this.spec.bounty ?? 0,
      pendingChips: 0,
      autoRebuy: opts.autoRebuy ?? false,
      n: this.registered++,
      bust: null,
    };
    this.entrants.set(player.accountId, e);
    this.order.push(e);
    this.entryCount++;
    this.dirty.add(e);
    this.save();
    if (late) this.seatLate(e);
    else if (this.spec.format === 'sit-and-go' && this.order.length === this.spec.maxEntrants) this.guard(() => this.start());
    return { ok: true, inscription };
  }

  /**
   * Before the start: the whole entry back (buy-in + fee), POANNUL (R-TOURN-LEAVE). After it, leaving
   * forfeits the entry (D art. 1 II 2°): the player is sat out for good, dealt in and blinded away
   * (T 2-15), and keeps whatever place that earns.
   */
  unregister(accountId: number): { ok: true; refunded: number | null } | Refusal {
    const e = this.entrants.get(accountId);
    if (!e || e.out) return refusal('NOT_REGISTERED', 'you are not registered');
    if (this.state === 'registering') {
      const refunded = this.refund(e, 'Désinscription avant le début du tournoi (remboursement intégral)', false);
      if (!refunded.ok) return refunded;
      this.drop(e);
      this.save();
      return { ok: true, refunded: refunded.amount };
    }
    if (this.state !== 'running') return refusal('REGISTRATION_CLOSED', 'the tournament is over');
    e.forfeited = true;
    e.table?.sitOut(accountId);
    this.dirty.add(e);
    this.save();
    return { ok: true, refunded: null };
  }

  /** A registration gone before the start (refunded): the entrant forgotten, deleted with the next save. */
  private drop(e: Entrant): void {
    this.entrants.delete(e.player.accountId);
    this.order.splice(this.order.indexOf(e), 1);
    this.entryCount--;
    this.dirty.delete(e);
    this.stacks.forget(e);
    this.dropped.push(e.player.accountId);
  }

  /**
   * A person who may no longer play (R-EXCLUDE, R-BANNED; server/closure.ts through the hub), in a
   * real-money tournament only: both rules are about gambling, and a play-money tournament stakes
   * nothing (the wallet's stake guard sees real money only), so it is left as it is.
   *
   * - Not started: the registration is cancelled and the whole entry (buy-in + fee) refunded with its
   *   POANNUL, as an unregistration is, the refund and the entrant's removal in one step.
   * - Running: marked excluded (saved: a restart does not bring them back), no purchase or re-entry
   *   any more; still in, they leave as a disqualified player (T 13-1, tournament-end.ts `disqualify`)
   *   now if their table is between hands, else at the end of its hand. Out already (a bust waiting for
   *   its place), they keep that place. Placed already: nothing changes.
   *
   * R-TIMELIMIT is not this: at the playing-time limit a player finishes the tournaments in progress.
   */
  exclude(accountId: number, why: ExclusionWhy): 'refunded' | 'removed' | 'leaving' | 'none' {
    const e = this.entrants.get(accountId);
    if (!e || this.spec.money !== 'real') return 'none';
    if (this.state === 'registering') {
      const r = this.step(() => {
        const refunded = this.refund(e, EXCLUDED_MOTIF[why], true);
        if (refunded.ok) this.drop(e);
        return refunded;
      });
      if (!r.ok) throw new Error(`${this.spec.id}: refund of ${e.player.name} refused: ${r.code} ${r.message}`);
      return 'refunded';
    }
    if (this.state !== 'running' || e.place !== null || e.excluded) return 'none';
    e.excluded = why;
    this.dirty.add(e);
    if (e.out) {
      this.save();
      return 'none';
    }
    this.excludedIn.add(e);
    if (e.table?.handInProgress) {
      this.save();
      return 'leaving';
    }
    this.removeExcluded();
    if (this.state === 'running') this.afterSeating();
    return 'removed';
  }

  /** A forfeited or timed-out player comes back (they are still in: T 2-15). */
  sitIn(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    if (!e || e.out || !e.table) return refusal('NOT_REGISTERED', 'you are not playing in this tournament');
    e.forfeited = false;
    return e.table.sitIn(accountId, false);
  }

  // ---------------------------------------------------------------------------------------------
  // Purchases during the tournament: rebuy, add-on, re-entry (T 5-1 to 5-5; POACHAT)

  /**
   * T 5-2: a rebuy while the player's chips are at or below the structure's condition, during the
   * rebuy period; at zero too (the bust waits for it: the player comes back between hands). The price
   * goes to the pool, the fee to the operator, with a POACHAT, in one step.
   */
  rebuy(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    const r = this.spec.structure.rebuy;
    if (!e || this.state !== 'running' || e.place !== null || r === null) return refusal('NOT_REGISTERED', 'no rebuy here', 'T 5-2');
    if (e.excluded) return excludedRefusal(e.excluded);
    const stack = e.out ? 0 : this.stackOf(e);
    if (!mayRebuy(this.spec.structure, this.elapsed() ?? 0, stack + e.pendingChips, e.rebuys)) return refusal('REGISTRATION_CLOSED', 'a rebuy is not allowed now', 'T 5-2');
    const paid = this.purchase(e, r.price, r.fee, `t-rebuy:${e.inscription}:${e.rebuys + 1}`, 'Recave');
    if (!paid.ok) return paid;
    e.rebuys++;
    this.rebuyCount++;
    this.addChips(e, r.chips);
    return { ok: true };
  }

  /** T 5-4, 5-5: the add-on, once, at the end of the rebuy period, whatever the stack. */
  addOn(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    const a = this.spec.structure.addOn;
    if (!e || e.out || this.state !== 'running' || a === null) return refusal('NOT_REGISTERED', 'no add-on here', 'T 5-4');
    if (e.excluded) return excludedRefusal(e.excluded);
    if (!mayAddOn(this.spec.structure, this.elapsed() ?? 0, e.addOn)) return refusal('REGISTRATION_CLOSED', 'the add-on is not available now', 'T 5-4');
    const paid = this.purchase(e, a.price, a.fee, `t-addon:${e.inscription}`, 'Add-on');
    if (!paid.ok) return paid;
    e.addOn = true;
    this.addOnCount++;
    this.addChips(e, a.chips);
    return { ok: true };
  }

  /**
   * Re-entry (`T/M`): a busted player buys a new starting stack within late registration, at most
   * `reEntries` times; it is a whole entry (buy-in, bounty, fee) written as a POACHAT of the player's
   * inscription. The player's bust is forgotten: one place per player, at the end.
   */
  protected reEnter(e: Entrant): { ok: true; inscription: string } | Refusal {
    if (e.reEntries >= this.spec.structure.reEntries || !registrationOpen(this.spec.structure, this.elapsed())) {
      return refusal('REGISTRATION_CLOSED', 'no re-entry now', 'R-TOURN-FORMATS');
    }
    const paid = this.purchase(e, this.spec.buyIn, this.spec.fee, `t-reentry:${e.inscription}:${e.reEntries + 1}`, 'Ré-entrée');
    if (!paid.ok) return paid;
    e.reEntries++;
    this.entryCount++;
    e.bounty = this.spec.bounty ?? 0;
    this.comeBack(e, this.spec.structure.startingStack);
    this.seatLate(this.comebacks.splice(this.comebacks.indexOf(e), 1)[0], 'back');
    return { ok: true, inscription: e.inscription };
  }

  /** Chips bought: at the table (now, or when the hand in play ends), or, busted, back in play. */
  protected addChips(e: Entrant, chips: number): void {
    if (e.out) {
      this.comeBack(e, chips);
      this.seatLate(this.comebacks.splice(this.comebacks.indexOf(e), 1)[0], 'back');
      return;
    }
    e.pendingChips += chips;
    this.stacks.touch(e); // counted in the standing at once, at the table after the hand
    const r = e.table!.topUp(e.player.accountId, chips);
    if (!r.ok) throw new Error(`${this.spec.id}: ${chips} chips for ${e.player.name} refused: ${r.code} ${r.message}`);
  }
}
