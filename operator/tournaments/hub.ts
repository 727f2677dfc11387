/**
 * The operator's tournaments: the lobby's list and details, the players'
 * requests, and what each player is told (their seat and every move, with the new table's stream;
 * the clock; their place and prize). A sit & go is a template: when one starts, the next one of the
 * same kind opens for registration. Play-money sit & go's fill with practice players a moment after a
 * person registers, so a new user can play a tournament at once.
 */
import { clockAt, payout, prizePool } from '../../shared/rules/tournament';
import type { ServerMessage } from '../../shared/protocol/messages';
import { HISTORY_DAYS } from '../../shared/protocol/version';
import type { TournamentDetails, TournamentStanding, TournamentSummary } from '../../shared/protocol/tournament';
import type { Accounts } from '../accounts';
import { practiceAccount } from '../practice/host';
import { PracticeBrain, type PracticeOptions } from '../practice/strategy';
import type { Table } from '../tables/table';
import type { TimerHandle } from '../tables/timers';
import type { TablePlayer } from '../tables/types';
import { LiveTournament, type EntrantView, type ExclusionWhy, type LiveDeps, type TournamentNotice } from './live';
import { MachineStore } from './machine-store';
import { TournamentResults, type ResultsPage } from './results';
import { formatCode, repeatId, type TournamentSpec } from './spec';

type Tournament = LiveTournament;

export interface HubDeps extends Omit<LiveDeps, 'notify' | 'directory' | 'brain' | 'store'> {
  accounts: Accounts;
  /** After a person registers to a play-money sit & go, practice players fill it this much later (null: never). */
  practiceFillMs?: number | null;
  /**
   * Play-money scheduled tournaments: the same while registration is open, practice players bring the
   * field up to this many (at most the tournament's maximum), so a multi-table tournament of the
   * embedded operator has a few hundred players. Absent: scheduled ones are not filled.
   */
  practiceField?: number;
  practice?: PracticeOptions;
}

/** Where the hub's messages go: the server's connections (set by server/operator.ts). */
export interface HubWire {
  /** A message to the account's connection, if it has one. */
  deliver(accountId: number, message: ServerMessage): void;
  /** The account's connection follows `table`: its snapshot, then its stream. */
  follow(accountId: number, table: Table): void;
}

/** A registration change while registering reaches the field's people at most this often. */
const FIELD_NOTICE_MS = 1000;

/** Practice players of tournaments: accounts `practice-101`, … (cash tables use 01 to 99). */
const PRACTICE_FIRST = 101;
const PRACTICE_GRANT = 1_000_000_000;

export class TournamentHub {
  private readonly tournaments = new Map<string, Tournament>();
  /** Sit & go templates by id, with how many were opened. */
  private readonly templates = new Map<string, { spec: TournamentSpec; opened: number }>();
  private readonly fillTimers = new Map<Tournament, TimerHandle>();
  /** The field's people told of a registration change, at most once a second (fieldChanged). */
  private readonly fieldTimers = new Map<Tournament, TimerHandle>();
  private readonly paidCache = new WeakMap<Tournament, { key: string; paid: number }>();
  private readonly practicePool: TablePlayer[] = [];
  /** Each tournament's machine state, saved with every event's money and records. */
  private readonly store: MachineStore;
  private readonly done: TournamentResults;
  wire: HubWire | null = null;

  constructor(private readonly deps: HubDeps) {
    this.store = new MachineStore(deps.db);
    this.done = new TournamentResults(deps.db);
  }

  /**
   * Offers a tournament; a sit & go's spec is a template whose instances are `<id>-1`, `<id>-2`, …
   * A tournament already in the store (restored, or over) is not offered again.
   */
  add(spec: TournamentSpec): void {
    if (spec.format === 'sit-and-go') {
      if (this.templates.has(spec.id)) throw new Error(`tournament ${spec.id} exists already`);
      const known = [...this.done.ids()].filter((id) => id.startsWith(`${spec.id}-`) && /^\d+$/.test(id.slice(spec.id.length + 1)));
      const opened = known.reduce((a, id) => Math.max(a, Number(id.slice(spec.id.length + 1))), 0);
      this.templates.set(spec.id, { spec, opened });
      const waiting = known.some((id) => this.tournaments.get(id)?.state === 'registering');
      if (!waiting) this.openNext(spec.id);
      return;
    }
    if (this.done.ids().has(spec.id)) return;
    this.create(spec);
  }

