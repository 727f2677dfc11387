/**
 * The payment provider behind the cashier (R-CASHIER: "through a payment-provider interface; a test
 * provider that needs no network ships with the product"). The cashier (cashier.ts) records each
 * payment in the operator database before it asks the provider anything, and only moves money in the
 * ledger once the provider confirmed; the provider itself keeps no state the cashier relies on.
 *
 * A provider is asked three things:
 * - `tokenize`: turns the card number the player typed into a token the operator may store, and the
 *   last four digits it shows; the number itself is never stored;
 * - `pay`: a deposit (charge the card) or a withdrawal (pay out to it), named by the operator's own
 *   reference (`paymentId`, the merchant reference): it answers confirmed, declined, or pending (the
 *   provider will confirm later), or does not answer in time (the cashier gives up: a timeout);
 * - `status`: what became of a payment, by the same reference; asked for every pending payment at
 *   start and at intervals, so a confirmation that comes late, even after a restart, lands (once).
 */

/** The operator's side of one payment, as the provider is told it. */
export interface PaymentRequest {
  /** The operator's reference of the payment (the merchant reference), unique and stable. */
  readonly paymentId: string;
  readonly direction: 'deposit' | 'withdrawal';
  /** Integer cents. */
  readonly amount: number;
  readonly cardToken: string;
  /** When the operator recorded the payment (ms since the epoch). */
  readonly createdAt: number;
}

/** What the provider says of a payment. `ref` is the provider's own reference, once it gave one. */
export type ProviderAnswer =
  | { readonly state: 'confirmed'; readonly ref: string }
  | { readonly state: 'pending'; readonly ref: string }
  | { readonly state: 'declined'; readonly ref: string | null; readonly reason: string };

export type TokenizeResult = { readonly ok: true; readonly token: string; readonly last4: string } | { readonly ok: false; readonly message: string };

export interface PaymentProvider {
  /** Stored with each payment (which provider holds it). */
  readonly name: string;
  tokenize(cardNumber: string): TokenizeResult;
  /** Asks for the payment; `signal` aborts when the cashier stops waiting (timeout, shutdown). */
  pay(request: PaymentRequest, signal: AbortSignal): Promise<ProviderAnswer>;
  /** What became of a payment asked for earlier (`ref` null when its answer never came). */
  status(request: PaymentRequest & { readonly ref: string | null }): Promise<ProviderAnswer>;
}

/**
 * The test cards of the test provider (docs/protection.md "Test cards"). Numbers that pass the Luhn
 * check, in the range card networks keep for tests, so no real card is ever one of them.
 */
export const TEST_CARDS = {
  /** Confirmed at once. */
  succeeds: '4242424242424242',
  /** Declined at once: nothing moves. */
  declined: '4000000000000002',
  /** Never answered: the cashier gives up after its timeout and records the payment failed; nothing moves. */
  timesOut: '4000000000000119',
  /** Answered pending, confirmed `lateMs` after the payment was recorded (asked again by `status`). */
  late: '4000000000003220',
} as const;

/** The Luhn checksum of a card number (ISO/IEC 7812). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface TestProviderOptions {
  /** Milliseconds since the epoch (the operator's clock). */
  readonly clock?: () => number;
  /** How long after it was recorded the `late` card's payment is confirmed (default 60 s). */
  readonly lateMs?: number;
}

/**
 * The provider for tests and the embedded operator: no network, deterministic by card. Stateless: what
 * it answers follows from the card and the payment's recorded time, as a real provider's answer
 * follows from its own books, so it answers the same after the operator restarts.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  private readonly clock: () => number;
  private readonly lateMs: number;

  constructor(options: TestProviderOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.lateMs = options.lateMs ?? 60_000;
  }

  tokenize(cardNumber: string): TokenizeResult {
    const digits = typeof cardNumber === 'string' ? cardNumber.replace(/[\s-]/g, '') : '';
    if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) return { ok: false, message: 'a card number has 13 to 19 digits and a valid check digit' };
    // Test card numbers are public, so the token may name the card; a real provider's token does not.
    return { ok: true, token: `test:${digits}`, last4: digits.slice(-4) };
  }

  pay(request: PaymentRequest, signal: AbortSignal): Promise<ProviderAnswer> {
    const card = request.cardToken.replace(/^test:/, '');
    const ref = `test-${request.direction}-${request.paymentId}`;
    if (card === TEST_CARDS.timesOut) {
      // Never answers; gives up when the cashier does.
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    return Promise.resolve(this.answer(card, ref, request.createdAt));
  }

  status(request: PaymentRequest & { readonly ref: string | null }): Promise<ProviderAnswer> {
    const card = request.cardToken.replace(/^test:/, '');
    const ref = request.ref ?? `test-${request.direction}-${request.paymentId}`;
    // A payment the provider never answered was never made.
    if (card === TEST_CARDS.timesOut) return Promise.resolve({ state: 'declined', ref: null, reason: 'no such payment' });
    return Promise.resolve(this.answer(card, ref, request.createdAt));
  }

  private answer(card: string, ref: string, createdAt: number): ProviderAnswer {
    if (card === TEST_CARDS.succeeds) return { state: 'confirmed', ref };
    if (card === TEST_CARDS.late) return this.clock() >= createdAt + this.lateMs ? { state: 'confirmed', ref } : { state: 'pending', ref };
    if (card === TEST_CARDS.declined) return { state: 'declined', ref, reason: 'card declined' };
    return { state: 'declined', ref, reason: 'not a test card: the test provider moves no real money' };
  }
}
