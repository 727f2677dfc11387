/**
 * The client API's tournament calls and the `tournament` event, in main (shared/api/tournaments.ts,
 * docs/protocol.md "Tournaments"). A service like cashier.ts: each call is
 * one request on the operator link; what the operator tells the player (`tournament.seat`, `.state`,
 * `.finished`, given by the link as its `tournament` event) is kept as one `TournamentPlay` per
 * tournament the player is in, pushed to the pages on each change.
 *
 * Money (R-TRACKER): an entry paid (registration, re-entry, rebuy, add-on, each with
 * its fee) goes to the tracker's `entries` as it is paid, a refund (unregistered before the start, a
 * cancelled tournament) is taken off, and prizes and bounties go to `prizes` as they are won (bounties
 * from the standing's `you.bounties` as it grows, and the finish's total). Balances are read again
 * after each. Tournament chips are never money: the tables' models keep them out of the tracker.
 *
 * The local record: each tournament the player enters is stored in the history
 * (`putTournament`, an upsert by id) on registration and again as it starts, on rebuys and add-ons,
 * as bounties are won, and at the finish (place, prize, bounties, end), each time with main's clock:
 * the history dates each payment and win by it (schema version 7), so "today" and the graph count
 * them when they happen, as the session does. A refunded registration (unregistered before the
 * start, or the tournament cancelled) is stored as refunded (`refundedAt`: in no result); registering
 * again after it makes a new record.
 */
import { blankTournamentRecord, type CallArgs, type CallResult, type EventName, type EventPayload, type Handlers, type TournamentPlay, type TournamentRecordView } from '../../../shared/api';
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import type { TournamentDetails, TournamentSummary } from '../../../shared/protocol/tournament';
import type { Tracker } from '../history/tracker';
import type { OperatorLink, Refused } from '../link/link';
import type { TableChange, TableModel } from '../link/table';

/**
 * A refusal as the tournament answers carry it (shared/api/tournaments.ts `answer`: the code, the
 * message and the rule; their `details` is the tournament's, not a protection refusal's).
 */
type Answer = { ok: false; code: string; message: string; rule?: string };
function answerOf(r: Refused): Answer {
  const a: Answer = { ok: false, code: r.code, message: r.message.slice(0, 2000) };
  if (r.rule !== undefined) a.rule = r.rule;
  return a;
}

function offline(): Answer {
  return { ok: false, code: 'OFFLINE', message: 'not connected to an operator' };
}

export interface ClientTournamentsOptions {
  /** The link now (null while none). */
  link: () => OperatorLink | null;
  broadcast: <K extends EventName>(event: K, payload: EventPayload<K>) => void;
  tracker: Tracker;
  /** Stores (upserts) the local record of a tournament (HistoryStore.putTournament), seen at `at`. */
  putTournament: (t: TournamentRecordView, at: number) => void;
  /** The record the history keeps of a tournament (HistoryStore.tournament), or null. */
  storedTournament?: (tournamentId: string) => TournamentRecordView | null;
  /** Balances moved (an entry, a refund, a prize): main reads them again and pushes the session. */
  balancesMoved: () => void;
  now: () => number;
  log: (line: string) => void;
}

type TournamentNews = ServerMessageOf<'tournament.seat' | 'tournament.state' | 'tournament.finished'>;

type TournamentCalls = 'tournaments' | 'tournamentDetails' | 'tournamentRegister' | 'tournamentUnregister' | 'tournamentRebuy' | 'tournamentAddOn' | 'watchTable' | 'myTournaments';

/** Most tournaments followed at once (the `myTournaments` answer's bound). */
const PLAYS_MAX = 1000;

export class ClientTournaments {
  private readonly plays = new Map<string, TournamentPlay>();
  private readonly records = new Map<string, TournamentRecordView>();
  /** The lobby's lines as last read, and details (the rebuy and add-on prices). */
  private readonly summaries = new Map<string, TournamentSummary>();
  private readonly structures = new Map<string, TournamentDetails['structure']>();
  /** The level of each tournament now (the last standing), read by the tables as a hand starts. */
  private readonly levels = new Map<string, number>();
  /** Bounties already counted as won, per tournament. */
  private readonly bountiesCounted = new Map<string, number>();
  /** The operator's news, handled in order (a summary may have to be read first). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly o: ClientTournamentsOptions) {}

  handlers(): Pick<Handlers, TournamentCalls> {
    return {
      tournaments: () => this.list(),
      tournamentDetails: (a) => this.details(a),
      tournamentRegister: (a) => this.register(a),
      tournamentUnregister: (a) => this.unregister(a),
      tournamentRebuy: (a) => this.rebuy(a),
      tournamentAddOn: (a) => this.addOn(a),
      watchTable: (a) => this.watchTable(a),
      myTournaments: async () => this.mine(),
    };
  }

  /** Follows a new link: its tournament news, and its tournament tables (our seat, hands stored). */
  attach(link: OperatorLink): () => void {
    const offs = [
      link.on('tournament', (m) => {
        // The level is known at once: a hand that starts next is at this level (T 6-1).
        if (m.type === 'tournament.state' && m.standing.level !== null) this.levels.set(m.tournamentId, m.standing.level);
        // Where we sat before this seat, read now: the new table's snapshot follows at once and moves `seat`.
        const from = m.type === 'tournament.seat' ? (this.plays.get(m.tournamentId)?.seat?.tableId ?? null) : null;
        this.queue = this.queue.then(() => this.news(link, m, from)).catch((e: unknown) => this.o.log(`tournament ${m.tournamentId}: ${(e as Error)?.stack ?? String(e)}`));
      }),
      link.on('table', ({ tableId, model, change }) => this.tableChanged(link, tableId, model, change)),
    ];
    return () => offs.forEach((off) => off());
  }

