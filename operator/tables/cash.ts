/**
 * The hooks of a cash-game table (R-CASH): money through the wallet's ledger (buy-in, top-up,
 * cash-out, rake; R-NODEBT, R-RAKE), each movement written in one transaction with the seat it
 * changes (seats.ts), so that chips held at a table are never lost to a crash (recovery.ts); and the
 * trace into the vault: POINSCRIT on joining, POACHAT on a top-up, POJEU per hand, POBILAN on leaving
 * (a voided hand is written to the operator's log, not the trace: docs/trace.md), with the wallet's balance before / movement /
 * after (A 1.3.6.c). Play-money tables write their records flagged `test` (they are not real-money
 * gaming), with amounts in chips (scale 0).
 */
import { formatAmount, hashJoueur, type Movement, type PlayerEventBase } from '../trace/records';
import { TraceOutbox } from '../trace/outbox';
import type { TraceVault } from '../trace/vault';
import { walletMovement, type MoneyKind, type Wallet } from '../wallet';
import { PROTECTION_RULES } from '../protection/rules';
import { describeTable } from '../trace/pojeu';
import type { SeatLedger } from './seats';
import type { CancelReason, HandVoided, MoneyResult, RecordOrigin, TableHooks, TableMoney, TablePlayer, TableSpec, TableTrace } from './types';

/** A wallet movement as a table (or tournament) sees it: the refusals a player may get, with their rule; anything else is the operator's fault. */
export function moneyResult(r: ReturnType<Wallet['buyIn']>): MoneyResult {
  if (r.ok) return { ok: true, movement: walletMovement(r.entry)! };
  switch (r.code) {
    case 'INSUFFICIENT_FUNDS':
      return { ok: false, code: 'INSUFFICIENT_FUNDS', message: r.message, rule: 'R-NODEBT' };
    case 'GUEST_REAL_MONEY':
      return { ok: false, code: 'REAL_MONEY_FORBIDDEN', message: r.message };
    // The wallet's stake guard (operator/protection/service.ts): a buy-in or top-up is a stake. A limit
    // not set yet is the stake or time limit (R-LIMITS names both); the rest as the wire says them.
    case 'LIMIT_NOT_SET':
      return { ok: false, code: r.code, message: r.message, rule: 'R-LIMITS' };
    case 'STAKE_LIMIT':
    case 'TIME_LIMIT_REACHED':
    case 'SELF_EXCLUDED':
    case 'ACCOUNT_CLOSED':
    case 'FUNDS_RESERVED':
      return { ok: false, code: r.code, message: r.message, rule: PROTECTION_RULES[r.code] };
    default:
      return { ok: false, code: 'INTERNAL', message: `${r.code}: ${r.message}` };
  }
}

export function walletMoney(wallet: Wallet, seats: SeatLedger, spec: TableSpec): TableMoney {
  const opened = wallet.openTable(spec.tableId, spec.money);
  if (!opened.ok) throw new Error(`${spec.tableId}: ${opened.code}: ${opened.message}`);
  const tableId = spec.tableId;
  return {
    buyIn: (p, amount, key, seat) =>
      seats.transaction(() => {
        const r = wallet.buyIn(p.accountId, tableId, amount, { idempotencyKey: key });
        if (r.ok) seats.seated(tableId, seat.inscription, seat.seat, p, amount);
        return moneyResult(r);
      }),
    topUp: (p, amount, key) =>
      seats.transaction(() => {
        const r = wallet.topUp(p.accountId, tableId, amount, { idempotencyKey: key });
        if (r.ok && !r.replayed) seats.added(tableId, p.accountId, amount);
        return moneyResult(r);
      }),
    cashOut(p, amount, key) {
      return seats.transaction((): MoneyResult => {
        let result: MoneyResult;
        if (amount === 0) {
          // A player who lost everything still gets a POBILAN, with a zero movement (A 1.3.6.c.3).
          const balance = wallet.balance(p.accountId, spec.money);
          result = { ok: true, movement: { avant: balance, mouvement: 0, apres: balance } };
        } else {
          result = moneyResult(wallet.cashOut(p.accountId, tableId, amount, { idempotencyKey: key }));
        }
        if (result.ok) seats.cashedOut(tableId, p.accountId, amount);
        return result;
      });
    },
    handStarted: (handId, accountIds) => seats.transaction(() => seats.handStarted(tableId, handId, accountIds)),
    settle(handId, rake, stacks) {
      seats.transaction(() => {
        if (rake > 0) {
          const r = wallet.collectRake(tableId, rake, { idempotencyKey: `rake:${handId}`, handId });
          if (!r.ok) throw new Error(`${tableId}: rake of ${handId} refused: ${r.code}: ${r.message}`);
        }
        seats.settled(tableId, stacks);
      });
    },
    handCancelled: () => seats.handCancelled(tableId),
    participationClosed: (inscription) => seats.forget(inscription),
    moved: (inscription, p) => seats.moved(inscription, p),
  };
}

const CANCEL_REASONS: Record<CancelReason, string> = {
  stop: 'the table stopped',
  fault: 'a fault',
  restart: 'the operator restarted after stopping without closing its tables',
};

