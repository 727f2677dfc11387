/**
 * The trace's outbox: the trace never falls behind the money.
 *
 * The vault is a file of its own (trace.sqlite, one coffre), so a record and the money movement it
 * mirrors cannot share a transaction there. They share one here: the record is put in the operator
 * database's `trace_outbox` inside the transaction that moves the money (a hand's POJEU with its
 * settlement, a POINSCRIT with its buy-in, a POACHAT with its top-up, a POBILAN with its cash-out, a
 * POANNUL with its refund). A record that breaks the format throws there, so the money does not
 * move either. Then {@link TraceOutbox.flush} moves the records to the vault in order, each with the
 * time of its event:
 *
 * - at once, when the vault is free (the usual case: the record is in the vault when the call returns);
 * - when the vault is locked by another process, the write fails at once (busy timeout 0: the event
 *   loop is not held) and is tried again later, 50 ms doubling to 2 s; meanwhile the tables play on;
 * - on the next start, before crash recovery reads the vault (recovery.ts), and on close.
 *
 * A crash between a record's append and its removal from the outbox cannot write it twice: before
 * each append the vault's head is noted in the row; a later head on the next try means it went in.
 * Only this process appends to the vault (one operator per data folder).
 */
import type { Db } from '../../shared/node/sqlite';
import { hashJoueur, type TraceData } from './records';
import { prepareRecord, type TraceVault } from './vault';

interface Row {
  id: number;
  data: string;
  at: number;
  xml: string;
  tried_at_head: number | null;
}

/** Longest a flush runs before it yields to the event loop (the rest continues on the next turn). */
const SLICE_MS = 10;

/** The record's data as JSON (native, fast: the only dates in TraceData are the POJEU rounds' `timestamp`). */
function encode(data: TraceData): string {
  return JSON.stringify(data);
}

function decode(text: string): TraceData {
  return JSON.parse(text, (key, value: unknown) => (key === 'timestamp' && typeof value === 'string' ? new Date(value) : value)) as TraceData;
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
}

export class TraceOutbox {
  private readonly q;
  private timer: NodeJS.Timeout | null = null;
  /** The data of rows put by this process, so the usual flush right after does not parse it back. */
  private readonly memo = new Map<number, { text: string; data: TraceData }>();
  private retryMs = 50;
  /** The pending timer continues a used-up slice (not a busy vault's retry). */
  private sliceNext = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly vault: TraceVault,
    private readonly log: (line: string) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {
    this.q = {
      put: db.prepare<[string, number, string]>('INSERT INTO trace_outbox(data, at, xml) VALUES (?, ?, ?)'),
      first: db.prepare<[], Row>('SELECT * FROM trace_outbox ORDER BY id LIMIT 1'),
      tried: db.prepare<[number, number]>('UPDATE trace_outbox SET tried_at_head = ? WHERE id = ?'),
      done: db.prepare<[number]>('DELETE FROM trace_outbox WHERE id = ?'),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM trace_outbox'),
      all: db.prepare<[], Row>('SELECT * FROM trace_outbox ORDER BY id'),
      identity: db.prepare<[number], { identity_hash: string | null }>('SELECT identity_hash FROM accounts WHERE id = ?'),
    };
  }

  /**
   * Puts a record in the outbox: call it inside the transaction that moves its money. Throws
   * (TraceRecordError) if the record breaks the format, so that transaction is undone. `eventAt`: the
   * time of the event it records when that is not now (DateEvt, "date et heure de l'évènement de jeu":
   * a tournament entry busted earlier and closed when its place is known, A 1.3.6.b).
   */
  put(given: TraceData, eventAt?: number): void {
    const data = given.kind === 'POJEU' ? given : { ...given, hashJoueur: this.hashJoueurOf(given.idJoueur) };
    const at = eventAt ?? this.clock();
    // Rendered once, here: a record that breaks the format throws before its money moves.
    const xml = prepareRecord(this.vault.idOper, this.vault.idCoffre, new Date(at), data);
    const text = encode(data);
    const id = Number(this.q.put.run(text, at, xml).lastInsertRowid);
    // A rolled-back row's id may be given again: the memo is used only when the text matches too.
    this.memo.set(id, { text, data });
    if (this.memo.size > 10_000) this.memo.clear();
  }