  /** The level a tournament is at now (null: not known, or not started). */
  levelOf(tournamentId: string): number | null {
    return this.levels.get(tournamentId) ?? null;
  }

  /** Waits for the news received so far to be handled (tests, and a clean close). */
  settled(): Promise<void> {
    return this.queue;
  }

  // -------------------------------------------------------------------------------------------
  // Calls

  async list(): Promise<CallResult<'tournaments'>> {
    const link = this.o.link();
    if (!link) return offline();
    const r = await link.tournaments.list();
    if (!r.ok) return answerOf(r);
    for (const s of r.tournaments) this.summaries.set(s.tournamentId, s);
    return { ok: true, tournaments: r.tournaments };
  }

  async details(a: CallArgs<'tournamentDetails'>): Promise<CallResult<'tournamentDetails'>> {
    const link = this.o.link();
    if (!link) return offline();
    const r = await link.tournaments.details(a.tournamentId);
    if (!r.ok) return answerOf(r);
    this.summaries.set(a.tournamentId, r.tournament.summary);
    this.structures.set(a.tournamentId, r.tournament.structure);
    return { ok: true, details: r.tournament };
  }

  /** Registers on the version shown (R-INFO); the entry (buy-in + fee) is paid now (R-TRACKER). */
  async register(a: CallArgs<'tournamentRegister'>): Promise<CallResult<'tournamentRegister'>> {
    const link = this.o.link();
    if (!link) return offline();
    const summary = await this.summaryOf(link, a.tournamentId);
    const r = await link.tournaments.register(a.tournamentId, a.version);
    this.o.balancesMoved();
    if (!r.ok) return answerOf(r);
    if (!summary) {
      this.o.log(`registered in ${a.tournamentId}, which the lobby does not list: its entry is not counted`);
      return { ok: true };
    }
    const price = summary.buyIn + summary.fee;
    const before = this.plays.get(a.tournamentId);
    // A player out within late registration enters again (T/M): a re-entry, paid the same. Busted
    // there, the player has no place yet (the field is not final), so no `finished` came: still
    // `playing` here, and the operator refuses a second registration of a player still in, so a
    // registration accepted over `playing` (or `finished`) is the re-entry.
    const reEntry = before !== undefined && (before.status === 'finished' || before.status === 'playing');
    if (before !== undefined && (before.status === 'unregistered' || before.status === 'cancelled')) {
      // Registered again after a refund: a new registration, a new record; the
      // refunded one stays in the history as refunded.
      this.plays.delete(a.tournamentId);
      this.records.delete(a.tournamentId);
      this.bountiesCounted.delete(a.tournamentId);
    }
    this.paid(a.tournamentId, summary, price);
    const play = this.play(a.tournamentId, summary);
    play.status = reEntry ? 'playing' : 'registered';
    play.finished = null;
    const rec = this.record(a.tournamentId, summary);
    if (reEntry) rec.reEntries++;
    rec.endedAt = null;
    rec.place = null;
    delete rec.tied;
    this.changed(a.tournamentId);
    return { ok: true };
  }

  /** Before the start the whole entry comes back (a refund, taken off the entries); after it, a forfeit. */
  async unregister(a: CallArgs<'tournamentUnregister'>): Promise<CallResult<'tournamentUnregister'>> {
    const link = this.o.link();
    if (!link) return offline();
    const r = await link.tournaments.unregister(a.tournamentId);
    this.o.balancesMoved();
    if (!r.ok) return answerOf(r);
    const play = this.plays.get(a.tournamentId);
    if (r.refunded !== null && r.refunded > 0) {
      const summary = play?.summary ?? this.summaries.get(a.tournamentId);
      if (summary) this.o.tracker.tournamentEntry(a.tournamentId, summary.money, -r.refunded, summary.variant);
      if (play) play.spent = Math.max(0, play.spent - r.refunded);
      const kept = this.records.get(a.tournamentId);
      if (kept) kept.spent = Math.max(0, kept.spent - r.refunded);
    }
    if (play && r.refunded !== null) play.status = 'unregistered';
    // Refunded: its record ends now, refunded, without a place and with nothing spent (in no result).
    const rec = this.records.get(a.tournamentId);
    if (rec && r.refunded !== null) {
      rec.endedAt = this.o.now();
      rec.refundedAt = rec.endedAt;
    }
    if (play) this.changed(a.tournamentId);
    return { ok: true, refunded: r.refunded };
  }

