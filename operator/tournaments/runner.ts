/**
 * The tournament runner (CONVENTIONS "Pure core, effects at the edge"): each event goes through the
 * pure machine (shared/rules/tournament/machine); its effects on money and the trace, and the state
 * it leaves, are one SQLite transaction (the wallet's ledger rows, the trace outbox's records, the
 * saved state); then what acts outside the database (tables, timers, players' connections) is told.
 *
 * Crash safety follows: a state is saved only with the money and records of the event that made it,
 * so a runner made again from the store (`resume`) is exactly where the last committed event left it,
 * and the ledger's idempotency keys make no movement twice.
 */
import { centsText } from '../../shared/rules/money';
import { clockAt } from '../../shared/rules/tournament/structure';
import { apply, init, type Applied, type Effect, type MachineEvent, type MachineOptions, type MachineSpec, type MachineState, type Refusal } from '../../shared/rules/tournament/machine';
import { moneyResult, playerRecord } from '../tables/cash';
import type { MoneyResult, TablePlayer } from '../tables/types';
import type { Db } from '../../shared/node/sqlite';
import type { TraceOutbox } from '../trace/outbox';
import type { Movement } from '../trace/records';
import type { Wallet } from '../wallet';
import type { MachineStore } from './machine-store';
import { formatCode } from './spec';

export interface RunnerDeps {
  db: Db;
  wallet: Wallet;
  outbox: TraceOutbox;
  store: MachineStore;
  clock: () => number;
  /**
   * The tournament clock's speed against the wall (tests run it faster); 1 when absent. A record of an
   * earlier event (a bust placed later) is dated back by its distance on the tournament clock.
   */
  clockRate?: number;
  /**
   * The tournament clock now (the floor driver's: the machine's last tick plus the time since), saved
   * with each event so that a resume goes on from the last event, not from the last change of level.
   */
  elapsedNow?: () => number | null;
  /** After each event's commit: the effects that act outside the database (seats, deals, notices). */
  act?: (effects: readonly Effect[], state: MachineState, changed: Applied['changed']) => void;
}

/** A refusal of the wallet (funds, limits, exclusion) undoes the whole event. */
class MoneyRefused extends Error {
  constructor(readonly refusal: MoneyResult & { ok: false }) {
    super(refusal.message);
  }
}

export type RunnerRefusal = Refusal | (MoneyResult & { ok: false });

export class TournamentRunner {
  private current: MachineState;
  private count: number;
  /** What events applied but not saved changed (`handStarted`s): written with the next event saved. */
  private unsaved: Applied['changed'] | null = null;
  readonly fundId: string;

  private constructor(
    state: MachineState,
    events: number,
    private readonly deps: RunnerDeps,
  ) {
    this.current = state;
    this.count = events;
    this.fundId = `tournament:${state.spec.id}`;
  }

  /** A new tournament: its fund opened and its first state saved, in one transaction. */
  static create(spec: MachineSpec, seed: number, deps: RunnerDeps, options?: MachineOptions): TournamentRunner {
    const r = new TournamentRunner(init(spec, seed, options), 0, deps);
    deps.db
      .transaction(() => {
        const opened = deps.wallet.openTable(r.fundId, spec.money);
        if (!opened.ok) throw new Error(`${r.fundId}: ${opened.code}: ${opened.message}`);
        deps.store.save(r.current, 0, deps.clock());
      })
      .immediate();
    return r;
  }

  /** The tournament as its last committed event left it (a start after a crash). */
  static resume(id: string, deps: RunnerDeps): TournamentRunner | null {
    const saved = deps.store.load(id);
    return saved ? new TournamentRunner(saved.state, saved.events, deps) : null;
  }

  get state(): MachineState {
    return this.current;
  }

  /** Events applied so far (saved with the state). */
  get events(): number {
    return this.count;
  }

  /**
   * One event: the machine decides; its money, records and the next state commit together, or
   * nothing does (a refusal of the machine, or of the wallet). Then the rest of the effects act.
   */
  dispatch(event: MachineEvent): Applied | RunnerRefusal {
    const r = apply(this.current, event);
    if (!r.ok) return r;
    const { db, store, outbox, clock } = this.deps;
    if (event.type === 'handStarted' && r.effects.every((e) => e.kind === 'deal')) {
      // A hand started moves nothing durable: no money, no record, no seat, no draw. Lost in a crash,
      // the resumed tournament has that table between hands, where a hand never recorded leaves it (its
      // POJEU commits with handEnded); what it changed is written with the next event saved.
      this.unsaved = merge(this.unsaved, r.changed);
      this.current = r.state;
      this.count++;
      this.deps.act?.(r.effects, r.state, r.changed);
      return r;
    }
    const changed = merge(this.unsaved, r.changed);
    try {
      const now = clock();
      // A money effect of an earlier moment (`at` on the tournament clock: a bust placed when late
      // registration closes) is dated at that moment (DateEvt, A 1.3.6.b), counted back from now.
      const dated = (at: number | undefined): number | undefined => (at === undefined ? undefined : now - Math.max(0, r.state.elapsed - at) / (this.deps.clockRate ?? 1));
      db.transaction(() => {
        for (const e of r.effects) this.book(e, dated(e.kind === 'money' ? e.at : undefined));
        store.save(this.clocked(r.state), this.count + 1, clock(), changed);
      }).immediate();
    } catch (x) {
      if (x instanceof MoneyRefused) return x.refusal;
      throw x;
    }
    this.unsaved = null;
    this.current = r.state;
    this.count++;
    // Inside a caller's transaction (a table's hand record with its handEnded), the records move to
    // the vault after that one commits: the caller flushes.
    if (!db.inTransaction) outbox.flushSoon();
    this.deps.act?.(r.effects, r.state, r.changed);
    return r;
  }

