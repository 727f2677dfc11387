/**
 * The prize pool and its payout (R-TOURN-RUN, R-TOURN-STRUCTURE): what is paid, to how many places,
 * exactly in integer units (cents or play chips) with a written remainder rule, so the prizes always
 * add up to the pool (R-CONSERVE). docs/tournaments.md states the same rules in words.
 */

/** Basis points in a whole: payout shares are integers out of 10,000. */
export const WHOLE = 10_000;

/**
 * A payout structure as data (R-TOURN-STRUCTURE): how many places a field pays and how the pool is
 * shared among them. A tournament's structure names one (`TournamentStructure.payouts`); without it,
 * {@link STANDARD_PAYOUTS}. `operator payouts` prints the table of any field (operators publish them).
 */
export interface PayoutPlan {
  /** A short name: what `operator payouts --structure` takes. */
  readonly name: string;
  /**
   * Small fields: up to `upTo` entrants, these shares of the pool in basis points (10,000 = all),
   * best place first, never rising; the first band that holds the field applies.
   */
  readonly fixed: readonly { readonly upTo: number; readonly shares: readonly number[] }[];
  /** Larger fields: this many per mille of the field are paid, rounded up (150: 15 %). */
  readonly paidPerMille: number;
  /** Larger fields: every paid place gets at least this many tenths of one entry's part of the pool (15: 1.5 entries). */
  readonly minCashTenths: number;
}

/**
 * The standard payouts: 1 place up to 3 entrants (heads-up), 65/35 up to 6 (6-max sit & go),
 * 50/30/20 up to 20 (a full ring or two), then 15 % of the field, each paid place at least 1.5
 * entries, the rest in proportion to 1/place (the harmonic spread: 1st twice 2nd, three times 3rd…).
 */
export const STANDARD_PAYOUTS: PayoutPlan = {
  name: 'standard',
  fixed: [
    { upTo: 3, shares: [WHOLE] },
    { upTo: 6, shares: [6500, 3500] },
    { upTo: 20, shares: [5000, 3000, 2000] },
  ],
  paidPerMille: 150,
  minCashTenths: 15,
};

/** The payout structures an operator may name. */
export const PAYOUT_PLANS: Readonly<Record<string, PayoutPlan>> = { standard: STANDARD_PAYOUTS };

/** The most entrants a payout is computed for (the largest field an operator runs, with room). */
export const MAX_ENTRANTS = 1_000_000;

/** Checks a payout plan: the refusal says what is wrong. */
export function validatePayoutPlan(p: PayoutPlan): { ok: true } | { ok: false; reason: string } {
  const no = (reason: string) => ({ ok: false as const, reason });
  if (p === null || typeof p !== 'object') return no('a payout plan is an object');
  if (typeof p.name !== 'string' || !/^[a-z0-9-]{1,40}$/.test(p.name)) return no('a name of 1 to 40 lower-case letters, digits or hyphens');
  if (!Array.isArray(p.fixed)) return no('fixed: a list of bands');
  let upTo = 1;
  for (const b of p.fixed) {
    if (!Number.isSafeInteger(b.upTo) || b.upTo <= upTo) return no('fixed: bands in increasing order of entrants, from 2');
    // Fewer places than the band's smallest field (`upTo` of the band before, plus one).
    if (!Array.isArray(b.shares) || b.shares.length < 1 || b.shares.length > upTo) return no(`fixed up to ${b.upTo}: fewer places than entrants`);
    const shares: readonly number[] = b.shares;
    if (shares.some((x, i) => !Number.isSafeInteger(x) || x < 1 || (i > 0 && x > shares[i - 1]))) return no(`fixed up to ${b.upTo}: whole positive shares, never rising`);
    if (shares.reduce((a, x) => a + x, 0) !== WHOLE) return no(`fixed up to ${b.upTo}: the shares add up to ${WHOLE}`);
    upTo = b.upTo;
  }
  if (!Number.isSafeInteger(p.paidPerMille) || p.paidPerMille < 1 || p.paidPerMille > 500) return no('paidPerMille: from 1 to 500 (at most half the field paid)');
  // Every place at least `minCashTenths` of an entry, over at most half the field: at most the whole pool.
  if (!Number.isSafeInteger(p.minCashTenths) || p.minCashTenths < 10 || p.minCashTenths * p.paidPerMille > 10_000) return no('minCashTenths: at least 10 (the buy-in back), and the least prizes together within the pool');
  return { ok: true };
}