/**
 * The operator's log line of a voided hand (docs/trace.md): which hand (the Pool its
 * POJEU would have had), why, and for each participant the stake given back and the cave restored.
 * Neither a POJEU (the hand has no outcome) nor a POANNUL (the inscriptions go on, A 1.3.6.c.6).
 */
export function voidedLine(v: HandVoided, scale: 0 | 2): string {
  const who = v.participants.map((p) => `${p.idJoueur} (${p.inscription}): ${p.stake === null ? 'stake' : `stake ${formatAmount(p.stake, scale)}`} back, cave ${formatAmount(p.cave, scale)}`);
  return `hand ${v.pool} voided (${CANCEL_REASONS[v.reason]}): no POJEU, no POANNUL; ${who.join('; ')}`;
}

/** The player fields of a record of a table's player (A 1.3.6.c): a table of `kind` money is `tech`. */
export function playerRecord(p: TablePlayer, inscription: string, tech: string, kind: MoneyKind, movement: Movement, origin: RecordOrigin): PlayerEventBase {
  return {
    idJoueur: String(p.accountId),
    // R-TRACE: the outbox puts the SHA-1 of the person's identity hash here (trace/outbox.ts); this
    // stand-in is what an account without an identity gets.
    hashJoueur: hashJoueur(`sans-identite:${p.accountId}`),
    ipJoueur: p.ip,
    idSession: p.sessionId,
    inscription,
    tech,
    solde: movement,
    scale: kind === 'real' ? 2 : 0,
    ...(kind === 'play' ? { test: true } : {}),
    // A 1.3.6.c: without the player's acknowledgement; the operator's practice players never give one.
    ...(origin.supervision || p.practice ? { supervision: true } : {}),
  };
}

/**
 * The table's records, put in the trace outbox (trace/outbox.ts): called inside the step that moves
 * their money (TableHooks.step), they commit with it and reach the vault right after.
 */
export function outboxTrace(outbox: TraceOutbox, spec: TableSpec): TableTrace {
  const description = `${spec.name}: ${describeTable(spec.rules, spec.money)}`;
  const base = (p: TablePlayer, inscription: string, movement: Movement, origin: RecordOrigin) => playerRecord(p, inscription, spec.tableId, spec.money, movement, origin);
  return {
    joined: (p, inscription, movement, origin) => outbox.put({ kind: 'POINSCRIT', ...base(p, inscription, movement, origin), description, format: 'CG' }),
    purchased: (p, inscription, movement, origin) => outbox.put({ kind: 'POACHAT', ...base(p, inscription, movement, origin), description: `Recave: ${description}` }),
    hand: (data) => outbox.put(data),
    left: (p, inscription, movement, origin) => outbox.put({ kind: 'POBILAN', ...base(p, inscription, movement, origin) }),
  };
}

/** The hooks of a cash table over the wallet and the vault; fixed rules (no blind levels). */
export function cashTableHooks(
  spec: TableSpec,
  deps: {
    wallet: Wallet;
    seats: SeatLedger;
    vault: TraceVault;
    /** The operator's one outbox (its order is the vault's); else one of the table's own over `seats.db`. */
    outbox?: TraceOutbox;
    history?: TableHooks['history'];
    decided?: TableHooks['decided'];
    error: (e: unknown) => void;
    /** The operator's log (a voided hand is written there; docs/trace.md). */
    log?: (line: string) => void;
    changed?: () => void;
    /** Effective playing time (R-TIMELIMIT): counted at real-money tables only (art. 16-1 concerns stakes). */
    playtime?: { handDealt(accountId: number, tableId: string): void; handEnded(accountId: number, tableId: string): boolean; left(accountId: number, tableId: string): void };
  },
): TableHooks {
  const outbox = deps.outbox ?? new TraceOutbox(deps.seats.db, deps.vault);
  const db = deps.seats.db;
  return {
    money: walletMoney(deps.wallet, deps.seats, spec),
    trace: outboxTrace(outbox, spec),
    step: (fn) => {
      const r = deps.seats.transaction(fn);
      // Only once the outermost step has committed: the vault must never hold a record whose money
      // movement could still be undone.
      if (!db.inTransaction) outbox.flushSoon();
      return r;
    },
    rulesForNextHand: () => spec.rules,
    history: deps.history,
    decided: deps.decided,
    changed: deps.changed,
    error: deps.error,
    voided: (v) => deps.log?.(`${spec.tableId}: ${voidedLine(v, spec.money === 'real' ? 2 : 0)}`),
    // A table with an outbox of its own (no operator around it) empties it when it closes; the
    // operator's one outbox is flushed by the operator (server/operator.ts).
    closed: deps.outbox ? undefined : () => void outbox.flush(),
    playtime: playtimeOf(spec, deps.playtime),
  };
}

function playtimeOf(spec: TableSpec, watch: Parameters<typeof cashTableHooks>[1]['playtime']): TableHooks['playtime'] {
  if (!watch || spec.money !== 'real') return undefined;
  const tableId = spec.tableId;
  return {
    dealt: (accountId) => watch.handDealt(accountId, tableId),
    mayPlayOn: (accountId) => watch.handEnded(accountId, tableId),
    left: (accountId) => watch.left(accountId, tableId),
  };
}
