/**
 * The embedded operator (DESIGN.md §3 "The embedded default"): what the desktop client starts on
 * loopback when no other operator is configured. A random port on 127.0.0.1, a self-signed certificate
 * made on first run and kept in `dataDir` (its pin is returned for the client to check), practice
 * tables of every variant (play money, labelled practice players), and one guest account with play
 * money whose session token is kept in `dataDir` and reused on later starts.
 *
 *   const op = await startEmbeddedOperator({ dataDir });
 *   // connect to op.url pinning op.pin; { type: 'resume', token: op.guest.token, tables: [] }
 *   await op.close();
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../shared/node/atomic-file';
import { isAbsolute, join } from 'node:path';
import { practiceLobby } from './config/config';
import { startOperator, type RunningOperator } from './server/operator';
import { loadTournaments, nextStart, scheduledSpec, sitAndGoSpecs, type TournamentsConfig } from './tournaments/config';

/** Play chips the embedded guest starts with (and is topped back up to when it runs dry). */
export const EMBEDDED_PLAY_CHIPS = 1_000_000;
const GUEST_FILE = 'embedded-guest.json';

export interface EmbeddedOperator {
  url: string;
  pin: string;
  /** The guest account to play as: resume its session with this token. */
  guest: { token: string; username: string; accountId: number };
  close(): Promise<void>;
  /** The running operator, for tests and diagnostics. */
  operator: RunningOperator;
}

/** Table timing the client may ask for (tests, benchmarks, demos: practice players that act fast). */
export interface EmbeddedTiming {
  /** Practice players think between these bounds, in ms (default 600-1800). */
  practiceDelayMs?: readonly [number, number];
  /** Pause between hands, in ms (default 2500). */
  betweenHandsMs?: number;
  /** Practice tables of each variant (default 1; benchmarks open 24 tables). */
  tablesPerVariant?: number;
  /**
   * The tournaments offered instead of the embedded ones: a tournaments file (absolute path), checked
   * like `npm run operator --tournaments` (tests and benchmarks: a small multi-table
   * tournament starting within the minute, to be moved between its tables).
   */
  tournamentsFile?: string;
  /**
   * Tests only (the browser flows of rebuys, add-ons and finishes): the tournaments' clock runs
   * this many times faster (levels, the rebuy period, the add-on), the tables at their own pace.
   */
  tournamentClockRate?: number;
}

/** The embedded operator's tournaments: play money, nothing to set up. */
const EMBEDDED_TOURNAMENTS: TournamentsConfig = {
  version: 1,
  sitAndGo: { money: 'play', buyIn: 1000, fee: 0, speed: 'turbo', sizes: [2, 6, 9] },
  scheduled: [
    { id: 'mtt-practice', name: 'Tournoi d’entraînement', variant: 'THNL', money: 'play', buyIn: 1000, fee: 0, seats: 9, minEntrants: 2, maxEntrants: 300, speed: 'hyper-turbo', everyMinutes: 10 },
  ],
};

export async function startEmbeddedOperator(options: { dataDir: string; port?: number; log?: (line: string) => void; timing?: EmbeddedTiming }): Promise<EmbeddedOperator> {
  mkdirSync(options.dataDir, { recursive: true });
  const op = await startOperator({
    dataDir: options.dataDir,
    lobby: practiceLobby(options.timing?.tablesPerVariant ?? 1),
    port: options.port ?? 0,
    // The guest's session lasts as long as a year of history (R-HISTORY); it never leaves this machine.
    accounts: { sessionTtlMs: 400 * 86_400_000 },
    owner: 'the embedded operator',
    welcomePlayChips: EMBEDDED_PLAY_CHIPS,
    table: timingOf(options.timing),
    log: options.log,
    // A play-money sit & go of every variant and size, filled by practice players a
    // few seconds after a person registers, so a new user can play a tournament at once.
    // And a play-money multi-table tournament every 10 minutes, brought to 200 players by practice
    // players when a person registers (an instance nobody joined is cancelled; the next one opens).
    tournaments: {
      specs: embeddedSpecs(options.timing?.tournamentsFile),
      practiceFillMs: 3000,
      practiceField: 200,
      clockRate: clockRateOf(options.timing?.tournamentClockRate),
    },
  });
  try {
    const guest = embeddedGuest(op, options.dataDir);
    return { url: op.url, pin: op.pin, guest, operator: op, close: () => op.close() };
  } catch (e) {
    await op.close();
    throw e;
  }
}

