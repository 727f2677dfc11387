/**
 * The prize pool and its payout (R-TOURN-RUN, R-TOURN-STRUCTURE): what is paid, to how many places,
 * exactly in integer units (cents or play chips) with a written remainder rule, so the prizes always
 * add up to the pool (R-CONSERVE). docs/tournaments.md states the same rules in words.
 */

/** Basis points in a whole: payout shares are integers out of 10,000. */
export const WHOLE = 10_000;

/**
 * Paid places for a field: one place up to 3 entrants (heads-up), two up to 6 (6-max sit & go), three
 * up to 20 (a full ring or two), then about 15 % of the field, rounded up.
 */
export function paidPlaces(entrants: number): number {
  if (!Number.isSafeInteger(entrants) || entrants < 1) return 0;
  if (entrants <= 3) return 1;
  if (entrants <= 6) return 2;
  if (entrants <= 20) return 3;
  return Math.ceil(entrants * 0.15);
}

/**
 * The payout table for a field: each paid place's share in basis points, best place first, summing
 * to 10,000, never rising from one place to the next.
 * - 1 place: 100 %; 2: 65/35; 3: 50/30/20.
 * - 4 places or more: every paid place gets a minimum cash of 1.5 entries (15,000 / entrants basis
 *   points, rounded down), and the rest of the pool is shared in proportion to 1/place (the harmonic
 *   spread: 1st twice 2nd, three times 3rd…), rounded down; the basis points left by the rounding go
 *   to 1st place.
 */
export function payoutTable(entrants: number): number[] {
  const places = paidPlaces(entrants);
  if (places === 0) return [];
  if (places === 1) return [WHOLE];
  if (places === 2) return [6500, 3500];
  if (places === 3) return [5000, 3000, 2000];
  const min = Math.floor((WHOLE * 3) / 2 / entrants);
  const rest = WHOLE - min * places;
  let harmonic = 0;
  for (let i = 1; i <= places; i++) harmonic += 1 / i;
  const shares = Array.from({ length: places }, (_, i) => min + Math.floor(rest / (i + 1) / harmonic));
  shares[0] += WHOLE - shares.reduce((a, b) => a + b, 0);
  return shares;
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
