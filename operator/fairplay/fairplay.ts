/**
 * A fair-play report from the regulatory trace (R-NOBOT, D art. 2 and 8 I: the operator detects
 * collusion and report suspicious patterns). It reads the POJEU and POINSCRIT records of the vault
 * and lists, for review by a person (it decides nothing):
 *
 * - shared addresses: distinct accounts seen playing from one IP address (multi-accounting; the
 *   tables already refuse two of them at one table);
 * - pairs of accounts that often play the same hands, with the chips that flowed between them in the
 *   hands where one lost and the other won (chip dumping shows as a large one-way flow over few
 *   hands), ranked by that flow per hand together;
 * - accounts whose decision times are near-constant (robot-assisted play: "near-constant action
 *   times"): many decisions, and a coefficient of variation (standard deviation / mean) below a bound.
 *   People's decision times spread widely (a quick check, a long think; CV typically well above 0.5);
 *   a program that waits a fixed delay shows a CV of a few hundredths, network jitter included. The
 *   times come from the operator database (timings.ts), not from the trace.
 *
 * - accounts of one person (R-ONEACCOUNT), opened before the operator refused a second one
 *   (identities.ts); from the operator database, not from the trace.
 *
 * Play-money records (flagged `test`) are left out unless asked for.
 */
import type { StoredRecord } from '../trace/vault';
import { formatDuplicateIdentities, type DuplicateIdentity } from './identities';
import type { DecisionTimeStats } from './timings';

/** Defaults of the decision-time section: at least 50 decisions, CV at most 0.2. */
export const REGULAR_DECISIONS = { minDecisions: 50, maxCv: 0.2 } as const;

export interface RegularDecider extends DecisionTimeStats {
  /** Coefficient of variation: sdMs / meanMs. */
  cv: number;
}

export interface FairPlayReport {
  hands: number;
  sharedAddresses: { ip: string; accounts: string[] }[];
  pairs: { a: string; b: string; handsTogether: number; flowAtoB: number; flowPerHand: number }[];
  /** Accounts with near-constant decision times, most regular first; null when no times were given. */
  regularDeciders: RegularDecider[] | null;
  /** The bounds used for `regularDeciders`. */
  regularity: { minDecisions: number; maxCv: number };
  /** Identity hashes held by several accounts (R-ONEACCOUNT); null when the database was not read. */
  duplicateIdentities: readonly DuplicateIdentity[] | null;
}

export interface FairPlayOptions {
  includePlayMoney?: boolean;
  minHandsTogether?: number;
  /** Per-account decision times (DecisionTimes.stats). */
  decisionTimes?: readonly DecisionTimeStats[];
  /** Fewest decisions for an account's regularity to mean something (default 50). */
  minDecisions?: number;
  /** Largest coefficient of variation reported as near-constant (default 0.2). */
  maxCv?: number;
  /** Accounts of one person (identities.ts `duplicateIdentities`). */
  duplicateIdentities?: readonly DuplicateIdentity[];
}

/** Accounts with at least `minDecisions` decisions and a CV of at most `maxCv`, most regular first. */
export function regularDeciders(stats: readonly DecisionTimeStats[], bounds: { minDecisions: number; maxCv: number }): RegularDecider[] {
  return stats
    .filter((s) => s.decisions >= bounds.minDecisions && s.meanMs > 0)
    .map((s) => ({ ...s, cv: s.sdMs / s.meanMs }))
    .filter((s) => s.cv <= bounds.maxCv)
    .sort((a, b) => a.cv - b.cv || b.decisions - a.decisions);
}

interface Participant {
  id: string;
  ip: string;
  net: number;
}

/** Amount text of the trace (`-0.05`, `12`) in smallest units (scale 2 → cents). */
function units(text: string): number {
  const negative = text.startsWith('-');
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const v = Number(whole) * (frac.length ? 100 : 1) + (frac.length ? Number(frac.padEnd(2, '0')) : 0);
  return negative ? -v : v;
}

function participants(xml: string): Participant[] {
  const out: Participant[] = [];
  for (const m of xml.matchAll(/<Joueur>([\s\S]*?)<\/Joueur>/g)) {
    const j = m[1];
    const id = /<IDJoueur>([^<]*)<\/IDJoueur>/.exec(j)?.[1];
    const ip = /<IPJoueur>([^<]*)<\/IPJoueur>/.exec(j)?.[1];
    const net = /<Net>([^<]*)<\/Net>/.exec(j)?.[1];
    if (id !== undefined && ip !== undefined && net !== undefined) out.push({ id, ip, net: units(net) });
  }
  return out;
}

