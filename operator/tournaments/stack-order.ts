/**
 * The order of a tournament's stacks (the standing's rank for fields of 10,000):
 * how many players hold more chips than a given stack, in O(log n), kept in step as stacks change
 * instead of counting the whole field for every message.
 *
 * A treap (a binary search tree balanced by random priorities) of the distinct stacks, each node with
 * how many players hold that stack and how many its subtree holds. A player whose chips changed is
 * `touch`ed (O(1)); the order takes the new value of each touched player when it is next read (O(log n)
 * each), so a hand that moves nine stacks costs nine updates, however often it is read.
 *
 * Ranks: 1 + the players in with strictly more chips (`above`), so equal stacks share a rank and the
 * next stack down is ranked after all of them (standard competition ranking, "1, 2, 2, 4").
 */

interface Node {
  stack: number;
  /** Players holding exactly this stack. */
  count: number;
  /** Players in this subtree. */
  total: number;
  priority: number;
  left: Node | null;
  right: Node | null;
}

const totalOf = (n: Node | null): number => (n === null ? 0 : n.total);

function update(n: Node): Node {
  n.total = n.count + totalOf(n.left) + totalOf(n.right);
  return n;
}

function rotateRight(n: Node): Node {
  const l = n.left!;
  n.left = l.right;
  l.right = update(n);
  return update(l);
}

function rotateLeft(n: Node): Node {
  const r = n.right!;
  n.right = r.left;
  r.left = update(n);
  return update(r);
}

export class StackOrder<K> {
  private root: Node | null = null;
  /** Each player in the order, with the stack it is counted at. */
  private readonly held = new Map<K, number>();
  /** Players whose chips may have changed since the order was last read. */
  private readonly touched = new Set<K>();
  /** The priorities' generator: deterministic (xorshift32), a balance the same on every run. */
  private seed = 0x9e3779b9;

  /**
   * @param stackOf a player's chips now, or null when the player is not in (eliminated): not counted.
   */
  constructor(private readonly stackOf: (key: K) => number | null) {}

  /** The player's chips changed (or they came in, or went out): taken at the next read. */
  touch(key: K): void {
    this.touched.add(key);
  }

  /** The player is gone from the field (unregistered): no longer counted. */
  forget(key: K): void {
    this.touched.delete(key);
    const was = this.held.get(key);
    if (was === undefined) return;
    this.held.delete(key);
    this.root = this.remove(this.root, was);
  }

  /** Players in with strictly more chips than `stack` (a rank is 1 + this). */
  above(stack: number): number {
    this.sync();
    let n = this.root;
    let count = 0;
    while (n !== null) {
      if (n.stack > stack) {
        count += n.count + totalOf(n.right);
        n = n.left;
      } else n = n.right;
    }
    return count;
  }

  /** Players counted. */
  get size(): number {
    this.sync();
    return this.held.size;
  }

  private sync(): void {
    if (this.touched.size === 0) return;
    for (const key of this.touched) {
      const now = this.stackOf(key);
      const was = this.held.get(key);
      if (was === now || (was === undefined && now === null)) continue;
      if (was !== undefined) this.root = this.remove(this.root, was);
      if (now === null) this.held.delete(key);
      else {
        if (!Number.isSafeInteger(now) || now < 0) throw new RangeError(`a stack is a whole number of chips, not ${now}`);
        this.held.set(key, now);
        this.root = this.insert(this.root, now);
      }
    }
    this.touched.clear();
  }

  private nextPriority(): number {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return this.seed;
  }

  private insert(n: Node | null, stack: number): Node {
    if (n === null) return { stack, count: 1, total: 1, priority: this.nextPriority(), left: null, right: null };
    if (stack === n.stack) {
      n.count++;
      n.total++;
      return n;
    }
    if (stack < n.stack) {
      n.left = this.insert(n.left, stack);
      update(n);
      return n.left.priority > n.priority ? rotateRight(n) : n;
    }
    n.right = this.insert(n.right, stack);
    update(n);
    return n.right.priority > n.priority ? rotateLeft(n) : n;
  }

  private remove(n: Node | null, stack: number): Node | null {
    if (n === null) throw new Error(`the order of stacks holds no ${stack}`);
    if (stack < n.stack) n.left = this.remove(n.left, stack);
    else if (stack > n.stack) n.right = this.remove(n.right, stack);
    else if (n.count > 1) n.count--;
    else return this.merge(n.left, n.right);
    return update(n);
  }

  /** Joins two subtrees, every stack of `a` below every stack of `b`. */
  private merge(a: Node | null, b: Node | null): Node | null {
    if (a === null) return b;
    if (b === null) return a;
    if (a.priority > b.priority) {
      a.right = this.merge(a.right, b);
      return update(a);
    }
    b.left = this.merge(a, b.left);
    return update(b);
  }
}
