/**
 * The tables by player count (`MachineState.sizes`, `bySize`; T 6-6, 6-8: the floor's check and plan
 * read these, never every table). For each count, the table numbers ascending, in runs by number
 * (`RUN` numbers a run, keyed by `no / RUN`, no run empty): a count changing copies one run and that
 * count's record of runs, once per event (a `SizeWriter` owns them after, as a Draft owns a bucket).
 * So the start's draw of 100,000 players to 11,112 tables costs O(players), not O(players × tables),
 * and the state stays a value: every layout of the same tables is the same JSON.
 */
import { bucketValues } from './buckets';
import type { Buckets, MachineState, Table, TablesBySize } from './types';

export const RUN = 64;

export const seatedCount = (t: Table): number => t.seats.reduce<number>((n, x) => n + (x === null ? 0 : 1), 0);

export const emptySizes = (seats: number): Pick<MachineState, 'sizes' | 'bySize'> => ({
  sizes: new Array<number>(seats + 1).fill(0),
  bySize: Array.from({ length: seats + 1 }, () => ({})),
});

/** The numbers of the tables with `k` players, ascending (integer keys iterate in ascending order). */
export function tablesWith(bySize: TablesBySize, k: number): number[] {
  const out: number[] = [];
  const runs = bySize[k];
  for (const c in runs) for (const no of runs[c]) out.push(no);
  return out;
}

/**
 * The counts made again from the tables themselves: a store does not save them (they follow from the
 * tables it reads back), and this is the layout the machine's own changes keep.
 */
export function indexTables(seats: number, tables: Buckets<Table>): Pick<MachineState, 'sizes' | 'bySize'> {
  const sizes = new Array<number>(seats + 1).fill(0);
  const bySize: Record<string, number[]>[] = Array.from({ length: seats + 1 }, () => ({}));
  for (const t of bucketValues(tables).sort((a, b) => a.no - b.no)) {
    const k = seatedCount(t);
    sizes[k]++;
    (bySize[k][Math.floor(t.no / RUN)] ??= []).push(t.no);
  }
  return { sizes, bySize };
}

type Counted = { sizes: readonly number[]; bySize: TablesBySize };

/** One event's changes to the counts of a working state: each part copied on its first change only. */
export class SizeWriter {
  private copied = false;
  private readonly records = new Set<number>();
  private readonly runs = new Set<string>();

  constructor(private readonly s: Counted) {}

  /** The counts were changed by this event: they are its own copies, edited in place until it ends. */
  get changed(): boolean {
    return this.copied;
  }

  /** Table `no` goes from `before` players to `after` (-1: not a table, opened or closed). */
  move(no: number, before: number, after: number): void {
    if (!this.copied) {
      this.s.sizes = [...this.s.sizes];
      this.s.bySize = [...this.s.bySize];
      this.copied = true;
    }
    const sizes = this.s.sizes as number[];
    if (before >= 0) {
      sizes[before]--;
      this.edit(before, no, false);
    }
    if (after >= 0) {
      sizes[after]++;
      this.edit(after, no, true);
    }
  }

  private edit(k: number, no: number, add: boolean): void {
    const bySize = this.s.bySize as Record<string, readonly number[]>[];
    if (!this.records.has(k)) {
      bySize[k] = { ...bySize[k] };
      this.records.add(k);
    }
    const runs = bySize[k] as Record<string, number[]>;
    const c = Math.floor(no / RUN);
    const key = `${k}:${c}`;
    if (!this.runs.has(key)) {
      if (runs[c]) runs[c] = [...runs[c]];
      this.runs.add(key);
    }
    const list = (runs[c] ??= []);
    if (add) {
      let i = list.length;
      while (i > 0 && list[i - 1] > no) i--;
      list.splice(i, 0, no);
      return;
    }
    const i = list.indexOf(no);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) delete runs[c];
  }
}