export function fairPlayReport(records: Iterable<StoredRecord>, options: FairPlayOptions = {}): FairPlayReport {
  const byIp = new Map<string, Set<string>>();
  const pairs = new Map<string, { a: string; b: string; hands: number; flow: number }>();
  let hands = 0;
  const practice = new Set<string>();
  for (const r of records) {
    const test = /^<PO[A-Z]+ [^>]*test="true"/.test(r.xml);
    if (test && !options.includePlayMoney) continue;
    if (r.kind === 'POINSCRIT') {
      const id = /<IDJoueur>([^<]*)<\/IDJoueur>/.exec(r.xml)?.[1];
      const ip = /<IPJoueur>([^<]*)<\/IPJoueur>/.exec(r.xml)?.[1];
      const session = /<IDSession>([^<]*)<\/IDSession>/.exec(r.xml)?.[1];
      if (session === 'practice' && id) practice.add(id);
      if (id && ip) (byIp.get(ip) ?? byIp.set(ip, new Set()).get(ip)!).add(id);
      continue;
    }
    if (r.kind !== 'POJEU') continue;
    hands++;
    const ps = participants(r.xml).filter((p) => !practice.has(p.id));
    for (const p of ps) (byIp.get(p.ip) ?? byIp.set(p.ip, new Set()).get(p.ip)!).add(p.id);
    for (let i = 0; i < ps.length; i++) {
      for (let k = i + 1; k < ps.length; k++) {
        const [x, y] = ps[i].id < ps[k].id ? [ps[i], ps[k]] : [ps[k], ps[i]];
        const key = `${x.id}\u0000${y.id}`;
        const e = pairs.get(key) ?? { a: x.id, b: y.id, hands: 0, flow: 0 };
        e.hands++;
        // What one lost and the other won in the same hand (bounded by the smaller of the two).
        if (x.net < 0 && y.net > 0) e.flow += Math.min(-x.net, y.net);
        else if (y.net < 0 && x.net > 0) e.flow -= Math.min(-y.net, x.net);
        pairs.set(key, e);
      }
    }
  }
  const min = options.minHandsTogether ?? 10;
  const regularity = { minDecisions: options.minDecisions ?? REGULAR_DECISIONS.minDecisions, maxCv: options.maxCv ?? REGULAR_DECISIONS.maxCv };
  return {
    hands,
    sharedAddresses: [...byIp]
      .filter(([, ids]) => ids.size > 1)
      .map(([ip, ids]) => ({ ip, accounts: [...ids].sort() }))
      .sort((a, b) => b.accounts.length - a.accounts.length),
    pairs: [...pairs.values()]
      .filter((p) => p.hands >= min)
      .map((p) => ({ a: p.a, b: p.b, handsTogether: p.hands, flowAtoB: p.flow, flowPerHand: p.flow / p.hands }))
      .sort((p, q) => Math.abs(q.flowPerHand) - Math.abs(p.flowPerHand))
      .slice(0, 50),
    regularDeciders: options.decisionTimes ? regularDeciders(options.decisionTimes, regularity) : null,
    regularity,
    duplicateIdentities: options.duplicateIdentities ?? null,
  };
}

/** The report as text lines. */
export function formatFairPlayReport(r: FairPlayReport): string[] {
  const lines = [`fair-play report: ${r.hands} hands`];
  lines.push(r.sharedAddresses.length ? 'accounts sharing an address (review for multi-accounting, R-NOBOT):' : 'no address shared by two accounts');
  for (const s of r.sharedAddresses) lines.push(`  ${s.ip}: accounts ${s.accounts.join(', ')}`);
  lines.push(r.pairs.length ? 'pairs of accounts by one-way flow of chips per hand together (review for chip dumping):' : 'no pair of accounts played enough hands together');
  for (const p of r.pairs) {
    const from = p.flowAtoB >= 0 ? p.a : p.b;
    const to = p.flowAtoB >= 0 ? p.b : p.a;
    lines.push(`  ${from} -> ${to}: ${Math.abs(p.flowAtoB)} over ${p.handsTogether} hands together (${Math.abs(p.flowPerHand).toFixed(1)} a hand)`);
  }
  const { minDecisions, maxCv } = r.regularity;
  if (r.regularDeciders === null) lines.push('decision times: not available');
  else if (r.regularDeciders.length === 0) lines.push(`no account with near-constant decision times (${minDecisions}+ decisions, CV <= ${maxCv.toFixed(2)})`);
  else {
    lines.push(`accounts with near-constant decision times, ${minDecisions}+ decisions, CV <= ${maxCv.toFixed(2)} (review for robot play, R-NOBOT):`);
    for (const d of r.regularDeciders) {
      lines.push(`  ${d.accountId} (${d.username}): ${d.decisions} decisions, mean ${Math.round(d.meanMs)} ms, sd ${Math.round(d.sdMs)} ms, CV ${d.cv.toFixed(3)}`);
    }
  }
  if (r.duplicateIdentities === null) lines.push('accounts of one person: not available');
  else lines.push(...formatDuplicateIdentities(r.duplicateIdentities));
  return lines;
}
