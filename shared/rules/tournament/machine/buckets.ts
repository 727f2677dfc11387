/**
 * The state's large maps (entrants by account, tables by number) as 1,024 buckets by key: a change
 * copies one bucket and the list of buckets, not the whole map, so an event costs about the same at
 * 100,000 entrants as at 100 while every state stays a value (JSON, compared and replayed as it is).
 * 1,024: a bucket of a 100,000-entrant field holds about 98 entrants (with 256 it held 390, and the
 * copies of a hand's nine changed buckets grew with the field); 4,096 copied fewer entrants but made
 * every walk and comparison of a state four times longer (the property tests took 58 s, not 30).
 */
import type { Buckets, Entrant, MachineState, Table } from './types';

export const BUCKETS = 1024;

/** Keys are non-negative safe integers (account ids, table numbers). */
export type { Buckets };

export const emptyBuckets = <T>(): Buckets<T> => Array.from({ length: BUCKETS }, () => ({}));

export const bucketOf = (key: number): number => key % BUCKETS;

export function bucketGet<T>(b: Buckets<T>, key: number): T | undefined {
  return b[bucketOf(key)][key];
}

export function bucketValues<T>(b: Buckets<T>): T[] {
  const out: T[] = [];
  for (const m of b) for (const k in m) out.push(m[k]);
  return out;
}

export const entrantOf = (s: MachineState, id: number): Entrant | undefined => bucketGet(s.entrants, id);
export const tableOf = (s: MachineState, no: number): Table | undefined => bucketGet(s.tables, no);

/** Every entrant's account id, in registration order. */
export function entrantIds(s: MachineState): number[] {
  return bucketValues(s.entrants)
    .sort((a, b) => a.n - b.n)
    .map((e) => e.who.accountId);
}

/** Every table, by number. */
export function tableList(s: MachineState): Table[] {
  return bucketValues(s.tables).sort((a, b) => a.no - b.no);
}
