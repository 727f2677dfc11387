/**
 * The operator database (accounts, sessions, wallets and their ledger): its migrations, in order.
 * The regulatory trace vault lives in its own file (trace/vault.ts), as a separate coffre.
 */
import { openDatabase, type Db, type Migration, type OpenDatabaseOptions } from '../shared/node/sqlite';

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

/** The ledger's reasons at v2, and those among them that take money out of a wallet. */
const V2_REASONS = ['deposit', 'grant', 'buy-in', 'top-up', 'cash-out', 'rake'] as const;
const V2_DEBITS = ['buy-in', 'top-up'] as const;

/**
 * The ledger table and its indexes, for a list of reasons (v2, rebuilt at v6 with `withdrawal`: SQLite
 * cannot change a CHECK in place). `cases` adds the shape of the new reasons to the row CHECK.
 */
function ledgerTable(reasons: readonly string[], cases: string, columns = ''): string {
  return `
    CREATE TABLE ledger (
      id              INTEGER PRIMARY KEY,
      account_id      INTEGER REFERENCES accounts(id),
      kind            TEXT NOT NULL CHECK (kind IN ('real', 'play')),
      reason          TEXT NOT NULL CHECK (reason IN (${reasons.map((r) => `'${r}'`).join(', ')})),
      amount          INTEGER NOT NULL CHECK (amount > 0),
      -- wallet balance after the movement; for a rake row, the operator's collected rake after it
      balance_after   INTEGER NOT NULL CHECK (balance_after >= 0),
      table_id        TEXT,
      table_after     INTEGER CHECK (table_after >= 0),
      hand_id         TEXT,
      idempotency_key TEXT NOT NULL UNIQUE,
      at              INTEGER NOT NULL,${columns}
      CHECK (CASE reason
        WHEN 'deposit' THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'real'
        WHEN 'grant'   THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'play'
${cases}        WHEN 'rake'    THEN account_id IS NULL AND table_id IS NOT NULL AND table_after IS NOT NULL
        ELSE                account_id IS NOT NULL AND table_id IS NOT NULL AND table_after IS NOT NULL
      END)
    );
    CREATE INDEX ledger_by_account ON ledger(account_id, kind, id);
    CREATE INDEX ledger_by_table ON ledger(table_id, id);

  `;
}

/**
 * The ledger's triggers: append-only, and each row must follow from the balances it changes, which it
 * then updates. `debits` are the reasons that take money out of a wallet.
 */
function ledgerTriggers(debits: readonly string[], tableCredits: readonly string[] = debits, overlay = false): string {
  const debit = debits.map((r) => `'${r}'`).join(', ');
  const credit = tableCredits.map((r) => `'${r}'`).join(', ');
  // v9: the operator's overlay row carries the operator's overlay total after it, as a rake row carries the rake's.
  const overlayCheck = overlay
    ? `
      SELECT RAISE(ABORT, 'ledger balance_after does not follow from the overlay paid')
      WHERE NEW.reason = 'overlay' AND NEW.balance_after IS NOT
        COALESCE((SELECT amount FROM overlay_paid WHERE kind = NEW.kind), 0) + NEW.amount;`
    : '';
  const overlayApply = overlay
    ? `
    CREATE TRIGGER ledger_apply_overlay AFTER INSERT ON ledger WHEN NEW.reason = 'overlay'
    BEGIN
      INSERT INTO overlay_paid(kind, amount) VALUES (NEW.kind, NEW.balance_after)
      ON CONFLICT(kind) DO UPDATE SET amount = excluded.amount;
    END;`
    : '';
  return `
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only: rows cannot be updated'); END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only: rows cannot be deleted'); END;

    CREATE TRIGGER ledger_check BEFORE INSERT ON ledger
    BEGIN
      SELECT RAISE(ABORT, 'ledger balance_after does not follow from the wallet balance')
      WHERE NEW.account_id IS NOT NULL AND NEW.balance_after IS NOT
        COALESCE((SELECT balance FROM wallets WHERE account_id = NEW.account_id AND kind = NEW.kind), 0)
        + CASE WHEN NEW.reason IN (${debit}) THEN -NEW.amount ELSE NEW.amount END;
      SELECT RAISE(ABORT, 'ledger balance_after does not follow from the collected rake')
      WHERE NEW.reason = 'rake' AND NEW.balance_after IS NOT
        COALESCE((SELECT amount FROM rake_collected WHERE kind = NEW.kind), 0) + NEW.amount;${overlayCheck}
      SELECT RAISE(ABORT, 'ledger movement on a table that is not open')
      WHERE NEW.table_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM table_funds WHERE table_id = NEW.table_id);
      SELECT RAISE(ABORT, 'ledger movement of the wrong kind of money for this table')
      WHERE NEW.table_id IS NOT NULL AND EXISTS (SELECT 1 FROM table_funds WHERE table_id = NEW.table_id AND kind <> NEW.kind);
      SELECT RAISE(ABORT, 'ledger table_after does not follow from the money at the table')
      WHERE NEW.table_id IS NOT NULL AND NEW.table_after IS NOT
        (SELECT held FROM table_funds WHERE table_id = NEW.table_id)
        + CASE WHEN NEW.reason IN (${credit}) THEN NEW.amount ELSE -NEW.amount END;
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
    END;${overlayApply}
  `;
}