  /**
   * Tournaments the operator left unfinished when it stopped without closing (a crash): each resumes
   * from its last committed event (live.ts `resume`). Called before `add`. Tournaments saved unfinished
   * by an operator from before the machine are not resumed: they are logged, their money stays in
   * their fund (counted by the audit).
   */
  restore(): Tournament[] {
    const out: Tournament[] = [];
    for (const id of this.store.unfinished()) {
      const t = this.create(null, undefined, id);
      if (t) out.push(t);
    }
    for (const old of this.done.legacyUnfinished()) this.deps.log?.(`tournament ${old.id} (${old.state}) was saved by an operator before the tournament machine: not resumed; its fund tournament:${old.id} keeps its money`);
    return out;
  }

  private openNext(templateId: string): Tournament {
    const t = this.templates.get(templateId)!;
    t.opened++;
    return this.create({ ...t.spec, id: `${t.spec.id}-${t.opened}` }, templateId);
  }

  /**
   * A repeated scheduled tournament started or was cancelled: the next instance opens, `everyMinutes`
   * after it (the first such time still ahead, when the operator was stopped meanwhile); once only.
   */
  private openRepeat(spec: TournamentSpec): void {
    if (!spec.repeat || spec.startAt === null) return;
    const every = spec.repeat.everyMinutes * 60_000;
    let startAt = spec.startAt + every;
    const now = this.deps.timers.now();
    if (startAt <= now) startAt += Math.ceil((now - startAt + 1) / every) * every;
    const id = repeatId(spec.repeat.series, startAt);
    if (this.tournaments.has(id) || this.done.ids().has(id)) return;
    this.create({ ...spec, id, startAt });
  }

  /** A new tournament (`spec`), or one resumed from the store (`resumeId`). */
  private create(spec: TournamentSpec, templateId?: string): Tournament;
  private create(spec: null, templateId: undefined, resumeId: string): Tournament | null;
  private create(spec: TournamentSpec | null, templateId?: string, resumeId?: string): Tournament | null {
    if (spec && this.tournaments.has(spec.id)) throw new Error(`tournament ${spec.id} exists already`);
    let t: Tournament | null = null;
    let template = templateId;
    const deps: LiveDeps = {
      ...this.deps,
      store: this.store,
      directory: (id) => this.tournaments.get(id),
      brain: () => new PracticeBrain(this.deps.practice),
      // Notices while a resumed tournament reseats its players are for nobody yet (no connection).
      notify: (n) => {
        if (t) this.notice(t, n, template);
      },
    };
    t = spec ? LiveTournament.create(spec, deps) : LiveTournament.resume(resumeId!, deps);
    if (!t) return null;
    if (!spec && t.spec.format === 'sit-and-go') template = t.spec.id.replace(/-\d+$/, '');
    this.tournaments.set(t.spec.id, t);
    return t;
  }

  get(id: string): Tournament | undefined {
    return this.tournaments.get(id);
  }

  all(): Tournament[] {
    return [...this.tournaments.values()];
  }

  /** A tournament table by id (the connection's table requests). */
  table(tableId: string): Table | undefined {
    for (const t of this.tournaments.values()) {
      if (t.state !== 'running') continue;
      const found = t.liveTables().find((x) => x.tableId === tableId);
      if (found) return found;
    }
    return undefined;
  }

  /** The tournament tables where the account sits. */
  tablesOf(accountId: number): Table[] {
    const out: Table[] = [];
    for (const t of this.tournaments.values()) {
      const e = t.state === 'running' ? t.entrant(accountId) : undefined;
      if (e?.table) out.push(e.table);
    }
    return out;
  }