  /**
   * HashJoueur, "signature cryptographique de l'identité du joueur" (A 1.3.6.c.1): the SHA-1 of the
   * identity hash the operator holds for the person (accounts.identity_hash, the SHA-256 of their
   * identity key; protection/identity.ts), derived here, the one place every record passes. An
   * account without an identity (a guest or a practice player: play money only, records marked
   * test) gets the SHA-1 of `sans-identite:<IDJoueur>`, which no person's hash can equal.
   */
  private hashJoueurOf(idJoueur: string): string {
    const id = Number(idJoueur);
    const identity = Number.isSafeInteger(id) ? this.q.identity.get(id)?.identity_hash : null;
    return hashJoueur(identity ?? `sans-identite:${idJoueur}`);
  }

  private dataOf(row: Row): TraceData {
    const m = this.memo.get(row.id);
    return m && m.text === row.data ? m.data : decode(row.data);
  }

  /** Records not yet in the vault. */
  pending(): number {
    return this.q.count.get()!.n;
  }

  /** The records not yet in the vault, oldest first (for `trace verify`). */
  pendingRecords(): TraceData[] {
    return this.q.all.all().map((r) => decode(r.data));
  }

  /**
   * Moves records to the vault, oldest first, for at most `sliceMs` (Infinity: all). Returns true when
   * the outbox is empty; false when the vault was busy or the slice ran out. Other errors are thrown.
   */
  flush(sliceMs = Infinity): boolean {
    return this.flushFor(sliceMs) === 'empty';
  }

  private flushFor(sliceMs: number): 'empty' | 'busy' | 'slice' {
    const end = performance.now() + sliceMs;
    for (let moved = 0; ; moved++) {
      const row = this.q.first.get();
      if (!row) return 'empty';
      // At least one record a call, however slow the machine: the outbox always makes progress.
      if (moved > 0 && performance.now() > end) return 'slice';
      try {
        const head = this.vault.head().idEvt;
        const data = this.dataOf(row);
        if (row.tried_at_head !== null && head > row.tried_at_head) {
          // Appended before a crash or a failure after the append: not twice.
          const there = this.vault.get(row.tried_at_head + 1);
          if (!there || there.kind !== data.kind) throw new Error(`trace outbox: record ${row.id} (${data.kind}) was tried at head ${row.tried_at_head}, but IDEvt ${row.tried_at_head + 1} is ${there?.kind}`);
          this.q.done.run(row.id);
          this.memo.delete(row.id);
          continue;
        }
        this.q.tried.run(head, row.id);
        this.vault.append(data, new Date(row.at), row.xml);
        this.q.done.run(row.id);
        this.memo.delete(row.id);
      } catch (e) {
        if (isBusy(e)) return 'busy';
        throw e;
      }
    }
  }

  /**
   * After a transaction that put records: moves them now if the vault is free, else schedules a retry
   * (never waits on the vault's lock). Keeps the order: while a retry is pending, new records queue.
   */
  flushSoon(): void {
    if (this.closed) return;
    if (this.timer !== null) {
      // A busy vault is retried on its own schedule; a used-up slice is only a continuation, and a
      // new transaction's call may go on with it now (a loop that never yields still drains).
      if (!this.sliceNext) return;
      clearTimeout(this.timer);
      this.timer = null;
    }
    let result: 'empty' | 'busy' | 'slice' | 'error';
    try {
      result = this.flushFor(SLICE_MS);
    } catch (e) {
      this.log(`trace outbox: ${(e as Error)?.stack ?? String(e)}`);
      result = 'error';
    }
    if (result !== 'busy' && result !== 'error') this.retryMs = 50;
    if (result === 'empty') return;
    // A slice used up: the rest on the next turn of the event loop; a busy vault: 50 ms doubling to 2 s.
    const wait = result === 'slice' ? 0 : this.retryMs;
    if (result !== 'slice') this.retryMs = Math.min(2000, this.retryMs * 2);
    this.sliceNext = result === 'slice';
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushSoon();
    }, wait);
    this.timer.unref();
  }

  /** Stops retrying (the caller flushes what is left with {@link flush}, waiting on the vault if it must). */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
