/**
 * The operator database (accounts, sessions, wallets and their ledger): its migrations, in order.
 * The regulatory trace vault lives in its own file (trace/vault.ts), as a separate coffre.
 */
import { openDatabase, type Db, type Migration, type OpenDatabaseOptions } from './db';

/** v1: accounts and sessions. */
function accountsV1(db: Db): void {
  db.exec(`
    CREATE TABLE accounts (
      id            INTEGER PRIMARY KEY,
      username      TEXT NOT NULL,
      -- lower-cased name: names are unique regardless of case ("Alice" and "alice" are one name)
      username_key  TEXT NOT NULL UNIQUE,
      guest         INTEGER NOT NULL CHECK (guest IN (0, 1)),
      -- "scrypt$N$r$p$salt$hash"; NULL exactly for guests, who have no password
      password_hash TEXT,
      created_at    INTEGER NOT NULL,
      CHECK ((guest = 1) = (password_hash IS NULL))
    );
    CREATE TABLE sessions (
      -- SHA-256 of the bearer token: the token itself is never stored
      token_hash  BLOB PRIMARY KEY,
      -- public id of the session (IDSession in the regulatory trace); not a credential
      session_id  TEXT NOT NULL UNIQUE,
      account_id  INTEGER NOT NULL REFERENCES accounts(id),
      ip          TEXT NOT NULL,
      created_at  INTEGER NOT NULL,
      expires_at  INTEGER NOT NULL,
      revoked_at  INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX sessions_by_account ON sessions(account_id);
  `);
}

/**
 * v2: wallets, money at tables, collected rake, and the append-only ledger they are derived from.
 * Every movement is one ledger row; triggers check that the row follows from the current balances and
 * then update them, so the balances cannot drift from the ledger, and CHECKs keep every balance >= 0
 * (R-NODEBT, D art. 8 II 1°).
 */