  /** The tournament a table belongs to. */
  ofTable(table: Table): Tournament | undefined {
    for (const t of this.tournaments.values()) if (t.liveTables().includes(table)) return t;
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Requests

  register(id: string, player: TablePlayer, version: string): ReturnType<LiveTournament['register']> {
    const t = this.tournaments.get(id);
    if (!t) return { ok: false, code: 'UNKNOWN_TOURNAMENT', message: `no tournament ${id}` };
    if (t.spec.money === 'real' && this.deps.accounts.getAccount(player.accountId)?.guest) {
      return { ok: false, code: 'REAL_MONEY_FORBIDDEN', message: 'guest accounts play for play money only' };
    }
    const r = t.register(player, version);
    if (r.ok) this.fieldChanged(t);
    if (r.ok && !player.practice) this.scheduleFill(t);
    return r;
  }

  /** Before the start the entry back; after it a forfeit (tournament.ts). The field's people are told. */
  unregister(t: Tournament, accountId: number): ReturnType<LiveTournament['unregister']> {
    const r = t.unregister(accountId);
    if (r.ok) this.fieldChanged(t);
    return r;
  }

  /**
   * R-EXCLUDE, R-BANNED (server/closure.ts: a self-exclusion, a ban, an account closed): in every
   * real-money tournament, a registration not started is refunded whole with its POANNUL, and a
   * running one is left as a disqualified player leaves it (T 13-1), at the end of the hand they are
   * in (tournament-entries.ts `exclude`, tournament-end.ts `disqualify`). Play money is left as it is.
   * The player is told their standing in each (no longer in), then their place when it is known.
   */
  excludePlayer(accountId: number, why: ExclusionWhy): void {
    for (const t of [...this.tournaments.values()]) {
      try {
        const done = t.exclude(accountId, why);
        if (done === 'none') continue;
        if (done === 'refunded') this.fieldChanged(t);
        if (done !== 'removed') this.tell(t, [accountId]);
      } catch (e) {
        this.deps.error(e);
      }
    }
  }

  /** Practice players fill a play-money sit & go (or a scheduled one, up to `practiceField`) a moment after a person registered. */
  private scheduleFill(t: Tournament): void {
    const ms = this.deps.practiceFillMs;
    if (ms === null || ms === undefined || t.spec.money !== 'play' || this.fillTimers.has(t) || this.fieldTarget(t) === 0) return;
    this.fillTimers.set(
      t,
      this.deps.timers.set(() => {
        this.fillTimers.delete(t);
        this.fill(t);
      }, ms),
    );
  }

  /** How many entrants practice players bring a tournament up to: a sit & go full, a scheduled one to `practiceField`. */
  private fieldTarget(t: Tournament): number {
    if (t.spec.format === 'sit-and-go') return t.spec.maxEntrants;
    return Math.min(t.spec.maxEntrants, this.deps.practiceField ?? 0);
  }

  private fill(t: Tournament): void {
    const target = this.fieldTarget(t);
    for (let n = 0; t.state === 'registering' && t.entries < target && n < target + this.practicePool.length; n++) {
      const p = this.practicePlayer(n);
      if (t.entrant(p.accountId)) continue;
      if (this.deps.wallet.balance(p.accountId, 'play') < t.spec.buyIn + t.spec.fee) {
        const g = this.deps.wallet.grantPlay(p.accountId, PRACTICE_GRANT, { idempotencyKey: `grant:practice:t:${p.accountId}:${this.deps.timers.now()}:${n}` });
        if (!g.ok) throw new Error(`practice grant refused: ${g.code}`);
      }
      t.register(p, t.version, { auto: true });
    }
    this.fieldChanged(t);
  }

  private practicePlayer(n: number): TablePlayer {
    while (this.practicePool.length <= n) {
      const a = practiceAccount(this.deps.accounts, PRACTICE_FIRST + this.practicePool.length);
      this.practicePool.push({ accountId: a.id, name: a.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' });
    }
    return this.practicePool[n];
  }

  // ---------------------------------------------------------------------------------------------
  // Views

  summary(t: Tournament): TournamentSummary {
    const s = t.spec;
    return {
      tournamentId: s.id,
      name: s.name,
      variant: s.variant,
      money: s.money,
      buyIn: s.buyIn,
      fee: s.fee,
      bounty: s.bounty ?? 0,
      format: s.format,
      kinds: formatCode(s).replace(/^T\/?/, ''),
      seats: s.seats,
      state: t.state,
      entries: t.entryTotal,
      players: t.entries,
      remaining: t.remaining,
      minEntrants: s.minEntrants,
      maxEntrants: s.maxEntrants,
      startAt: s.startAt,
      pool: t.pool(),
      version: t.version,
      ...(s.guarantee !== undefined ? { guarantee: s.guarantee } : {}),
      ...(s.satellite ? { satellite: { tournamentId: s.satellite.target, name: this.targetName(s.satellite.target), seatValue: s.satellite.seatValue } } : {}),
    };
  }

  /** A satellite's target by name (T 1-5): the tournament of that id, or the next of that repeated series; null when not offered. */
  private targetName(target: string): string | null {
    const named = this.tournaments.get(target) ?? this.all().find((x) => x.spec.repeat?.series === target && x.state === 'registering');
    return named?.spec.name ?? null;
  }

  /**
   * The prizes shown (details) and counted (the standing's `paid`): the tournament's; a sit & go
   * still filling shows its full field's (it starts full: R-TOURN-FORMATS), `payout` of the pool
   * its seats bring (a satellite's seats follow its own pool, as the tournament pays them).
   */
  private shownPrizes(t: Tournament): number[] {
    const s = t.spec;
    if (s.format !== 'sit-and-go' || t.state !== 'registering' || s.satellite) return t.entries === 0 ? [] : t.prizes();
    const { pool } = prizePool({ entries: s.maxEntrants, buyIn: s.buyIn, bounty: s.bounty, guarantee: s.guarantee });
    return payout(pool, s.maxEntrants, s.structure.payouts);
  }

  /**
   * The account's finished tournaments of the last 366 days (as `history`), newest first, a page at a
   * time; none without a store (nothing is kept).
   */
  results(accountId: number, cursor: string | null, limit: number): ResultsPage {
    return this.done.page(accountId, cursor, limit, this.deps.timers.now() - HISTORY_DAYS * 86_400_000);
  }

  list(): TournamentSummary[] {
    return this.all().map((t) => this.summary(t));
  }

  details(t: Tournament): TournamentDetails {
    const elapsed = t.elapsed();
    const c = elapsed === null ? null : clockAt(t.spec.structure, elapsed);
    return {
      summary: this.summary(t),
      structure: { ...t.spec.structure, levels: [...t.spec.structure.levels] },
      prizes: this.shownPrizes(t),
      level: c?.level ?? null,
      onBreak: c?.onBreak ?? false,
      entrants: t.all().map((e) => ({
        name: e.player.name,
        practice: e.player.practice,
        stack: e.out || e.deciding ? 0 : e.table ? (e.table.players().find((p) => p.accountId === e.player.accountId)?.stack ?? e.stack) : e.stack,
        place: e.place,
        prize: e.prize,
        tableId: e.table?.tableId ?? null,
      })),
      tables: t.liveTables().map((x) => ({ tableId: x.tableId, players: x.seatsTaken })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // What players are told

  /**
   * Where the tournament stands for each of `accountIds`, one reading of the field
   * for all of them: the clock, the field, and each one's stack and rank. A rank is read from the
   * tournament's order of stacks, kept in step as stacks change (O(log n) each,
   * not a count of the field per message, O(n) for a field of 10,000).
   */
  standings(t: Tournament, accountIds: readonly number[]): Map<number, TournamentStanding> {
    const running = t.state === 'running';
    const elapsed = t.elapsed();
    const c = running && elapsed !== null ? clockAt(t.spec.structure, elapsed) : null;
    const base: Omit<TournamentStanding, 'you'> = {
      state: t.state,
      level: c?.level ?? null,
      onBreak: c?.onBreak ?? false,
      // In the wall's milliseconds: the countdown the player sees (a test's faster clock included).
      nextChangeInMs: c?.msToNext == null ? null : Math.ceil(c.msToNext / t.clockRate),
      handForHand: running && t.inHandForHand,
      entries: t.entryTotal,
      remaining: t.remaining,
      // R-CONSERVE: the players in hold exactly the chips given out, less those removed with excluded
      // players (T 13-1) (counted, not summed: O(1)).
      chips: t.chipsIssued() - t.chipsRemoved(),
      pool: t.pool(),
      paid: this.paidPlaces(t),
    };
    // Who gets a `you`: in, or busted with a rebuy still open to them (T 5-2: they may come back).
    const mine: { id: number; e: EntrantView; stack: number; rebuy: boolean; addOn: boolean }[] = [];
    const out = new Map<number, TournamentStanding>();
    for (const id of accountIds) {
      const e = t.entrant(id);
      // An excluded player is out for good (R-EXCLUDE, R-BANNED): no rebuy offered.
      if (!e || e.place !== null || e.excluded || (t.state !== 'running' && t.state !== 'registering')) {
        out.set(id, { ...base, you: null });
        continue;
      }
      const stack = e.out || e.deciding ? 0 : e.stack + e.pendingChips;
      // What the machine would accept now (its clock, the player's purchases, T 5-2 to 5-5).
      const may = running ? t.may(id) : null;
      const rebuy = may?.rebuy ?? false;
      if ((e.out || e.deciding) && !rebuy) {
        out.set(id, { ...base, you: null });
        continue;
      }
      mine.push({ id, e, stack, rebuy, addOn: may?.addOn ?? false });
    }
    if (mine.length === 0) return out;
    for (const x of mine) {
      out.set(x.id, {
        ...base,
        you: {
          stack: x.stack,
          // 1 + the players in with more chips: equal stacks share a rank (the order of stacks, O(log n)).
          rank: 1 + t.playersAbove(x.stack),
          rebuy: x.rebuy,
          addOn: x.addOn,
          bounties: x.e.won ?? 0,
        },
      });
    }
    return out;
  }

  /** Places paid (the prize list's length), kept while the field and pool are what they were. */
  private paidPlaces(t: Tournament): number {
    const key = `${t.entries}:${t.pool()}:${t.fieldFinal}`;
    const known = this.paidCache.get(t);
    if (known?.key === key) return known.paid;
    // No entrant (the last one unregistered or excluded): no place paid; a sit & go, its full field's.
    const paid = this.shownPrizes(t).length;
    this.paidCache.set(t, { key, paid });
    return paid;
  }

  /** `tournament.state` with the standing of each of `accountIds` (people only), to their connections. */
  tell(t: Tournament, accountIds: readonly number[]): void {
    const w = this.wire;
    if (!w || accountIds.length === 0) return;
    for (const [id, standing] of this.standings(t, accountIds)) w.deliver(id, { type: 'tournament.state', tournamentId: t.spec.id, standing });
  }

  /**
   * A person's connection (a login, a resume): their standing in each tournament they are in or
   * registered to, at once (the messages sent while they were away are not replayed).
   */
  tellAccount(accountId: number): void {
    for (const t of this.tournaments.values()) {
      if (t.state !== 'registering' && t.state !== 'running') continue;
      const e = t.entrant(accountId);
      if (e && e.place === null && !e.player.practice) this.tell(t, [accountId]);
    }
  }

  /** Every person registered (in or out): told on each change of state, of the clock, or of the field while registering. */
  private tellAll(t: Tournament): void {
    const people: number[] = [];
    for (const e of t.all()) if (!e.player.practice) people.push(e.player.accountId);
    this.tell(t, people);
  }

  /**
   * The field changed while registering (a registration, an unregistration): its people are told,
   * at most once a second (FIELD_NOTICE_MS), however many register meanwhile (a practice fill).
   */
  private fieldChanged(t: Tournament): void {
    if (t.state !== 'registering' || this.fieldTimers.has(t)) return;
    this.fieldTimers.set(
      t,
      this.deps.timers.set(() => {
        this.fieldTimers.delete(t);
        if (t.state === 'registering') this.tellAll(t);
      }, FIELD_NOTICE_MS),
    );
  }

  private notice(t: Tournament, n: TournamentNotice, templateId?: string): void {
    const w = this.wire;
    switch (n.type) {
      case 'seated': {
        // Practice players have no connection: nothing is built for them (a 10,000-player field moves many).
        if (t.entrant(n.accountId)?.player.practice !== false) return;
        w?.deliver(n.accountId, { type: 'tournament.seat', tournamentId: n.tournamentId, tableId: n.tableId, seat: n.seat, moved: n.moved, why: n.why });
        const table = t.liveTables().find((x) => x.tableId === n.tableId);
        if (table && w) w.follow(n.accountId, table);
        // At the start, everyone's standing follows with `state: running` (one pass for the whole field).
        if (n.why !== 'start') this.tell(t, [n.accountId]);
        return;
      }
      case 'finished':
        w?.deliver(n.accountId, { type: 'tournament.finished', tournamentId: n.tournamentId, place: n.place, tied: n.tied, prize: n.prize, bounties: n.bounties });
        return;
      case 'hand':
        this.tell(t, n.accountIds);
        return;
      case 'removed':
        // Stood up (`table.left` from the table): the standing says they are no longer in.
        if (t.entrant(n.accountId)?.player.practice === false) this.tell(t, [n.accountId]);
        return;
      case 'state':
      case 'clock': {
        if (n.type === 'state' && n.state === 'running' && templateId) this.openNext(templateId);
        if (n.type === 'state' && (n.state === 'running' || n.state === 'cancelled')) this.openRepeat(t.spec);
        if (n.type === 'state' && n.state !== 'registering') {
          for (const timers of [this.fillTimers, this.fieldTimers]) {
            const timer = timers.get(t);
            if (timer) this.deps.timers.clear(timer);
            timers.delete(t);
          }
        }
        this.tellAll(t);
        return;
      }
    }
  }

  /**
   * The operator stops: every tournament stops where it is, saved (a hand in play is void, its chips
   * back on the stacks); the next start resumes them (registrations kept, running ones reseated).
   */
  close(): void {
    for (const timer of [...this.fillTimers.values(), ...this.fieldTimers.values()]) this.deps.timers.clear(timer);
    this.fillTimers.clear();
    this.fieldTimers.clear();
    for (const t of this.tournaments.values()) {
      try {
        t.close();
      } catch (e) {
        this.deps.error(e);
      }
    }
  }
}
