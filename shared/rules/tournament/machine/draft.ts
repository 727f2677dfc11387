/**
 * A working copy of a machine state for one event: `apply` never changes the state it is given. The
 * entrants and tables maps are copied on their first change only, each changed entrant or table
 * replaced by a new object; everything else is shared with the state before.
 */
import { variantOf } from '../../variants';
import { bucketGet, bucketOf, tableList } from './buckets';
import { seatedCount, SizeWriter } from './sizes';
import type { Effect, Entrant, MachineSpec, MachineState, Table } from './types';

/** A game without blinds (Stud, Razz, Stud Hi-Lo: antes and a bring-in, R-FORCED): balanced by position. */
export const withoutBlinds = (spec: MachineSpec): boolean => variantOf(spec.variant).forcedBets === 'ante-bring-in';

/**
 * Stud: the free seats in the order they opened (TDA: the last seat to open at the short table is the
 * one a balanced player fills). A seat freed goes last, a seat taken leaves the list.
 */
function reopened(was: Table, t: Table): readonly number[] {
  let list = (was.opened ?? []).filter((i) => t.seats[i] === null);
  t.seats.forEach((x, i) => {
    if (x === null && was.seats[i] !== null) list = [...list, i];
  });
  return list;
}

export { seatedCount };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class Draft {
  readonly s: Mutable<MachineState>;
  readonly effects: Effect[] = [];
  private readonly ownEntrants = new Set<number>();
  private readonly ownTables = new Set<number>();
  /** Entrants changed by this event (a store writes them again). */
  readonly changed = new Set<number>();
  /** Tables changed by this event: those that may deal next (floor.ts `dealable`), and a store's rows. */
  readonly touched = new Set<number>();
  /** The first busted group this event rewrote (ranking.ts: appended or renumbered), null: none. */
  bustedFrom: number | null = null;
  /** Every table is read for a deal (the start, a break's end, a hand-for-hand round). */
  dealAll = false;

  /** The tables by size, copied on their first change in this event (sizes.ts). */
  private readonly counts: SizeWriter;

  constructor(state: MachineState) {
    this.s = { ...state };
    this.counts = new SizeWriter(this.s);
  }

  /** The tables by size were changed by this event (its own copies, still edited in place). */
  get countsChanged(): boolean {
    return this.counts.changed;
  }

  entrant(id: number): Entrant {
    const e = bucketGet(this.s.entrants, id);
    if (!e) throw new Error(`${this.s.spec.id}: no entrant ${id}`);
    return e;
  }

  find(id: number): Entrant | undefined {
    return bucketGet(this.s.entrants, id);
  }

  private entrantBucket(id: number): Record<string, Entrant> {
    const k = bucketOf(id);
    if (this.ownEntrants.size === 0) this.s.entrants = [...this.s.entrants];
    if (!this.ownEntrants.has(k)) {
      (this.s.entrants as Record<string, Entrant>[])[k] = { ...this.s.entrants[k] };
      this.ownEntrants.add(k);
    }
    return this.s.entrants[k];
  }

  set(id: number, patch: Partial<Entrant>): Entrant {
    const m = this.entrantBucket(id);
    const was = m[id] as Entrant | undefined;
    const next = { ...was, ...patch } as Entrant;
    m[id] = next;
    this.changed.add(id);
    const inBefore = was !== undefined && was.status !== 'out';
    const inNow = next.status !== 'out';
    if (inBefore !== inNow) this.s.remaining += inNow ? 1 : -1;
    return next;
  }

  drop(id: number): void {
    const m = this.entrantBucket(id);
    if (m[id] === undefined) return;
    if (m[id].status !== 'out') this.s.remaining--;
    delete m[id];
    this.s.players--;
    this.changed.add(id);
  }

  table(no: number): Table | undefined {
    return bucketGet(this.s.tables, no);
  }

  tableList(): Table[] {
    return tableList(this.s);
  }

  setTable(no: number, given: Table | null): void {
    const k = bucketOf(no);
    if (this.ownTables.size === 0) this.s.tables = [...this.s.tables];
    if (!this.ownTables.has(k)) {
      (this.s.tables as Record<string, Table>[])[k] = { ...this.s.tables[k] };
      this.ownTables.add(k);
    }
    const m = this.s.tables[k] as Record<string, Table>;
    const was = m[no] as Table | undefined;
    const t = was && given && withoutBlinds(this.s.spec) ? { ...given, opened: reopened(was, given) } : given;
    const before = was ? seatedCount(was) : -1;
    const after = t ? seatedCount(t) : -1;
    if (before !== after) this.counts.move(no, before, after);
    this.touched.add(no);
    if (t === null) delete m[no];
    else m[no] = t;
  }

  /** Busted group `no` and those after it were rewritten (appended, emptied or renumbered). */
  groupChanged(no: number): void {
    if (this.bustedFrom === null || no < this.bustedFrom) this.bustedFrom = no;
  }

  emit(e: Effect): void {
    this.effects.push(e);
  }

  /** The next random integer in [0, n) (mulberry32 over the saved state: a replay draws the same). */
  random(n: number): number {
    let t = (this.s.rng = (this.s.rng + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const x = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(x * n);
  }
}
