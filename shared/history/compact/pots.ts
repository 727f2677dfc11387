/** The compact codec's pots: amount, rake, eligible seats and shares, written and read side by side (R-POTS, R-RAKE). */
import type { PotResult, PotShare } from '../../rules/engine/types';
import { type ByteReader, type ByteWriter, CorruptBytes } from '../bytes';
import { writeSeatSet, readSeatSet } from './format';
import { amount } from './entries';

// Pot share halves by their code. Frozen: on disk.
const HALVES: readonly PotShare['half'][] = ['whole', 'high', 'low'];

export function writePots(w: ByteWriter, pots: readonly PotResult[], tableSize: number, rake: boolean): void {
  w.uint(pots.length);
  for (const p of pots) {
    w.uint(p.amount);
    if (rake) w.uint(p.rake);
    writeSeatSet(w, p.eligible, tableSize);
    w.uint(p.shares.length);
    let left = p.amount - p.rake;
    for (let i = 0; i < p.shares.length; i++) {
      const sh = p.shares[i];
      const half = HALVES.indexOf(sh.half);
      if (half < 0) throw new RangeError(`unknown pot half ${String(sh.half)}`);
      w.uint(sh.seat * 3 + half);
      if (i < p.shares.length - 1) {
        w.uint(sh.amount);
        left -= sh.amount;
      } else {
        // The last share is what is left of the pot after rake and the other shares.
        w.tagged(sh.amount === left, sh.amount === left ? 0 : sh.amount);
      }
    }
  }
}

export function readPots(r: ByteReader, tableSize: number, rake: boolean): PotResult[] {
  const n = r.count(r.left, 'the pot count');
  const pots: PotResult[] = [];
  for (let i = 0; i < n; i++) {
    const amt = amount(r);
    const potRake = rake ? amount(r) : 0;
    const eligible = readSeatSet(r, tableSize);
    const k = r.count(r.left, 'the share count');
    const shares: PotShare[] = [];
    let left = amt - potRake;
    for (let j = 0; j < k; j++) {
      const code = r.count(tableSize * 3 - 1, 'a share');
      const seat = Math.floor(code / 3);
      const half = HALVES[code % 3];
      let a: number;
      if (j < k - 1) {
        a = amount(r);
        left -= a;
      } else {
        const t = r.tagged();
        if (t.tag && t.value !== 0) throw new CorruptBytes('an implied share carries a value');
        if (t.tag && left < 0) throw new CorruptBytes('the shares exceed the pot');
        if (t.value > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
        a = t.tag ? left : t.value;
      }
      shares.push({ seat, amount: a, half });
    }
    pots.push({ amount: amt, rake: potRake, eligible, shares });
  }
  return pots;
}
