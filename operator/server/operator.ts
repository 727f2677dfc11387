/**
 * The operator, assembled: in its data folder the operator database (accounts, wallets, ledger;
 * schema.ts), the trace vault (trace.sqlite), the players' hand histories (history.sqlite) and the TLS
 * identity (tls.ts); the lobby's tables from the configuration; the WSS server on 127.0.0.1.
 *
 *   const op = await startOperator({ dataDir, port: 0 });   // op.url, op.pin
 *   …
 *   await op.close();   // hands in progress cancelled, every player cashed out (R-CASH), files closed
 *
 * An operator that stopped without `close()` (a crash) left chips at its tables: on start, before any
 * table opens or any client is served, every stack still held goes back to its owner's wallet with its
 * POBILAN; a hand that was in play is void, written to the log (R-CASH; tables/recovery.ts, docs/trace.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockFolder } from '../../shared/node/folder-lock';
import { Accounts, type AccountsOptions } from '../accounts';
import { Cashier } from '../cashier/cashier';
import { TestPaymentProvider, type PaymentProvider } from '../cashier/provider';
import type { ConfiguredTable, OperatorConfig } from '../config/config';
import type { Db } from '../../shared/node/sqlite';
import { Lobby } from '../lobby/lobby';
import { openOperatorDatabase } from '../schema';
import { PracticeHost } from '../practice/host';
import type { PracticeOptions } from '../practice/strategy';
import { BanList } from '../protection/bans';
import { watchBanFile } from '../protection/ban-watch';
import { Protection } from '../protection/service';
import { PlaytimeWatch } from '../protection/watch';
import { playConditions } from '../tables/conditions';
import { HandHistoryStore } from '../history/history';
import { TableManager, type TableManagerDeps } from '../tables/manager';
import { recoverTables, type RecoveryReport, type RecoveryStep } from '../tables/recovery';
import { SeatLedger } from '../tables/seats';
import { DecisionTimes } from '../fairplay/timings';
import { realTimers, type Timers } from '../tables/timers';
import { loadOrCreateTlsIdentity } from '../tls';
import { TournamentHub } from '../tournaments/hub';
import type { TournamentSpec } from '../tournaments/spec';
import { TraceOutbox } from '../trace/outbox';
import { PUBLIC_KEY_FILE, TraceSigner } from '../trace/seal';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { applyBanFile } from './closure';
import { type ServerContext } from './context';
import { KeptWatches } from './watches';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './gate';
import { DEFAULT_RATE_LIMIT, DEFAULT_SIGNUP_LIMIT, KeyedBuckets, type RateLimit, type SignupLimit } from './ratelimit';
import { startWireServer } from './server';

export interface OperatorOptions {
  dataDir: string;
  /** The lobby and the operator's trace identity (config/config.ts). */
  lobby: { config: OperatorConfig; tables: ConfiguredTable[] };
  /** 0 (default): a free port. */
  port?: number;
  /** Only loopback by default. */
  host?: string;
  /** TLS certificate and key files; else generated in the data folder on first run. */
  certFile?: string;
  keyFile?: string;
  /** Table time (tests inject ManualTimers). */
  timers?: Timers;
  table?: TableManagerDeps['table'];
  practiceNeedsPeople?: boolean;
  practice?: PracticeOptions;
  accounts?: AccountsOptions;
  minClientVersion?: string;
  heartbeatMs?: number;
  rateLimit?: RateLimit;
  /** Bounds on open connections and the hello deadline (gate.ts). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Account creation per address and overall (ratelimit.ts). */
  signupLimit?: SignupLimit;
  trustProxy?: boolean;
  welcomePlayChips?: number;
  /** `full` (default): every money movement and record durable on commit; `normal` for throw-away data. */
  durability?: 'full' | 'normal';
  log?: (line: string) => void;
  /** Names this process in another process's refusal of the data folder (default `the operator`). */
  owner?: string;
  /** How often the vault's head goes to the log (default an hour). */
  headLogMs?: number;
  /** Told after each durable step of crash recovery (tests kill the process there). */
  recoveryStep?: (step: RecoveryStep) => void;
  /** The payment provider (R-CASHIER); default the network-free test provider (cashier/provider.ts). */
  paymentProvider?: PaymentProvider;
  /** With the default provider: how long after it was asked the `late` test card is confirmed (default 60 s). */
  testCardLateMs?: number;
  /** How long the provider has to answer a payment (default 30 s). */
  paymentTimeoutMs?: number;
  /** How often pending payments are asked about again (default 10 s). */
  reconcileMs?: number;
  /** How often the ban file is looked at besides watching it (default 5 s; protection/ban-watch.ts). */
  banCheckMs?: number;
  /**
   * Tournaments offered: sit & go templates and scheduled tournaments; `practiceFillMs`:
   * play-money sit & go's fill with practice players this long after a person registers (null: never);
   * `clockRate`: tests only, the tournaments' clock that many times faster (TournamentDeps.clockRate).
   */
  tournaments?: { specs: TournamentSpec[]; practiceFillMs?: number | null; practiceField?: number; clockRate?: number };
}