function walletV2(db: Db): void {
  db.exec(`
    CREATE TABLE wallets (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      kind       TEXT NOT NULL CHECK (kind IN ('real', 'play')),
      balance    INTEGER NOT NULL CHECK (balance >= 0),
      PRIMARY KEY (account_id, kind)
    ) WITHOUT ROWID;
    CREATE TABLE table_funds (
      table_id TEXT PRIMARY KEY,
      kind     TEXT NOT NULL CHECK (kind IN ('real', 'play')),
      held     INTEGER NOT NULL CHECK (held >= 0)
    ) WITHOUT ROWID;
    CREATE TABLE rake_collected (
      kind   TEXT PRIMARY KEY CHECK (kind IN ('real', 'play')),
      amount INTEGER NOT NULL CHECK (amount >= 0)
    ) WITHOUT ROWID;
    CREATE TABLE ledger (
      id              INTEGER PRIMARY KEY,
      account_id      INTEGER REFERENCES accounts(id),
      kind            TEXT NOT NULL CHECK (kind IN ('real', 'play')),
      reason          TEXT NOT NULL CHECK (reason IN ('deposit', 'grant', 'buy-in', 'top-up', 'cash-out', 'rake')),
      amount          INTEGER NOT NULL CHECK (amount > 0),
      -- wallet balance after the movement; for a rake row, the operator's collected rake after it
      balance_after   INTEGER NOT NULL CHECK (balance_after >= 0),
      table_id        TEXT,
      table_after     INTEGER CHECK (table_after >= 0),
      hand_id         TEXT,
      idempotency_key TEXT NOT NULL UNIQUE,
      at              INTEGER NOT NULL,
      CHECK (CASE reason
        WHEN 'deposit' THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'real'
        WHEN 'grant'   THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'play'
        WHEN 'rake'    THEN account_id IS NULL AND table_id IS NOT NULL AND table_after IS NOT NULL
        ELSE                account_id IS NOT NULL AND table_id IS NOT NULL AND table_after IS NOT NULL
      END)
    );
    CREATE INDEX ledger_by_account ON ledger(account_id, kind, id);
    CREATE INDEX ledger_by_table ON ledger(table_id, id);

    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only: rows cannot be updated'); END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only: rows cannot be deleted'); END;

    CREATE TRIGGER ledger_check BEFORE INSERT ON ledger
    BEGIN
      SELECT RAISE(ABORT, 'ledger balance_after does not follow from the wallet balance')
      WHERE NEW.account_id IS NOT NULL AND NEW.balance_after IS NOT
        COALESCE((SELECT balance FROM wallets WHERE account_id = NEW.account_id AND kind = NEW.kind), 0)
        + CASE WHEN NEW.reason IN ('buy-in', 'top-up') THEN -NEW.amount ELSE NEW.amount END;
      SELECT RAISE(ABORT, 'ledger balance_after does not follow from the collected rake')
      WHERE NEW.reason = 'rake' AND NEW.balance_after IS NOT
        COALESCE((SELECT amount FROM rake_collected WHERE kind = NEW.kind), 0) + NEW.amount;
      SELECT RAISE(ABORT, 'ledger movement on a table that is not open')
      WHERE NEW.table_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM table_funds WHERE table_id = NEW.table_id);
      SELECT RAISE(ABORT, 'ledger movement of the wrong kind of money for this table')
      WHERE NEW.table_id IS NOT NULL AND EXISTS (SELECT 1 FROM table_funds WHERE table_id = NEW.table_id AND kind <> NEW.kind);
      SELECT RAISE(ABORT, 'ledger table_after does not follow from the money at the table')
      WHERE NEW.table_id IS NOT NULL AND NEW.table_after IS NOT
        (SELECT held FROM table_funds WHERE table_id = NEW.table_id)
        + CASE WHEN NEW.reason IN ('buy-in', 'top-up') THEN NEW.amount ELSE -NEW.amount END;
    END;

    CREATE TRIGGER ledger_apply_wallet AFTER INSERT ON ledger WHEN NEW.account_id IS NOT NULL
    BEGIN
      INSERT INTO wallets(account_id, kind, balance) VALUES (NEW.account_id, NEW.kind, NEW.balance_after)
      ON CONFLICT(account_id, kind) DO UPDATE SET balance = excluded.balance;
    END;
    CREATE TRIGGER ledger_apply_table AFTER INSERT ON ledger WHEN NEW.table_id IS NOT NULL
    BEGIN
      UPDATE table_funds SET held = NEW.table_after WHERE table_id = NEW.table_id;
    END;
    CREATE TRIGGER ledger_apply_rake AFTER INSERT ON ledger WHEN NEW.reason = 'rake'
    BEGIN
      INSERT INTO rake_collected(kind, amount) VALUES (NEW.kind, NEW.balance_after)
      ON CONFLICT(kind) DO UPDATE SET amount = excluded.amount;
    END;
  `);
}

/**
 * v3: who holds the money at each table (R-CASH: "money is never lost"). One row per inscription
 * (a player's seating at a table): the chips held for them there, as of the last settled hand, so that
 * an operator that stops without closing its tables (a crash, a power cut) returns every stack to its
 * owner on the next start (tables/recovery.ts). Rows change in the same transaction as the ledger
 * movements they mirror (buy-in, top-up, cash-out) and as the rake of each settled hand, so at every
 * commit, for each table: Σ stack of the rows still seated = table_funds.held (SeatLedger.audit).
 */
function tableSeatsV3(db: Db): void {
  db.exec(`
    CREATE TABLE table_seats (
      -- the POINSCRIT's Inscription: unique per seating
      inscription TEXT PRIMARY KEY,
      table_id    TEXT NOT NULL REFERENCES table_funds(table_id),
      account_id  INTEGER NOT NULL REFERENCES accounts(id),
      seat        INTEGER NOT NULL CHECK (seat >= 0),
      -- chips held at the table for this player; while a hand is in play, their start-of-hand value
      stack       INTEGER NOT NULL CHECK (stack >= 0),
      -- the hand (POJEU Pool) in play with these chips; NULL between hands
      hand_id     TEXT,
      -- the stack returned to the wallet (ledger key cash-out:<inscription>) while its POBILAN is not
      -- yet in the vault; NULL while the player is seated
      cashed_out  INTEGER CHECK (cashed_out >= 0),
      -- what the trace records of the player need (IDJoueur, HashJoueur, IPJoueur, IDSession)
      username    TEXT NOT NULL,
      ip          TEXT NOT NULL,
      session_id  TEXT NOT NULL,
      practice    INTEGER NOT NULL CHECK (practice IN (0, 1)),
      updated_at  INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX table_seats_by_table ON table_seats(table_id);
  `);
}

