/**
 * The cashier and the player-protection duties on the wire (SPEC §2b; docs/protocol.md,
 * docs/protection.md): registration with the holder's identity (R-AGE, R-BANNED, R-ONEACCOUNT), deposits,
 * withdrawals and the list of payments (R-CASHIER), the self-set limits with their pending raises and
 * counters (R-LIMITS, R-TIMELIMIT), self-exclusion (R-EXCLUDE), the playing-time warnings. The
 * variants here join the message unions in messages.ts; the refusal codes join codes.ts. Pure.
 *
 * Amounts are integer cents; times are milliseconds since the epoch; playing time and its limit are
 * milliseconds.
 */
import { arr, bool, int, nullable, obj, oneOf, str, type Infer } from '../validate';
import { amount, millis, union } from './schema';

const rid = int({ min: 0, max: 2 ** 31 - 1 });

/** Refusal codes of this part of the wire (added to ERROR_CODES, codes.ts). */
export const PROTECTION_ERROR_CODES = [
  'INVALID_IDENTITY', // registration: a name or date of birth that is not one
  'UNDER_AGE', // R-AGE: under 18 (French time)
  'BANNED', // R-BANNED: this identity is on the national file of gambling bans
  'IDENTITY_TAKEN', // R-ONEACCOUNT: this person already holds an account (sign in with it; support if forgotten)
  'IDENTITY_REQUIRED', // real money needs an account registered with its holder's identity
  'ACCOUNT_CLOSED', // R-BANNED, R-EXCLUDE: banned holder, closed by the player, permanent exclusion; withdrawal and history only
  'SELF_EXCLUDED', // R-EXCLUDE: `details.until` (null: permanent)
  'LIMIT_NOT_SET', // R-LIMITS, R-TIMELIMIT: `details.limitKind` must be set first (no default)
  'DEPOSIT_LIMIT', // R-LIMITS: `details.limit`, `details.used`, `details.freeAt` (null: only a higher limit would do)
  'STAKE_LIMIT', // R-LIMITS: same details
  'TIME_LIMIT_REACHED', // R-TIMELIMIT: `details.freeAt` is the end of the period
  'INVALID_LIMIT',
  'EXCLUSION_TOO_SHORT', // R-EXCLUDE: at least 7 days
  'EXCLUSION_CANNOT_SHORTEN', // R-EXCLUDE: `details.until` of the exclusion in force
  'INVALID_CARD',
  'INVALID_AMOUNT',
  'REQUEST_REUSED', // a payment request id already used for another payment
  'MONEY_AT_TABLE', // R-CASHIER: no withdrawal while money is at a real-money table (`details.atTables`)
  'FUNDS_RESERVED', // a pending withdrawal holds this money
] as const;

export const limitKind = oneOf('deposit', 'stake', 'time');
/** Why an account is closed (R-BANNED, R-EXCLUDE). */
export const closedReason = oneOf('banned', 'closed-by-player', 'excluded-permanently');

/** What a protection or cashier refusal tells the player beyond its code (the `details` of `error`). */
export const protectionDetailsSchema = obj(
  {
    limitKind,
    limit: amount,
    used: amount,
    freeAt: nullable(millis),
    until: nullable(millis),
    withdrawable: amount,
    atTables: amount,
  },
  ['limitKind', 'limit', 'used', 'freeAt', 'until', 'withdrawable', 'atTables'],
);
export type ProtectionDetails = Infer<typeof protectionDetailsSchema>;

/** The holder of a real-money account (R-AGE, R-BANNED); the operator checks the forms. */
export const identitySchema = obj({
  lastName: str({ min: 1, max: 100 }),
  firstNames: str({ min: 1, max: 100 }),
  birthDate: str({ min: 10, max: 10, pattern: /^\d{4}-\d{2}-\d{2}$/ }),
});

/** A card number as typed (digits, spaces, hyphens); the operator's provider checks and tokenises it. */
export const card = str({ min: 12, max: 30, pattern: /^[0-9 -]+$/ });
/** The client's id of a payment request: a repeat is answered with the payment first recorded. */
export const requestId = str({ min: 1, max: 64, pattern: /^[\x21-\x7e]+$/ });
export const paymentRef = str({ min: 1, max: 40, pattern: /^cercle-\d+$/ });