  rebuy(a: CallArgs<'tournamentRebuy'>): Promise<CallResult<'tournamentRegister'>> {
    return this.purchase(a.tournamentId, 'rebuy');
  }

  addOn(a: CallArgs<'tournamentAddOn'>): Promise<CallResult<'tournamentRegister'>> {
    return this.purchase(a.tournamentId, 'addOn');
  }

  /** A rebuy (T 5-2) or the add-on (T 5-4): its price and fee are paid now (R-TRACKER). */
  private async purchase(tournamentId: string, what: 'rebuy' | 'addOn'): Promise<CallResult<'tournamentRegister'>> {
    const link = this.o.link();
    if (!link) return offline();
    const structure = this.structures.get(tournamentId) ?? (await this.details({ tournamentId }), this.structures.get(tournamentId));
    const r = what === 'rebuy' ? await link.tournaments.rebuy(tournamentId) : await link.tournaments.addOn(tournamentId);
    this.o.balancesMoved();
    if (!r.ok) return answerOf(r);
    const summary = this.summaries.get(tournamentId);
    const p = what === 'rebuy' ? structure?.rebuy : structure?.addOn;
    if (!summary || !p) {
      this.o.log(`${what} in ${tournamentId}: its price is not known here, not counted`);
      return { ok: true };
    }
    this.paid(tournamentId, summary, p.price + p.fee);
    const play = this.play(tournamentId, summary);
    const rec = this.record(tournamentId, summary);
    if (what === 'rebuy') {
      play.rebuys++;
      rec.rebuys++;
    } else {
      play.addOns++;
      rec.addOns++;
    }
    this.changed(tournamentId);
    return { ok: true };
  }

  /** Watch any table (no seat; `table` events follow with `watching: true`), or stop. */
  async watchTable(a: CallArgs<'watchTable'>): Promise<CallResult<'tournamentRegister'>> {
    const link = this.o.link();
    if (!link) return offline();
    const r = a.watch ? await link.watch(a.tableId) : await link.unwatch(a.tableId);
    return r.ok ? { ok: true } : answerOf(r);
  }

  mine(): TournamentPlay[] {
    return [...this.plays.values()].slice(-PLAYS_MAX).map((p) => structuredClone(p));
  }

  // -------------------------------------------------------------------------------------------
  // What the operator tells

  private async news(link: OperatorLink, m: TournamentNews, from: string | null): Promise<void> {
    const summary = await this.summaryOf(link, m.tournamentId);
    if (!summary) {
      this.o.log(`news of tournament ${m.tournamentId}, which the lobby does not list: ignored`);
      return;
    }
    const play = this.play(m.tournamentId, summary);
    const rec = this.record(m.tournamentId, summary);
    const now = this.o.now();
    switch (m.type) {
      case 'tournament.seat': {
        if (m.moved || (from !== null && from !== m.tableId)) play.move = { from, to: m.tableId, why: m.why, at: now };
        play.seat = { tableId: m.tableId, seat: m.seat };
        if (play.status === 'registered') play.status = 'playing';
        rec.startedAt ??= now;
        break;
      }
      case 'tournament.state': {
        const s = m.standing;
        play.standing = s;
        play.standingAt = now;
        if (s.state === 'running' && play.status === 'registered') play.status = 'playing';
        if (s.state === 'running') rec.startedAt ??= now;
        rec.entries = Math.max(rec.entries, s.entries);
        if (s.you) this.bounties(m.tournamentId, summary, s.you.bounties);
        if (s.state === 'cancelled' && play.status !== 'cancelled' && play.status !== 'unregistered') {
          // Cancelled (a minimum field not met): every entry is refunded (R-TOURN-FORMATS).
          if (play.spent > 0) this.o.tracker.tournamentEntry(m.tournamentId, summary.money, -play.spent, summary.variant);
          play.spent = 0;
          rec.spent = 0;
          play.status = 'cancelled';
          rec.endedAt ??= now;
          rec.refundedAt = rec.endedAt;
          this.o.balancesMoved();
        }
        break;
      }
      case 'tournament.finished': {
        this.bounties(m.tournamentId, summary, m.bounties);
        if (m.prize > 0) this.o.tracker.tournamentPrize(m.tournamentId, summary.money, m.prize, summary.variant);
        play.status = 'finished';
        play.finished = { place: m.place, tied: m.tied, prize: m.prize, bounties: m.bounties };
        play.seat = null;
        Object.assign(rec, { place: m.place, prize: m.prize, bounties: m.bounties, endedAt: now });
        // T 8-16: kept with the record, so that the history says the place was shared (schema version 8).
        if (m.tied > 1) rec.tied = m.tied;
        else delete rec.tied;
        rec.startedAt ??= now;
        this.o.balancesMoved();
        break;
      }
    }
    this.changed(m.tournamentId);
  }