/** The embedded tournaments, or those of a tournaments file (a refused file starts nothing: TournamentsConfigError). */
function embeddedSpecs(file: string | undefined) {
  if (file === undefined) return [...sitAndGoSpecs(EMBEDDED_TOURNAMENTS), ...EMBEDDED_TOURNAMENTS.scheduled.map((c) => scheduledSpec(c, nextStart(c.everyMinutes, Date.now())))];
  if (typeof file !== 'string' || !isAbsolute(file)) throw new Error('timing.tournamentsFile: an absolute path');
  return loadTournaments(file, Date.now());
}

function clockRateOf(rate: unknown): number | undefined {
  if (rate === undefined) return undefined;
  if (!Number.isSafeInteger(rate) || (rate as number) < 1 || (rate as number) > 1000) throw new Error('timing.tournamentClockRate: an integer from 1 to 1000');
  return rate as number;
}

function timingOf(t: EmbeddedTiming | undefined): { practiceDelayMs?: readonly [number, number]; betweenHandsMs?: number } | undefined {
  if (!t) return undefined;
  const ms = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) <= 60_000;
  const out: { practiceDelayMs?: readonly [number, number]; betweenHandsMs?: number } = {};
  if (t.practiceDelayMs !== undefined) {
    const [lo, hi] = t.practiceDelayMs;
    if (!ms(lo) || !ms(hi) || lo > hi) throw new Error('timing.practiceDelayMs: two integers 0 ≤ lo ≤ hi ≤ 60000');
    out.practiceDelayMs = [lo, hi];
  }
  if (t.betweenHandsMs !== undefined) {
    if (!ms(t.betweenHandsMs)) throw new Error('timing.betweenHandsMs: an integer from 0 to 60000');
    out.betweenHandsMs = t.betweenHandsMs;
  }
  return out;
}

/** The kept guest if its session is still good, else a new guest (its token written, owner-only). */
function embeddedGuest(op: RunningOperator, dataDir: string): EmbeddedOperator['guest'] {
  const file = join(dataDir, GUEST_FILE);
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { token?: unknown };
      if (typeof kept.token === 'string') {
        const auth = op.accounts.authenticate(kept.token);
        if (auth.ok) {
          topUpPlay(op, auth.account.id);
          return { token: kept.token, username: auth.account.username, accountId: auth.account.id };
        }
      }
    } catch {
      // An unreadable file is replaced by a new guest below.
    }
  }
  const g = op.accounts.createGuest({ ip: '127.0.0.1' });
  if (!g.ok) throw new Error(`embedded guest: ${g.message}`);
  const r = op.wallet.grantPlay(g.account.id, EMBEDDED_PLAY_CHIPS, { idempotencyKey: `grant:welcome:${g.account.id}` });
  if (!r.ok) throw new Error(`embedded guest grant: ${r.code}`);
  // Whole or not at all, mode exact (shared/node/atomic-file.ts): a crash never leaves half a token.
  writeFileAtomic(file, JSON.stringify({ token: g.session.token, accountId: g.account.id }), { mode: 0o600 });
  return { token: g.session.token, username: g.account.username, accountId: g.account.id };
}

/** Play money for practice never runs out: a guest with nothing left gets the starting amount again. */
function topUpPlay(op: RunningOperator, accountId: number): void {
  const seated = op.manager.tablesOf(accountId).length > 0;
  if (seated || op.wallet.balance(accountId, 'play') > 0) return;
  op.wallet.grantPlay(accountId, EMBEDDED_PLAY_CHIPS, { idempotencyKey: `grant:refill:${accountId}:${Date.now()}` });
}
