/**
 * `operator payouts --entrants <n> --buy-in <units> [--guarantee <units>] [--structure <name>] [--json]`:
 * the payout table of a field, as operators publish it (R-TOURN-STRUCTURE, R-TOURN-RUN). The pool is
 * the entrants' buy-ins (the part of each entry that goes to the prizes, fee aside, in the smallest
 * unit: cents or play chips), or the guarantee when it is more; the places come from the payout plan
 * named by `--structure` (shared/rules/tournament/payouts.ts; default `standard`).
 */
import { MAX_ENTRANTS, PAYOUT_PLANS, payout, prizePool } from '../shared/rules/tournament';

export const PAYOUTS_USAGE = '  operator payouts --entrants <n> --buy-in <units> [--guarantee <units>] [--structure <name>] [--json]';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** Runs the command on the arguments after `payouts`; the exit code (2: the arguments are wrong). */
export function payoutsCommand(args: readonly string[], io: Io): number {
  const values = new Map<string, string>();
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') {
      json = true;
      continue;
    }
    const name = a.startsWith('--') ? a.slice(2) : null;
    if (name === null || !['entrants', 'buy-in', 'guarantee', 'structure'].includes(name)) return wrong(io, `unknown argument ${a}`);
    const v = args[++i];
    if (v === undefined || v.startsWith('--')) return wrong(io, `${a} needs a value`);
    values.set(name, v);
  }
  const whole = (name: string, min: number, max: number): number | string => {
    const text = values.get(name);
    if (text === undefined) return `--${name} is required`;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) return `--${name}: a whole number from ${min} to ${max}`;
    return Number(text);
  };
  const entrants = whole('entrants', 2, MAX_ENTRANTS);
  if (typeof entrants === 'string') return wrong(io, entrants);
  const buyIn = whole('buy-in', 0, 1e12);
  if (typeof buyIn === 'string') return wrong(io, buyIn);
  const guarantee = values.has('guarantee') ? whole('guarantee', 0, 1e13) : 0;
  if (typeof guarantee === 'string') return wrong(io, guarantee);
  const name = values.get('structure') ?? 'standard';
  const plan = PAYOUT_PLANS[name];
  if (!plan) return wrong(io, `--structure: one of ${Object.keys(PAYOUT_PLANS).join(', ')}`);
  const { pool, overlay } = prizePool({ entries: entrants, buyIn, guarantee });
  const places = payout(pool, entrants, plan);
  if (json) {
    io.out(JSON.stringify({ structure: plan.name, entrants, pool, overlay, places }));
    return 0;
  }
  io.out(`${entrants} entrants, pool ${pool}${overlay > 0 ? ` (guarantee: ${overlay} added)` : ''}, ${places.length} places paid (${plan.name})`);
  // Places with the same prize on one line, as published tables show them ("16-18: 2,006").
  for (let i = 0; i < places.length; ) {
    let j = i;
    while (j + 1 < places.length && places[j + 1] === places[i]) j++;
    io.out(`${i === j ? `${i + 1}` : `${i + 1}-${j + 1}`}: ${places[i]}`);
    i = j + 1;
  }
  return 0;
}

function wrong(io: Io, why: string): number {
  io.err(`${why}\nusage:\n${PAYOUTS_USAGE}`);
  return 2;
}