export const exclusionChoiceSchema = union<{ kind: 'days'; days: 7 | 30 | 90 } | { kind: 'until'; until: number } | { kind: 'permanent' }>('kind', {
  days: obj({ kind: oneOf('days'), days: oneOf(7, 30, 90) }),
  until: obj({ kind: oneOf('until'), until: millis }),
  permanent: obj({ kind: oneOf('permanent') }),
});

/** `identity` absent: a play-money account (SPEC §2b: play money is exempt), like a guest. */
export const registerMessage = obj(
  { type: oneOf('register'), rid, username: str({ min: 1, max: 64 }), password: str({ min: 1, max: 256 }), identity: identitySchema },
  ['identity'],
);

export const cashierClientVariants = {
  'cashier.deposit': obj({ type: oneOf('cashier.deposit'), rid, requestId, amount, card }),
  'cashier.withdraw': obj({ type: oneOf('cashier.withdraw'), rid, requestId, amount, card }),
  /** Newest first; `before` pages back from a payment. */
  'cashier.movements': obj({ type: oneOf('cashier.movements'), rid, before: nullable(paymentRef), limit: int({ min: 1, max: 200 }) }),
  'protection.get': obj({ type: oneOf('protection.get'), rid }),
  'protection.setLimit': obj({ type: oneOf('protection.setLimit'), rid, limit: limitKind, value: int({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
  /** R-EXCLUDE: the client asks twice; the request says it did (`confirm: true`). */
  'protection.exclude': obj({ type: oneOf('protection.exclude'), rid, choice: exclusionChoiceSchema, confirm: oneOf(true) }),
  /** R-EXCLUDE: the player closes their account for good; asked twice like a self-exclusion. */
  'account.close': obj({ type: oneOf('account.close'), rid, confirm: oneOf(true) }),
};

export const paymentSchema = obj({
  paymentId: paymentRef,
  requestId,
  direction: oneOf('deposit', 'withdrawal'),
  amount,
  cardLast4: str({ min: 4, max: 4, pattern: /^\d{4}$/ }),
  provider: str({ min: 1, max: 40 }),
  providerRef: nullable(str({ min: 1, max: 200 })),
  state: oneOf('pending', 'confirmed', 'failed'),
  failure: nullable(str({ min: 1, max: 300 })),
  createdAt: millis,
  updatedAt: millis,
});
export type PaymentWire = Infer<typeof paymentSchema>;

const selfLimitSchema = nullable(obj({ value: amount, pending: nullable(obj({ value: amount, from: millis })) }));
const period = obj({ from: millis, to: millis });

/** The "Jeu responsable" page's data. */
export const protectionViewSchema = obj({
  at: millis,
  /** Null: not set yet, and no default (art. 16, 16-1). */
  limits: obj({ deposit: selfLimitSchema, stake: selfLimitSchema, time: selfLimitSchema }),
  counters: obj({ deposits: amount, stakes: amount, timeUsedMs: millis, period: nullable(period) }),
  exclusion: nullable(obj({ from: millis, until: nullable(millis) })),
  /** Why the account is closed (withdrawal and history only): `banned`, `closed-by-player`, `excluded-permanently`. */
  closed: nullable(str({ min: 1, max: 40 })),
  /** Registered with a checked identity: may play for real money. */
  identified: bool,
  /** Cents the player may withdraw now. */
  withdrawable: amount,
});
export type ProtectionViewWire = Infer<typeof protectionViewSchema>;

const balances = obj({ real: amount, play: amount });

export const cashierServerVariants = {
  /** The payment after a deposit or withdrawal request: confirmed, failed (with why), or pending. */
  'cashier.payment': obj({ type: oneOf('cashier.payment'), rid, payment: paymentSchema, replayed: bool, balances, withdrawable: amount }),
  'cashier.movements': obj({ type: oneOf('cashier.movements'), rid, payments: arr(paymentSchema, { max: 200 }), next: nullable(paymentRef) }),
  protection: obj({ type: oneOf('protection'), rid, protection: protectionViewSchema }),
  /** R-TIMELIMIT (art. 16-1): a warning the client shows as a dialog that needs a click. */
  'protection.warning': obj({ type: oneOf('protection.warning'), warning: oneOf('near', 'ten-minutes', 'reached'), usedMs: millis, limitMs: millis, periodEnd: millis }),
  /**
   * R-BANNED, R-EXCLUDE: the account was just closed (a new ban file found its holder banned, or the
   * player closed it or excluded themselves permanently), told unasked: play and deposits stop.
   */
  'account.closed': obj({ type: oneOf('account.closed'), reason: closedReason }),
};
