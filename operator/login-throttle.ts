/**
 * Login attempts rate-limited (docs/security.md "Lock-out"): failure counters per key (an account and
 * address, an address, an account anywhere) with an exponential lock-out, in memory (a restart clears
 * them); and the key a client address is counted under. Used by accounts.ts (login), and by the
 * server's gate and the tables, which key addresses the same way (R-NOBOT: one address per table).
 */
import { isIP } from 'node:net';

/** Login throttling policy. */
export interface ThrottlePolicy {
  /** Failures on one account from one address (IPv6 /64) that lock that address out of the account (the 5th, by default). */
  readonly accountMaxFailures: number;
  /**
   * Failures on one account from all addresses that lock it for every address it has not signed in
   * from (a distributed guess); higher, so that one address cannot reach it alone.
   */
  readonly accountGlobalMaxFailures: number;
  /** Failures from one address (or IPv6 /64) that lock it; higher, as many players may share one address (NAT). */
  readonly ipMaxFailures: number;
  /** First lock-out; each further failure doubles it. */
  readonly baseLockMs: number;
  /** Longest lock-out. */
  readonly maxLockMs: number;
  /** Failure counts are forgotten this long after the last failure. */
  readonly forgetAfterMs: number;
}

/**
 * Default policy: 5 failures per account and address, 20 per address, 50 per account from anywhere,
 * then 30 s doubling up to 1 h; forgotten after 24 h.
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  accountMaxFailures: 5,
  accountGlobalMaxFailures: 50,
  ipMaxFailures: 20,
  baseLockMs: 30_000,
  maxLockMs: 3_600_000,
  forgetAfterMs: 86_400_000,
};

/**
 * The key a client address is throttled under: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its
 * /64 prefix, since one subscriber usually holds a whole /64.
 */
export function addressKey(ip: string): string | null {
  let a = ip.trim();
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  const family = isIP(a);
  if (family === 4) return a;
  if (family !== 6) return null;
  const parts = a.toLowerCase().split('%')[0].split('::');
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for two groups; it lies outside the /64.
  const groupsOf = (s: string | undefined) => (s ? s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const h = groupsOf(parts[0]);
  const t = parts.length > 1 ? groupsOf(parts[1]) : [];
  const groups = [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':') + '::/64';
}

interface Counter {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

/** In-memory failure counters with exponential lock-out. */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();
  private calls = 0;

  constructor(
    private readonly policy: ThrottlePolicy,
    private readonly clock: () => number,
  ) {}

  /** Milliseconds until `key` may try again (0 when it may now). */
  retryAfter(key: string): number {
    const c = this.current(key);
    return c ? Math.max(0, c.lockedUntil - this.clock()) : 0;
  }

  /** Counts a failure; from the `max`-th failure on, the key is locked for base × 2^(failures - max), capped. */
  fail(key: string, max: number): void {
    const now = this.clock();
    const c = this.current(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    c.failures += 1;
    c.lastFailure = now;
    const excess = c.failures - max;
    if (excess >= 0) {
      const lock = Math.min(this.policy.maxLockMs, this.policy.baseLockMs * 2 ** Math.min(excess, 40));
      c.lockedUntil = now + lock;
    }
    this.counters.set(key, c);
    if (++this.calls % 1024 === 0) this.sweep();
  }

  clear(key: string): void {
    this.counters.delete(key);
  }

  private current(key: string): Counter | undefined {
    const c = this.counters.get(key);
    if (c && this.clock() - c.lastFailure >= this.policy.forgetAfterMs && this.clock() >= c.lockedUntil) {
      this.counters.delete(key);
      return undefined;
    }
    return c;
  }

  /** Drops forgotten counters so memory stays bounded by recent failures. */
  private sweep(): void {
    for (const key of [...this.counters.keys()]) this.current(key);
  }
}

