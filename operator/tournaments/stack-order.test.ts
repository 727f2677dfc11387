/**
 * The order of stacks (stack-order.ts) against a count over every player, after random changes:
 * chips moved, players out and back, gone, stacks equal to others (ties) and to zero.
 */
import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/rules/engine/test-support';
import { StackOrder } from './stack-order';

describe('the order of stacks', () => {
  it('counts the players above any stack exactly as a count over the field does, through 20,000 random changes, ties included', () => {
    const r = prng(17);
    const stacks = new Map<number, number | null>();
    const order = new StackOrder<number>((id) => stacks.get(id) ?? null);
    const brute = (s: number) => [...stacks.values()].filter((x) => x !== null && x > s).length;
    let ties = 0;
    for (let step = 0; step < 20_000; step++) {
      const id = Math.floor(r() * 300);
      const x = r();
      // Few distinct values: many players share a stack (ties), some hold none (zero).
      if (x < 0.7) stacks.set(id, Math.floor(r() * 40) * 50);
      else if (x < 0.85) stacks.set(id, null); // out
      else {
        stacks.delete(id); // gone (unregistered)
        order.forget(id);
        continue;
      }
      order.touch(id);
      if (step % 7 === 0) {
        const probe = Math.floor(r() * 42) * 50 - 25 * Math.floor(r() * 2);
        expect(order.above(probe)).toBe(brute(probe));
        const mine = stacks.get(id);
        if (mine !== null && mine !== undefined) {
          expect(order.above(mine)).toBe(brute(mine));
          if ([...stacks].some(([k, v]) => k !== id && v === mine)) ties++;
        }
      }
    }
    expect(order.size).toBe([...stacks.values()].filter((x) => x !== null).length);
    expect(ties).toBeGreaterThan(100);
  });

  it('reads a change only when asked, once however many times it was touched; refuses a stack that is not whole chips', () => {
    let reads = 0;
    const stacks = new Map<string, number | null>([
      ['a', 100],
      ['b', 100],
      ['c', 50],
    ]);
    const order = new StackOrder<string>((id) => {
      reads++;
      return stacks.get(id) ?? null;
    });
    for (const id of ['a', 'b', 'c', 'a', 'a']) order.touch(id);
    expect(reads).toBe(0);
    // Equal stacks share a rank (1 + those above): a and b are first, c third.
    expect([order.above(100) + 1, order.above(50) + 1]).toEqual([1, 3]);
    expect(reads).toBe(3);
    stacks.set('c', 1.5);
    order.touch('c');
    expect(() => order.above(0)).toThrow(RangeError);
  });
});
