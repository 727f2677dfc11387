/**
 * Per-connection rate limit: a token bucket. Each message takes a token; tokens come back at
 * `perSecond` up to `burst`. A message without a token is answered `RATE_LIMITED` and not processed;
 * a connection that keeps going far past its allowance (`abuse` refused messages within a refill of
 * the bucket) is closed.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
  /** Refused messages in a row (without the bucket refilling) after which the connection is closed. */
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
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refused = 0;
      return 'ok';
    }
    this.refused++;
    return this.refused > this.limit.abuse ? 'close' : 'refuse';
  }
}