  /** Bounties won so far (money paid to the wallet as won): what grew since last counted goes to the prizes. */
  private bounties(tournamentId: string, summary: TournamentSummary, total: number): void {
    const counted = this.bountiesCounted.get(tournamentId) ?? 0;
    if (total <= counted) return;
    this.bountiesCounted.set(tournamentId, total);
    this.o.tracker.tournamentPrize(tournamentId, summary.money, total - counted, summary.variant);
    const rec = this.records.get(tournamentId);
    if (rec) rec.bounties = total;
    this.o.balancesMoved();
  }

  /** Our seat as the tables show it (after a reconnection the operator sends snapshots, not seats); hands counted. */
  private tableChanged(link: OperatorLink, tableId: string, model: TableModel, change: TableChange): void {
    const tournamentId = model.tournamentId;
    if (tournamentId === null || link.isWatching(tableId)) return;
    const play = this.plays.get(tournamentId);
    if (!play) return;
    if (change.type === 'hand-stored' && change.stored) {
      const rec = this.records.get(tournamentId);
      if (rec) rec.hands++;
      return;
    }
    if (change.type !== 'snapshot') return;
    const seat = model.heroSeat;
    if (seat === null || play.status === 'finished' || (play.seat?.tableId === tableId && play.seat.seat === seat)) return;
    play.seat = { tableId, seat };
    if (play.status === 'registered') play.status = 'playing';
    this.changed(tournamentId);
  }

  // -------------------------------------------------------------------------------------------
  // Keeping them

  private async summaryOf(link: OperatorLink, tournamentId: string): Promise<TournamentSummary | null> {
    const known = this.summaries.get(tournamentId);
    if (known) return known;
    const r = await link.tournaments.list();
    if (r.ok) for (const s of r.tournaments) this.summaries.set(s.tournamentId, s);
    return this.summaries.get(tournamentId) ?? null;
  }

  private paid(tournamentId: string, summary: TournamentSummary, amount: number): void {
    if (amount > 0) this.o.tracker.tournamentEntry(tournamentId, summary.money, amount, summary.variant);
    const play = this.play(tournamentId, summary);
    play.spent += amount;
    this.record(tournamentId, summary).spent += amount;
  }

  private play(tournamentId: string, summary: TournamentSummary): TournamentPlay {
    let p = this.plays.get(tournamentId);
    if (!p) {
      p = { tournamentId, summary, status: 'registered', standing: null, standingAt: null, seat: null, move: null, finished: null, spent: 0, rebuys: 0, addOns: 0 };
      this.plays.set(tournamentId, p);
      if (this.plays.size > PLAYS_MAX) this.plays.delete(this.plays.keys().next().value as string);
    }
    p.summary = summary;
    return p;
  }

  private record(tournamentId: string, s: TournamentSummary): TournamentRecordView {
    let r = this.records.get(tournamentId);
    const kept = r === undefined ? this.o.storedTournament?.(tournamentId) : null;
    if (!r && kept && kept.refundedAt === undefined && kept.endedAt === null) {
      // A tournament still running when main last stopped: its record goes on from what
      // the history keeps (its registration, what was paid, the bounties won), so nothing paid or won
      // before is counted again, nor taken off.
      r = { ...kept };
      this.bountiesCounted.set(tournamentId, Math.max(this.bountiesCounted.get(tournamentId) ?? 0, kept.bounties));
      this.records.set(tournamentId, r);
    }
    if (!r) {
      r = blankTournamentRecord(tournamentId, s, this.o.now());
      this.records.set(tournamentId, r);
      if (this.records.size > PLAYS_MAX) this.records.delete(this.records.keys().next().value as string);
    }
    return r;
  }

  /** Pushes the play and stores the record. */
  private changed(tournamentId: string): void {
    const play = this.plays.get(tournamentId);
    if (play) this.o.broadcast('tournament', structuredClone(play));
    const rec = this.records.get(tournamentId);
    if (rec) {
      try {
        this.o.putTournament({ ...rec }, this.o.now());
      } catch (e) {
        this.o.log(`tournament ${tournamentId} not stored: ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }
}