/** Paid places for a field of `entrants` under `plan`. */
export function paidPlaces(entrants: number, plan: PayoutPlan = STANDARD_PAYOUTS): number {
  if (!Number.isSafeInteger(entrants) || entrants < 1) return 0;
  const band = plan.fixed.find((b) => entrants <= b.upTo);
  if (band) return band.shares.length;
  return Math.ceil((entrants * plan.paidPerMille) / 1000);
}

/**
 * The weight of place i (1-based) in the harmonic spread: SPREAD_UNIT ÷ i, rounded down; integers, so
 * the split is exact. SPREAD_UNIT = 2^15 × lcm(1..23) (about 2^47.3): a multiple of every place up to
 * 23, so a table of up to 23 places is the harmonic spread to the unit (21 entrants: 7,200, 3,600,
 * 2,400, 1,800 of the rest); deeper places lose less than 2^-47 of their weight to the rounding.
 */
const SPREAD_UNIT = 2 ** 15 * 5_354_228_880;

/**
 * The prizes of a pool of `pool` units (cents, or play chips) among `entrants` under `plan`, best
 * place first: whole units, adding up to the pool exactly, never rising from one place to the next.
 * - a fixed band: `prizes(pool, shares)`;
 * - a larger field: `places` = the paid share of the field, rounded up; each place gets the least
 *   prize, `minCashTenths` tenths of `pool ÷ entrants`, rounded down; the rest is shared in proportion
 *   to the weights SPREAD_UNIT ÷ place (rounded down: the harmonic spread in integers), each share rounded
 *   down, and the units left by those roundings (fewer than the places) go one each to the places
 *   from 1st.
 * A pool too small to give every place at least one unit pays as many places as it can give one to
 * (each place's figure computed again for that many).
 */
export function payout(pool: number, entrants: number, plan: PayoutPlan = STANDARD_PAYOUTS): number[] {
  if (!Number.isSafeInteger(pool) || pool < 0) throw new RangeError('the pool is a whole, non-negative amount');
  if (!Number.isSafeInteger(entrants) || entrants < 0 || entrants > MAX_ENTRANTS) throw new RangeError(`from 0 to ${MAX_ENTRANTS} entrants`);
  // No field yet (a tournament's details before its first registration): no place paid.
  if (entrants === 0) return [];
  const band = plan.fixed.find((b) => entrants <= b.upTo);
  if (band) return prizes(pool, band.shares);
  if (last && last.pool === pool && last.entrants === entrants && last.plan === plan) return last.prizes.slice();
  let places = Math.min(paidPlaces(entrants, plan), entrants);
  let out: number[];
  for (;;) {
    out = spread(pool, entrants, places, plan.minCashTenths);
    const paid = out.indexOf(0);
    if (paid === -1 || places === 1) break;
    places = Math.max(1, paid);
  }
  last = { pool, entrants, plan, prizes: out };
  return out.slice();
}

/** The last large field's payout: asked again with every standing while the field and pool stand still. */
let last: { pool: number; entrants: number; plan: PayoutPlan; prizes: number[] } | null = null;