export interface RunningOperator {
  url: string;
  port: number;
  pin: string;
  db: Db;
  accounts: Accounts;
  wallet: Wallet;
  cashier: Cashier;
  protection: Protection;
  /** R-TIMELIMIT: what the tables tell of each player's play (protection/watch.ts). */
  playtime: PlaytimeWatch<ReturnType<Timers['set']>>;
  vault: TraceVault;
  /** Records committed with their money, on their way to the vault. */
  outbox: TraceOutbox;
  history: HandHistoryStore;
  manager: TableManager;
  tournaments: TournamentHub;
  lobby: Lobby;
  context: ServerContext;
  /** What the start returned to wallets from tables left by an operator that did not close (a crash). */
  recovered: RecoveryReport;
  close(): Promise<void>;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export async function startOperator(o: OperatorOptions): Promise<RunningOperator> {
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const synchronous = o.durability === 'normal' ? 'NORMAL' : 'FULL';
  // One operator per data folder: a second one would run crash recovery on the live
  // tables of the first (the same chips at two tables). Taken before anything is read or written here;
  // FolderInUseError's one line names the folder and the process that holds it.
  const lock = lockFolder(o.dataDir, o.owner ?? 'the operator');
  let db: Db;
  let tls: Awaited<ReturnType<typeof loadOrCreateTlsIdentity>>;
  try {
    tls = await loadOrCreateTlsIdentity({ dataDir: o.dataDir, certFile: o.certFile, keyFile: o.keyFile });
    db = openOperatorDatabase(join(o.dataDir, 'operator.sqlite'), { synchronous });
  } catch (e) {
    lock.release();
    throw e;
  }
  const { idOper, idCoffre } = o.lobby.config.operator;
  let vault: TraceVault;
  let history: HandHistoryStore;
  try {
    vault = TraceVault.open({ path: join(o.dataDir, 'trace.sqlite'), idOper, idCoffre, synchronous });
  } catch (e) {
    db.close();
    lock.release();
    throw e;
  }
  try {
    history = new HandHistoryStore(join(o.dataDir, 'history.sqlite'), { synchronous });
  } catch (e) {
    vault.close();
    db.close();
    lock.release();
    throw e;
  }
  const timers = o.timers ?? realTimers();
  // R-BANNED: the operator's copy of the national ban file, in the data folder (protection/bans.ts).
  const bans = new BanList(o.dataDir, log);
  const accounts = new Accounts(db, { bans, ...o.accounts });
  const protection = new Protection(db, { clock: () => timers.now() });
  // R-LIMITS, R-TIMELIMIT, R-EXCLUDE: every real-money stake is checked where the wallet moves it, on
  // the operator's clock (the one the limits count on; accelerated in tests).
  const wallet = new Wallet(db, { clock: () => timers.now(), stakeGuard: (id, amount, at) => protection.stakeCheck(id, amount, at) });
  const cashier = new Cashier(db, wallet, o.paymentProvider ?? new TestPaymentProvider({ clock: () => timers.now(), lateMs: o.testCardLateMs }), {
    clock: () => timers.now(),
    timeoutMs: o.paymentTimeoutMs,
    depositGuard: (id, amount, at) => protection.depositCheck(id, amount, at),
    log,
  });
  const seats = new SeatLedger(db);
  const outbox = new TraceOutbox(db, vault, log);
  let recovered: RecoveryReport;
  try {
    // Records committed with their money but not yet in the vault go in first (the
    // vault may make this wait up to its 5 s busy timeout), so recovery reads a complete vault.
    outbox.flush();
    // R-CASH: money left at tables by a crash goes back before anything else happens.
    recovered = recoverTables({ wallet, seats, vault, step: o.recoveryStep });
    // R-TIMELIMIT: the players recovery stood up stopped playing when they were last seen at a table.
    protection.closeOpenStretches();
    // R-CASHIER: payments left pending (a late confirmation, a stop mid-payment) are settled, once.
    const settled = await cashier.reconcile();
    if (settled.confirmed + settled.failed > 0) log(`payments settled at start: ${settled.confirmed} confirmed, ${settled.failed} failed, ${settled.pending} still pending`);
    // From now on a busy vault never stalls the event loop: its records wait in the outbox.
    vault.setBusyTimeout(0);
  } catch (e) {
    history.close();
    vault.close();
    db.close();
    lock.release();
    throw e;
  }
  if (recovered.seats > 0) {
    log(
      `recovered ${recovered.seats} seats left at tables: ${recovered.returned.real} cents and ${recovered.returned.play} play chips back to wallets` +
        (recovered.cancelledHands.length ? `; hands voided (stakes back on the caves; no POJEU, no POANNUL): ${recovered.cancelledHands.join(', ')}` : ''),
    );
  }
  for (const u of recovered.unaccounted) log(`table ${u.tableId} still holds ${u.held} that no seat accounts for: review the ledger`);
  // R-RULES: the conditions of play written from the settings these tables run with.
  const lobby = new Lobby(playConditions(o.table ?? {}));
  // R-TIMELIMIT (art. 16-1): the tables report each player's play; warnings go to the player's
  // connection, when they have one (`context` exists by the time a hand is dealt).
  // At the limit, a player who is not in a hand leaves the real-money tables now; one in a hand
  // finishes it first (the tables ask `mayPlayOn` between hands).
  const playtime = new PlaytimeWatch(protection, timers, (accountId, notice) => {
    context.byAccount.get(accountId)?.send(notice);
    if (notice.warning === 'reached') manager.standUp(accountId);
  });
  const manager = new TableManager({
    wallet,
    seats,
    decisionTimes: new DecisionTimes(db),
    vault,
    outbox,
    history,
    lobby,
    timers,
    idOper,
    table: o.table,
    practiceNeedsPeople: o.practiceNeedsPeople,
    practice: new PracticeHost({ accounts, wallet, timers, brain: o.practice }),
    error: (e) => log(`table error: ${(e as Error)?.stack ?? String(e)}`),
    log,
    playtime,
  });
  for (const t of o.lobby.tables) manager.add(t.spec, t.practicePlayers);
  const tournaments = new TournamentHub({
    accounts,
    wallet,
    db,
    outbox,
    timers,
    idOper,
    table: o.table,
    practice: o.practice,
    // null says never (a sit & go that waits for its people): `??` would make it 3 s.
    practiceFillMs: o.tournaments?.practiceFillMs === undefined ? 3000 : o.tournaments.practiceFillMs,
    practiceField: o.tournaments?.practiceField,
    clockRate: o.tournaments?.clockRate,
    playtime,
    // R-HISTORY: tournament hands too, with their tournament and level.
    history,
    error: (e) => log(`tournament error: ${(e as Error)?.stack ?? String(e)}`),
    log,
  });
  // Tournaments left running by a crash resume from their last completed hand.
  const resumed = tournaments.restore();
  if (resumed.length > 0) log(`resumed ${resumed.length} tournaments: ${resumed.map((t) => `${t.spec.id} (${t.state}, ${t.remaining} players in)`).join(', ')}; hands in play were voided (every bet back)`);
  for (const spec of o.tournaments?.specs ?? []) tournaments.add(spec);

  const version = packageVersion();
  const context: ServerContext = {
    accounts,
    wallet,
    cashier,
    protection,
    manager,
    tournaments,
    lobby,
    history,
    minClientVersion: o.minClientVersion ?? '0.1.0',
    serverVersion: version,
    heartbeatMs: o.heartbeatMs ?? 15_000,
    rateLimit: o.rateLimit ?? DEFAULT_RATE_LIMIT,
    signup: {
      perAddress: new KeyedBuckets((o.signupLimit ?? DEFAULT_SIGNUP_LIMIT).perAddress, () => timers.now()),
      global: new KeyedBuckets((o.signupLimit ?? DEFAULT_SIGNUP_LIMIT).global, () => timers.now()),
    },
    welcomePlayChips: o.welcomePlayChips ?? 100_000,
    now: () => timers.now(),
    byAccount: new Map(),
    keptWatches: new KeptWatches(),
    connections: new Set(),
    closing: false,
    log,
  };
  // What the tournaments tell a player reaches their connection, which follows their table moves.
  tournaments.wire = {
    deliver: (accountId, message) => context.byAccount.get(accountId)?.send(message),
    follow: (accountId, table) => context.byAccount.get(accountId)?.follow(table),
  };
  // R-BANNED: a copy put in force while the operator was stopped applies before anyone is served; a
  // new one while it runs applies at once to every account and session (closure.ts, ban-watch.ts).
  // The copy last applied: a login may have read a new file first (BanList reads on change), so what
  // counts is whether this copy was applied, not whether the file was just read.
  let applied: ReadonlySet<string> | null = null;
  const applyBans = (): void => {
    const current = bans.current();
    if (current === applied) return;
    applied = current;
    applyBanFile(context, current);
  };
  applyBans();
  const banWatch = watchBanFile(o.dataDir, applyBans, { pollMs: o.banCheckMs, log });
  let wire: Awaited<ReturnType<typeof startWireServer>>;
  try {
    wire = await startWireServer(context, tls, { host: o.host ?? '127.0.0.1', port: o.port ?? 0, trustProxy: o.trustProxy ?? false, limits: { ...DEFAULT_CONNECTION_LIMITS, ...o.connectionLimits } });
  } catch (e) {
    // A port in use: every stack is still in the ledger's table funds; the tables close (R-CASH) and the folder is freed.
    banWatch.close();
    tournaments.close();
    manager.close();
    history.close();
    vault.close();
    db.close();
    lock.release();
    throw e;
  }
  const v = vault;
  const h = history;
  // The head (hash, count, time) published in the log every hour and on shutdown, so
  // that a chain rewritten whole later is caught against it (`trace verify --head`; docs/trace.md).
  // R-TRACE: the head is also signed with the operator's key and kept in the folder's heads file,
  // which `trace verify` checks the vault against (records cut off the end; trace/seal.ts).
  const signer = TraceSigner.loadOrCreate(o.dataDir);
  log(`trace key: ${signer.fingerprint} (${join(o.dataDir, PUBLIC_KEY_FILE)})`);
  const logHead = () => {
    const head = v.head();
    log(`trace head: hash ${head.hash}, ${head.idEvt} records, at ${new Date(timers.now()).toISOString()}`);
    log(`trace signed head: ${signer.appendHead(o.dataDir, v, head, new Date(timers.now()))}`);
  };
  let headTimer: ReturnType<Timers['set']> | null = null;
  const everyHour = () => {
    headTimer = timers.set(() => {
      logHead();
      everyHour();
    }, o.headLogMs ?? 3_600_000);
  };
  logHead();
  everyHour();
  // R-CASHIER: a confirmation that comes late lands at the next round of questions.
  let reconcileTimer: ReturnType<Timers['set']> | null = null;
  let reconciling: Promise<unknown> = Promise.resolve();
  const reconcileLoop = () => {
    reconcileTimer = timers.set(() => {
      reconciling = cashier
        .reconcile()
        .catch((e: unknown) => log(`cashier: ${(e as Error).message}`))
        .finally(() => {
          if (!context.closing) reconcileLoop();
        });
    }, o.reconcileMs ?? 10_000);
  };
  reconcileLoop();
  let closed: Promise<void> | null = null;
  return {
    url: `wss://127.0.0.1:${wire.port}`,
    port: wire.port,
    pin: tls.pin,
    db,
    accounts,
    wallet,
    cashier,
    protection,
    playtime,
    vault: v,
    outbox,
    history: h,
    manager,
    tournaments,
    lobby,
    context,
    recovered,
    close() {
      closed ??= (async () => {
        context.closing = true;
        banWatch.close();
        timers.clear(headTimer);
        timers.clear(reconcileTimer);
        playtime.close();
        cashier.close();
        await reconciling;
        await wire.close();
        tournaments.close();
        manager.close();
        // The last records (the cancellations of the hands in play, the cash-outs) into the vault,
        // waiting for it if it is busy; what still cannot go in stays in the outbox for the next start.
        outbox.close();
        v.setBusyTimeout(5000);
        try {
          outbox.flush();
        } catch (e) {
          log(`trace outbox: ${outbox.pending()} records left for the next start: ${(e as Error).message}`);
        }
        logHead();
        h.close();
        v.close();
        db.close();
        lock.release();
      })();
      return closed;
    },
  };
}