/**
 * v4: decision times (R-NOBOT: "near-constant action times" are a sign of robot play). One row per
 * decision of a person: from the turn announced to the action received, as the operator's clock
 * measures it (network latency included). Operator-side statistics for the fair-play report, not a
 * regulatory record (the trace's POJEU keeps round timestamps to the second only).
 */
function decisionTimesV4(db: Db): void {
  db.exec(`
    CREATE TABLE decision_times (
      id         INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      table_id   TEXT NOT NULL,
      kind       TEXT NOT NULL CHECK (kind IN ('real', 'play')),
      hand_id    TEXT NOT NULL,
      -- the move made: fold, check, call, bet, bringIn, draw, show, muck
      move       TEXT NOT NULL,
      -- when the turn was announced (ms since the epoch) and how long the decision took (ms)
      turn_at    INTEGER NOT NULL,
      ms         INTEGER NOT NULL CHECK (ms >= 0)
    );
    CREATE INDEX decision_times_by_account ON decision_times(account_id, id);
  `);
}

/**
 * v5: the trace's outbox (issue 12 item 5; trace/outbox.ts). A record is put here in the same
 * transaction as the money movement it mirrors (a hand's POJEU with its settlement, a POINSCRIT with
 * its buy-in…), so the trace can never fall behind the money; it moves to the vault (trace.sqlite,
 * its own file) right after, or later when the vault is busy, and on the next start before recovery.
 */
function traceOutboxV5(db: Db): void {
  db.exec(`
    CREATE TABLE trace_outbox (
      id       INTEGER PRIMARY KEY,
      -- the record's data (JSON; dates as {"$date": ms}) and the time of its event (ms since the epoch)
      data     TEXT NOT NULL,
      at       INTEGER NOT NULL,
      -- the record's XML rendered at that time (validated), its IDEvt left to fill (vault.ts prepareRecord)
      xml      TEXT NOT NULL,
      -- the vault's last IDEvt when this record's append was tried: a later IDEvt means it went in
      tried_at_head INTEGER
    );
  `);
}

/**
 * v6: tournaments (issue 16 item 7; tournaments/store.ts). A tournament's state (its spec, where it
 * stands, its clock, its counters and busted order) and each entrant's (chips as of the last settled
 * hand, table and seat, place and prize), written in the transaction that moves their money or settles
 * a hand, so an operator killed mid-tournament resumes it from the last completed hand.
 */
function tournamentsV6(db: Db): void {
  db.exec(`
    CREATE TABLE tournaments (
      id         TEXT PRIMARY KEY,
      -- the TournamentSpec (JSON), as registered players confirmed it
      spec       TEXT NOT NULL,
      state      TEXT NOT NULL CHECK (state IN ('registering', 'running', 'finished', 'cancelled')),
      -- the rest of the tournament's state (JSON): clock elapsed at the last save, counters, busted order
      data       TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE tournament_entrants (
      tournament_id TEXT NOT NULL REFERENCES tournaments(id),
      account_id    INTEGER NOT NULL REFERENCES accounts(id),
      -- the entrant (JSON): inscription, chips, table and seat, out, place, prize, purchases
      data          TEXT NOT NULL,
      PRIMARY KEY (tournament_id, account_id)
    ) WITHOUT ROWID;
  `);
}

/** The operator database's migrations; index i brings version i to i + 1. Append only. */
export const OPERATOR_MIGRATIONS: readonly Migration[] = [accountsV1, walletV2, tableSeatsV3, decisionTimesV4, traceOutboxV5, tournamentsV6];

/** Opens (creating and migrating as needed) the operator database file at `path`. */
export function openOperatorDatabase(path: string, options?: OpenDatabaseOptions): Db {
  return openDatabase(path, OPERATOR_MIGRATIONS, 'operator', options);
}