/**
 * The ledger set aside to be rebuilt (v6, v9: SQLite cannot change a CHECK in place): its triggers and
 * indexes dropped, the table renamed to `as`, whose rows the rebuilt ledger then copies.
 */
function ledgerAside(db: Db, as: string): void {
  db.exec(`
    DROP TRIGGER ledger_no_update;
    DROP TRIGGER ledger_no_delete;
    DROP TRIGGER ledger_check;
    DROP TRIGGER ledger_apply_wallet;
    DROP TRIGGER ledger_apply_table;
    DROP TRIGGER ledger_apply_rake;
    DROP INDEX ledger_by_account;
    DROP INDEX ledger_by_table;
    ALTER TABLE ledger RENAME TO ${as};
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
  `);
  db.exec(ledgerTable(V2_REASONS, ''));
  db.exec(ledgerTriggers(V2_DEBITS));
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
 * v5: the trace's outbox (trace/outbox.ts). A record is put here in the same
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
 * v6: the cashier and the player-protection duties (SPEC §2b, docs/protection.md).
 * - The ledger learns `withdrawal` (R-CASHIER): real money leaving a wallet for the player's card,
 *   and `payment_ref`, the provider's reference a deposit or withdrawal carries; rebuilt since SQLite
 *   cannot change a CHECK in place (rows copied as they are, triggers re-made).
 * - Accounts keep the date of birth and the hash of the identity the ban file is checked against
 *   (R-AGE, R-BANNED), and when and why an account was closed (a holder who became banned).
 * - `cashier_payments`: each deposit or withdrawal asked of the payment provider, pending until the
 *   provider answers, then confirmed or failed for good (a trigger forbids leaving a final state), so a
 *   late confirmation after a restart lands once (cashier/cashier.ts).
 * - `protection_limits`, `self_exclusions`, `play_stretches`, `time_warnings`: the self-set limits with
 *   their pending raises, self-exclusion, and effective playing time (R-LIMITS, R-TIMELIMIT, R-EXCLUDE;
 *   protection/service.ts).
 */
function protectionV6(db: Db): void {
  ledgerAside(db, 'ledger_v2');
  db.exec(
    ledgerTable(
      [...V2_REASONS, 'withdrawal'],
      "        WHEN 'withdrawal' THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'real'\n",
      `
      -- the payment provider's reference of a deposit or withdrawal (R-CASHIER); NULL otherwise
      payment_ref     TEXT CHECK (payment_ref IS NULL OR reason IN ('deposit', 'withdrawal')),`,
    ),
  );
  db.exec(`
    INSERT INTO ledger(id, account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at)
    SELECT id, account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at FROM ledger_v2;
    DROP TABLE ledger_v2;
  `);
  db.exec(ledgerTriggers([...V2_DEBITS, 'withdrawal']));
  db.exec(`
    ALTER TABLE accounts ADD COLUMN birth_date TEXT;
    ALTER TABLE accounts ADD COLUMN identity_hash TEXT;
    ALTER TABLE accounts ADD COLUMN closed_at INTEGER;
    ALTER TABLE accounts ADD COLUMN closed_reason TEXT;
    CREATE INDEX accounts_by_identity ON accounts(identity_hash) WHERE identity_hash IS NOT NULL;

    CREATE TABLE cashier_payments (
      id           INTEGER PRIMARY KEY,
      account_id   INTEGER NOT NULL REFERENCES accounts(id),
      -- the client's id for this request: a repeat returns the payment first recorded
      request_id   TEXT NOT NULL,
      direction    TEXT NOT NULL CHECK (direction IN ('deposit', 'withdrawal')),
      amount       INTEGER NOT NULL CHECK (amount > 0),
      -- the provider's token for the card, and its last four digits for display (never the number)
      card_token   TEXT NOT NULL,
      card_last4   TEXT NOT NULL,
      provider     TEXT NOT NULL,
      -- the provider's reference, once it gave one
      provider_ref TEXT,
      state        TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'failed')),
      failure      TEXT,
      created_at   INTEGER NOT NULL,
      updated_at   INTEGER NOT NULL,
      UNIQUE (account_id, request_id),
      CHECK ((state = 'failed') = (failure IS NOT NULL))
    );
    CREATE INDEX cashier_by_account ON cashier_payments(account_id, id);
    CREATE INDEX cashier_pending ON cashier_payments(state) WHERE state = 'pending';
    CREATE TRIGGER cashier_final BEFORE UPDATE ON cashier_payments WHEN OLD.state <> 'pending'
    BEGIN SELECT RAISE(ABORT, 'a confirmed or failed payment is final'); END;
    CREATE TRIGGER cashier_no_delete BEFORE DELETE ON cashier_payments
    BEGIN SELECT RAISE(ABORT, 'payments are kept: rows cannot be deleted'); END;

    CREATE TABLE protection_limits (
      account_id    INTEGER NOT NULL REFERENCES accounts(id),
      kind          TEXT NOT NULL CHECK (kind IN ('deposit', 'stake', 'time')),
      -- cents for deposit and stake, milliseconds for time
      value         INTEGER NOT NULL CHECK (value > 0),
      pending_value INTEGER CHECK (pending_value > 0),
      pending_from  INTEGER,
      -- when the player first set this limit: the playing-time periods run from it (playtime.ts)
      first_set_at  INTEGER NOT NULL,
      updated_at    INTEGER NOT NULL,
      PRIMARY KEY (account_id, kind),
      CHECK ((pending_value IS NULL) = (pending_from IS NULL))
    ) WITHOUT ROWID;
    CREATE TABLE self_exclusions (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
      from_at    INTEGER NOT NULL,
      -- NULL: permanent
      until_at   INTEGER
    );
    CREATE TABLE play_stretches (
      id         INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      table_id   TEXT NOT NULL,
      from_at    INTEGER NOT NULL,
      -- NULL while the player is at the table
      to_at      INTEGER,
      -- the last moment the operator saw the player there (closes a stretch left open by a crash)
      seen_at    INTEGER NOT NULL,
      CHECK (to_at IS NULL OR to_at >= from_at)
    );
    CREATE UNIQUE INDEX play_stretches_open ON play_stretches(account_id, table_id) WHERE to_at IS NULL;
    CREATE INDEX play_stretches_by_account ON play_stretches(account_id, from_at);
    CREATE TABLE time_warnings (
      account_id  INTEGER NOT NULL REFERENCES accounts(id),
      period_from INTEGER NOT NULL,
      warning     TEXT NOT NULL CHECK (warning IN ('near', 'ten-minutes', 'reached')),
      at          INTEGER NOT NULL,
      PRIMARY KEY (account_id, period_from, warning)
    ) WITHOUT ROWID;
  `);
}

/**
 * v7: tournaments (tournaments/store.ts). A tournament's state (its spec, where it
 * stands, its clock, its counters and busted order) and each entrant's (chips as of the last settled
 * hand, table and seat, place and prize), written in the transaction that moves their money or settles
 * a hand, so an operator killed mid-tournament resumes it from the last completed hand.
 */
function tournamentsV7(db: Db): void {
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

/**
 * v8: tournament results (tournaments/store.ts `results`). A finished tournament keeps
 * when it ended (`ended_at`, set once when its state becomes `finished`); the entrants are found by
 * account, so a player's finished tournaments are read from what the tournaments saved anyway (the
 * place, prize, purchases and bounties of each entrant, written in the step that paid them).
 */
function tournamentResultsV8(db: Db): void {
  db.exec(`
    ALTER TABLE tournaments ADD COLUMN ended_at INTEGER;
    UPDATE tournaments SET ended_at = updated_at WHERE state = 'finished';
    CREATE INDEX tournaments_ended ON tournaments(ended_at) WHERE ended_at IS NOT NULL;
    CREATE INDEX tournament_entrants_by_account ON tournament_entrants(account_id);
  `);
}

/**
 * v9: the operator's overlay. A guaranteed prize pool larger than what the entries
 * brought is topped up by the operator: an `overlay` row from the operator's side (no account) into
 * the tournament's fund, its `balance_after` the operator's overlay total after it (`overlay_paid`, as
 * `rake_collected` for the rake). So the overlay is money the operator puts in, counted as such by the
 * audit (wallets + tables + rake = deposits + grants + overlays − withdrawals), never created from
 * nothing. The ledger is rebuilt as at v6 (SQLite cannot change a CHECK in place): rows copied as
 * they are, triggers re-made.
 * Also `tournament_tables`: each running tournament table's blind positions after
 * its last settled hand, written in that hand's step, so a restart goes on with the same button.
 */
function overlayV9(db: Db): void {
  ledgerAside(db, 'ledger_v8');
  db.exec(`
    CREATE TABLE overlay_paid (
      kind   TEXT PRIMARY KEY CHECK (kind IN ('real', 'play')),
      amount INTEGER NOT NULL CHECK (amount >= 0)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_tables (
      tournament_id TEXT NOT NULL REFERENCES tournaments(id),
      table_no      INTEGER NOT NULL,
      -- the table's positions (JSON, tables/types.ts TablePositions): button and blinds, who has played
      data          TEXT NOT NULL,
      PRIMARY KEY (tournament_id, table_no)
    ) WITHOUT ROWID;
  `);
  db.exec(
    ledgerTable(
      [...V2_REASONS, 'withdrawal', 'overlay'],
      "        WHEN 'withdrawal' THEN account_id IS NOT NULL AND table_id IS NULL AND table_after IS NULL AND kind = 'real'\n" +
        "        WHEN 'overlay' THEN account_id IS NULL AND table_id IS NOT NULL AND table_after IS NOT NULL\n",
      `
      -- the payment provider's reference of a deposit or withdrawal (R-CASHIER); NULL otherwise
      payment_ref     TEXT CHECK (payment_ref IS NULL OR reason IN ('deposit', 'withdrawal')),`,
    ),
  );
  db.exec(`
    INSERT INTO ledger(id, account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at, payment_ref)
    SELECT id, account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at, payment_ref FROM ledger_v8;
    DROP TABLE ledger_v8;
  `);
  db.exec(ledgerTriggers([...V2_DEBITS, 'withdrawal'], [...V2_DEBITS, 'withdrawal', 'overlay'], true));
}

/**
 * v10: one account per person (R-ONEACCOUNT) and the identity key of look-alike letters (R-BANNED;
 * protection/identity.ts, docs/protection.md).
 * - `accounts.identity_hash` stays the column that holds the person's identity hash (the one the
 *   trace's HashJoueur is derived from), and `identity_key` says of which key: 2 (`identityHash`:
 *   case, accents, apostrophes, dashes, spaces, NFKC and UTS #39 look-alikes folded) for accounts
 *   registered from v10 on, 1 (the key before, `legacyIdentityKey`) for the accounts already
 *   identified, whose hash cannot be recomputed (names are never stored).
 * - `legacy_identity_hash`: an account of key 2 also keeps its hash of key 1, so that a ban file of
 *   version 1 still finds it at login; for an account of key 1 it is its `identity_hash`.
 * - A UNIQUE index on the hash of key 2 makes the database itself refuse a second account of one
 *   person (two registrations at once). It is partial, `identity_key = 2`: a database may already
 *   hold two accounts of one person under key 1 (registered before this check), and the migration
 *   must not fail on them; they are kept as they are, never merged, and listed by `operator report`
 *   (fairplay/identities.ts) for a person to settle. A registration is compared with them by key 1.
 */
function oneAccountV10(db: Db): void {
  db.exec(`
    ALTER TABLE accounts ADD COLUMN identity_key INTEGER CHECK (identity_key IN (1, 2));
    ALTER TABLE accounts ADD COLUMN legacy_identity_hash TEXT;
    UPDATE accounts SET identity_key = 1, legacy_identity_hash = identity_hash WHERE identity_hash IS NOT NULL;
    CREATE UNIQUE INDEX accounts_one_per_person ON accounts(identity_hash) WHERE identity_key = 2;
  `);
}

/**
 * v11: the tournament machine's saved states (tournaments/machine-store.ts, docs/tournaments.md), one
 * tournament run by `TournamentRunner` each: its state without its entrants and tables (JSON), and
 * one row per entrant and per table; an event writes the state and the rows it changed, in the
 * transaction that moves its money and puts its records.
 */
function tournamentMachinesV11(db: Db): void {
  db.exec(`
    CREATE TABLE tournament_machines (
      id         TEXT PRIMARY KEY,
      phase      TEXT NOT NULL CHECK (phase IN ('registering', 'running', 'finished', 'cancelled')),
      state      TEXT NOT NULL,
      events     INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE tournament_machine_rows (
      tournament_id TEXT NOT NULL REFERENCES tournament_machines(id),
      -- 'e': an entrant by account id; 't': a table by number
      kind          TEXT NOT NULL CHECK (kind IN ('e', 't')),
      key           INTEGER NOT NULL,
      data          TEXT NOT NULL,
      PRIMARY KEY (tournament_id, kind, key)
    );
  `);
}

/**
 * v12: the parts of a machine's state that grow with the field leave its JSON for rows of their own
 * (tournaments/machine-store.ts), written only by the events that change them: `g`, a busted group by
 * its position in the order of eliminations, and `p`, the prizes by place (key 0). SQLite cannot widen
 * a CHECK in place: the rows' table is made again. States saved at v11 have theirs moved to rows.
 */
function machineRowsV12(db: Db): void {
  db.exec(`
    CREATE TABLE tournament_machine_rows_v12 (
      tournament_id TEXT NOT NULL REFERENCES tournament_machines(id),
      -- 'e': an entrant by account id; 't': a table by number; 'g': a busted group by position; 'p': the prizes (key 0)
      kind          TEXT NOT NULL CHECK (kind IN ('e', 't', 'g', 'p')),
      key           INTEGER NOT NULL,
      data          TEXT NOT NULL,
      PRIMARY KEY (tournament_id, kind, key)
    );
    INSERT INTO tournament_machine_rows_v12(tournament_id, kind, key, data) SELECT tournament_id, kind, key, data FROM tournament_machine_rows;
    DROP TABLE tournament_machine_rows;
    ALTER TABLE tournament_machine_rows_v12 RENAME TO tournament_machine_rows;
    INSERT INTO tournament_machine_rows(tournament_id, kind, key, data)
      SELECT m.id, 'g', g.key, g.value FROM tournament_machines m, json_each(m.state, '$.busted') g;
    INSERT INTO tournament_machine_rows(tournament_id, kind, key, data)
      SELECT id, 'p', 0, json_extract(state, '$.prizes') FROM tournament_machines WHERE json_type(state, '$.prizes') = 'array';
    UPDATE tournament_machines SET state = json_set(state, '$.busted', json('[]'), '$.prizes', json('[]'));
  `);
}

/**
 * v13: a player's finished tournaments are read from the machines' entrant rows (tournaments/results.ts):
 * an index by row kind and key (the account id of an `e` row) finds them without reading every field;
 * and each machine table's positions after its last hand, for a resume.
 */
function machineResultsV13(db: Db): void {
  db.exec(`
    CREATE INDEX tournament_machine_rows_by_key ON tournament_machine_rows(kind, key);
    -- Each machine table's button and blinds after its last ended hand (tables/types.ts TablePositions),
    -- written with that hand's event: a resumed table goes on from them (T 6-3 to 6-5), not redrawn.
    CREATE TABLE tournament_machine_positions (
      tournament_id TEXT NOT NULL REFERENCES tournament_machines(id),
      table_no      INTEGER NOT NULL,
      data          TEXT NOT NULL,
      PRIMARY KEY (tournament_id, table_no)
    ) WITHOUT ROWID;
  `);
}

/** The operator database's migrations; index i brings version i to i + 1. Append only. */
export const OPERATOR_MIGRATIONS: readonly Migration[] = [
  accountsV1,
  walletV2,
  tableSeatsV3,
  decisionTimesV4,
  traceOutboxV5,
  protectionV6,
  tournamentsV7,
  tournamentResultsV8,
  overlayV9,
  oneAccountV10,
  tournamentMachinesV11,
  machineRowsV12,
  machineResultsV13,
];

/** Opens (creating and migrating as needed) the operator database file at `path`. */
export function openOperatorDatabase(path: string, options?: OpenDatabaseOptions): Db {
  return openDatabase(path, OPERATOR_MIGRATIONS, 'operator', options);
}
