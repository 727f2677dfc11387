/**
 * Time for the tables (action clock, time bank, disconnection grace, pauses between hands), injectable
 * so that tests run a two-minute grace period in a millisecond: `realTimers` in production,
 * `ManualTimers` in tests, advanced by hand.
 */

export interface TimerHandle {
  readonly id: number;
}

export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds (0: as soon as the current work is done). */
  set(fn: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle | null): void;
}

/**
 * Node's timers. Zero-delay work (the next practice decision, the next hand) goes into one queue that
 * is drained in slices of at most `sliceMs` per turn of the event loop: busy tables share the loop
 * fairly, and sockets are read between slices, so people's actions never wait behind a hundred
 * practice tables.
 */
export function realTimers(sliceMs = 2): Timers {
  let next = 1;
  const delayed = new Map<number, NodeJS.Timeout>();
  let queue: { id: number; fn: (() => void) | null }[] = [];
  let head = 0;
  const queued = new Map<number, { id: number; fn: (() => void) | null }>();
  let scheduled = false;
  const drain = (): void => {
    const end = performance.now() + sliceMs;
    try {
      while (head < queue.length) {
        const task = queue[head++];
        queued.delete(task.id);
        if (task.fn) task.fn();
        if (performance.now() >= end) break;
      }
    } finally {
      if (head >= queue.length) {
        queue = [];
        head = 0;
        scheduled = false;
      } else {
        if (head > 1024) {
          queue = queue.slice(head);
          head = 0;
        }
        setImmediate(drain);
      }
    }
  };
  return {
    now: () => Date.now(),
    set(fn, ms) {
      const id = next++;
      if (ms <= 0) {
        const task = { id, fn };
        queue.push(task);
        queued.set(id, task);
        if (!scheduled) {
          scheduled = true;
          setImmediate(drain);
        }
      } else {
        delayed.set(
          id,
          setTimeout(() => {
            delayed.delete(id);
            fn();
          }, ms),
        );
      }
      return { id };
    },
    clear(h) {
      if (h === null) return;
      const task = queued.get(h.id);
      if (task) {
        task.fn = null;
        queued.delete(h.id);
        return;
      }
      const t = delayed.get(h.id);
      if (t !== undefined) {
        clearTimeout(t);
        delayed.delete(h.id);
      }
    },
  };
}

/** Test time: nothing fires until `advance` (or `runDue`) is called; timers fire in time order. */
export class ManualTimers implements Timers {
  private time: number;
  private seq = 1;
  private pending: { id: number; at: number; order: number; fn: () => void }[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  set(fn: () => void, ms: number): TimerHandle {
    const id = this.seq++;
    this.pending.push({ id, at: this.time + Math.max(0, ms), order: id, fn });
    return { id };
  }

  clear(h: TimerHandle | null): void {
    if (h !== null) this.pending = this.pending.filter((p) => p.id !== h.id);
  }

  /** Timers waiting. */
  get size(): number {
    return this.pending.length;
  }

  /** Moves time forward by `ms`, firing every timer due on the way (including those they set). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.nextDue(end);
      if (due === null) break;
      this.time = Math.max(this.time, due.at);
      this.pending = this.pending.filter((p) => p !== due);
      due.fn();
    }
    this.time = end;
  }

  /** Fires what is due now (zero-delay work), repeatedly, at most `limit` timers. */
  runDue(limit = 1_000_000): number {
    let n = 0;
    for (; n < limit; n++) {
      const due = this.nextDue(this.time);
      if (due === null) break;
      this.pending = this.pending.filter((p) => p !== due);
      due.fn();
    }
    return n;
  }

  private nextDue(until: number) {
    let best: (typeof this.pending)[number] | null = null;
    for (const p of this.pending) if (p.at <= until && (best === null || p.at < best.at || (p.at === best.at && p.order < best.order))) best = p;
    return best;
  }
}

/**
 * Real timers running `speed` times faster (tests over real sockets: a 15 s action clock passes in
 * 15 ms at speed 1000). `now()` advances at the same pace, so remaining times shown stay consistent.
 */
export function scaledTimers(speed: number): Timers {
  const inner = realTimers();
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * speed,
    set: (fn, ms) => inner.set(fn, ms <= 0 ? 0 : Math.max(1, Math.round(ms / speed))),
    clear: (h) => inner.clear(h),
  };
}
