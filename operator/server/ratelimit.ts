/**
 * Rate limits of the wire.
 *
 * Per connection, a token bucket: each message takes a token; tokens come back at `perSecond` up to
 * `burst`. A message without a token is answered `RATE_LIMITED` and not processed; a connection that
 * keeps going far past its allowance (`abuse` refused messages before its bucket is full again, i.e.
 * before it stopped for `burst / perSecond` seconds) is closed.
 *
 * Per address and overall, {@link KeyedBuckets}: account creation (guests and registrations), so one
 * address cannot mint accounts (and their welcome play chips) without end.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
  /** Refused messages, counted until the bucket is full again, after which the connection is closed. */
  abuse: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 40, burst: 200, abuse: 2000 };

export class TokenBucket {
  private tokens: number;
  private last: number;
  private refused = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number,
  ) {
    this.tokens = limit.burst;
    this.last = now();
  }

  /** `ok`: go ahead; `refuse`: answer RATE_LIMITED; `close`: drop the connection. */
  take(): 'ok' | 'refuse' | 'close' {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.last) * this.limit.perSecond) / 1000);
    this.last = t;
    // Only a bucket full again (the client paused) forgives the refusals: a token earned back every
    // 1/perSecond while flooding does not (the counter used to reset on each token,
    // so a steady flood was never closed).
    if (this.tokens >= this.limit.burst) this.refused = 0;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 'ok';
    }
    this.refused++;
    return this.refused > this.limit.abuse ? 'close' : 'refuse';
  }
}

/** A bucket of `burst` tokens refilled at `perHour`. */
export interface Allowance {
  burst: number;
  perHour: number;
}

/** Account creation (guest or registration): per address and overall. */
export interface SignupLimit {
  perAddress: Allowance;
  global: Allowance;
}

/**
 * 20 accounts at once from one address, then one every 3 minutes (a family or a café behind one NAT
 * still gets in; a script gets 20); 200 at once overall, then 2 a second (7,200 an hour: far above
 * what a launch brings, far below what 600 in 41 s from one script would make).
 */
export const DEFAULT_SIGNUP_LIMIT: SignupLimit = { perAddress: { burst: 20, perHour: 20 }, global: { burst: 200, perHour: 7200 } };

/**
 * Token buckets by key (a client address), created on first use and dropped once full again, so memory
 * follows the addresses active in the last refill period.
 */
export class KeyedBuckets {
  private readonly buckets = new Map<string, { tokens: number; last: number }>();

  constructor(
    private readonly allowance: Allowance,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until `key` has a token (0: now). */
  wait(key: string): number {
    const b = this.current(key);
    return b.tokens >= 1 ? 0 : Math.ceil(((1 - b.tokens) * 3_600_000) / this.allowance.perHour);
  }

  /** Takes a token for `key` (call after {@link wait} said 0). */
  take(key: string): void {
    const b = this.current(key);
    b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 4096) for (const k of [...this.buckets.keys()]) if (this.current(k).tokens >= this.allowance.burst) this.buckets.delete(k);
  }

  private current(key: string): { tokens: number; last: number } {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.allowance.burst, last: t };
    b.tokens = Math.min(this.allowance.burst, b.tokens + ((t - b.last) * this.allowance.perHour) / 3_600_000);
    b.last = t;
    return b;
  }
}