function spread(pool: number, entrants: number, places: number, minCashTenths: number): number[] {
  let least = Number((BigInt(pool) * BigInt(minCashTenths)) / (10n * BigInt(entrants)));
  if (least * places > pool) least = Math.floor(pool / places);
  const rest = pool - least * places;
  const weights = new Array<number>(places);
  let total = 0; // < 2^47.3 × H(1,000,000) < 2^53: exact
  for (let i = 0; i < places; i++) total += weights[i] = Math.floor(SPREAD_UNIT / (i + 1));
  const out = new Array<number>(places);
  let given = 0;
  for (let i = 0; i < places; i++) {
    // floor(rest × w ÷ total), exact: in floating point, and in BigInt where the float lies too near
    // a whole number to be sure which side it is on.
    const x = (rest * weights[i]) / total;
    let q = Math.floor(x);
    const eps = x * 1e-12 + 1e-9;
    if (x - q < eps || q + 1 - x < eps) q = Number((BigInt(rest) * BigInt(weights[i])) / BigInt(total));
    out[i] = least + q;
    given += out[i];
  }
  for (let i = 0, left = pool - given; left > 0; i++, left--) out[i] += 1;
  return out;
}

/**
 * The prizes of a pool, in units, best place first: `pool × share / 10,000` rounded down, then the
 * units left by the rounding one at a time to the places in order from 1st (the written remainder
 * rule), so the prizes add up to the pool exactly.
 */
export function prizes(pool: number, table: readonly number[]): number[] {
  if (!Number.isSafeInteger(pool) || pool < 0) throw new RangeError('the pool is a whole, non-negative amount');
  if (table.length === 0) return [];
  const out = table.map((bp) => Math.floor((pool * bp) / WHOLE));
  let left = pool - out.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % out.length, left--) out[i]++;
  return out;
}

/** What the prize pool is made of (money in units). */
export interface PoolParts {
  readonly entries: number;
  /** The part of each entry that goes to the prize pool (the fee goes to the operator). */
  readonly buyIn: number;
  readonly rebuys?: number;
  readonly rebuyPrice?: number;
  readonly addOns?: number;
  readonly addOnPrice?: number;
  /** The part of each buy-in put on the player's head (bounty tournaments): not in the prize pool. */
  readonly bounty?: number;
  /** A guaranteed prize pool: the operator pays the difference (the overlay). */
  readonly guarantee?: number;
}

/** The prize pool and the operator's overlay: buy-ins (less bounties), rebuys and add-ons; at least the guarantee. */
export function prizePool(p: PoolParts): { pool: number; collected: number; overlay: number } {
  const collected = p.entries * (p.buyIn - (p.bounty ?? 0)) + (p.rebuys ?? 0) * (p.rebuyPrice ?? 0) + (p.addOns ?? 0) * (p.addOnPrice ?? 0);
  const pool = Math.max(collected, p.guarantee ?? 0);
  return { pool, collected, overlay: pool - collected };
}

/**
 * Places shared by players eliminated on the same hand with the same starting stack (T 8-16 ranks
 * by that stack; equal stacks tie): the prizes of the places they cover, `prizes[first .. first+n-1]`
 * (places past the paid ones pay 0), added up and split equally; the units left one each to the
 * players in the order given (the operator gives them in seat order from the button's left).
 */
export function sharedPrizes(all: readonly number[], first: number, players: number): number[] {
  let total = 0;
  for (let k = first; k < first + players; k++) total += all[k] ?? 0;
  const each = Math.floor(total / players);
  const out = new Array<number>(players).fill(each);
  for (let k = 0; k < total - each * players; k++) out[k]++;
  return out;
}

/**
 * A satellite's prizes (T 1-5): as many seats in the target tournament as the pool pays for (a seat
 * is worth the target's full entry, buy-in and fee); what is left over goes in cash to the next place.
 */
export function satellitePrizes(pool: number, seatValue: number): { seats: number; cash: number } {
  if (!Number.isSafeInteger(seatValue) || seatValue < 1) throw new RangeError('a seat is worth a whole, positive amount');
  const seats = Math.floor(pool / seatValue);
  return { seats, cash: pool - seats * seatValue };
}

/**
 * A bounty collected by the winners of the pot that eliminated its player: split equally, the units
 * left one each to the winners in the order given (seat order from the button's left, as R-ODDCHIP).
 */
export function bountyShares(bounty: number, winners: number): number[] {
  if (winners < 1) return [];
  const each = Math.floor(bounty / winners);
  const out = new Array<number>(winners).fill(each);
  for (let k = 0; k < bounty - each * winners; k++) out[k]++;
  return out;
}