  /**
   * The state as saved: its clock advanced to now (never past the next change of level or break,
   * which only a tick applies), so a crash loses at most the time since the last event.
   */
  private clocked(state: MachineState): MachineState {
    const now = state.phase === 'running' ? this.deps.elapsedNow?.() : null;
    if (now === null || now === undefined || now <= state.elapsed) return state;
    const next = clockAt(state.spec.structure, state.elapsed).msToNext;
    return { ...state, elapsed: next === null ? now : Math.min(now, state.elapsed + next) };
  }

  /** The effects on the database: money with its record, fees, the overlay. */
  private book(e: Effect, eventAt: number | undefined): void {
    const w = this.deps.wallet;
    const spec = this.current.spec;
    switch (e.kind) {
      case 'money': {
        const player: TablePlayer = { accountId: e.who.accountId, name: e.who.name, practice: e.who.practice, ip: e.who.ip, sessionId: e.who.sessionId };
        let movement: Movement;
        if (e.amount === 0) {
          const b = w.balance(e.who.accountId, spec.money);
          movement = { avant: b, mouvement: 0, apres: b };
        } else {
          const m = moneyResult(e.way === 'in' ? w.buyIn(e.who.accountId, this.fundId, e.amount, { idempotencyKey: e.key }) : w.cashOut(e.who.accountId, this.fundId, e.amount, { idempotencyKey: e.key }));
          if (!m.ok) {
            if (e.way === 'in') throw new MoneyRefused(m);
            throw new Error(`${spec.id}: ${e.key} refused: ${m.code} ${m.message}`);
          }
          movement = m.movement;
        }
        const base = playerRecord(player, e.inscription, spec.id, spec.money, movement, { supervision: e.supervision });
        const description = `${e.what ? `${e.what}: ` : ''}${describe(spec)}`;
        switch (e.record) {
          case 'POINSCRIT':
            return this.deps.outbox.put({ kind: 'POINSCRIT', ...base, description, format: formatCode(spec) }, eventAt);
          case 'POACHAT':
            return this.deps.outbox.put({ kind: 'POACHAT', ...base, description }, eventAt);
          case 'POGAIN':
            return this.deps.outbox.put({ kind: 'POGAIN', ...base, description }, eventAt);
          case 'POANNUL':
            return this.deps.outbox.put({ kind: 'POANNUL', ...base, motif: e.motif ?? 'Annulation' }, eventAt);
          case 'POBILAN':
            return this.deps.outbox.put({ kind: 'POBILAN', ...base }, eventAt);
        }
        return;
      }
      case 'fee': {
        const r = w.collectRake(this.fundId, e.amount, { idempotencyKey: e.key, handId: e.key });
        if (!r.ok) throw new Error(`${spec.id}: fees refused: ${r.code} ${r.message}`);
        return;
      }
      case 'overlay': {
        const r = w.fundOverlay(this.fundId, e.amount, { idempotencyKey: e.key });
        if (!r.ok) throw new Error(`${spec.id}: the overlay of ${e.amount} refused: ${r.code} ${r.message}`);
        return;
      }
      default:
        return;
    }
  }
}

/** The rows two events changed, for one save. */
function merge(a: Applied['changed'] | null, b: Applied['changed']): Applied['changed'] {
  if (a === null) return b;
  const union = (x: readonly number[], y: readonly number[]) => (x.length === 0 ? y : y.length === 0 ? x : [...new Set([...x, ...y])].sort((p, q) => p - q));
  const busted = a.busted === null ? b.busted : b.busted === null ? a.busted : Math.min(a.busted, b.busted);
  return { entrants: union(a.entrants, b.entrants), tables: union(a.tables, b.tables), busted, prizes: a.prizes || b.prizes };
}

/** The records' description of the tournament (as the players read it before registering). */
function describe(spec: MachineSpec): string {
  const unit = spec.money === 'real' ? (n: number) => `${centsText(n)} EUR` : (n: number) => `${n} jetons fictifs`;
  return `${spec.name}: tournoi ${spec.variant}, droit d'entrée ${unit(spec.buyIn)} + frais ${unit(spec.fee)}`;
}
