// `cercle generate`: fills a history file with realistic generated hands of all 11 variants, played
// by the rules engine (shared/history/generate.ts), through the store's bulk importer: test data for
// the history at scale (DESIGN.md §5: 1,000,000 hands), demos and benchmarks.

import { join } from 'node:path';
import { fillHistory } from '../../services/history/generate';
import { HistoryStore } from '../../services/history/store';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';
import { HISTORY_FILE } from './export';

const HELP = `Usage: cercle generate --hands <n> --data <dir> [--seed <n>] [--days <n>] [--hero <name>]

Plays <n> hands through the rules engine and stores them in <dir>/${HISTORY_FILE} (created if
needed; hands already there stay, a hand with the same id is not stored twice): sessions of 2 to 5
tables at once over the last <days> days (default 400), all 11 variants at two stakes each, real
money (raked) and play money, six-max, full-ring and heads-up tables, opponents who come and go,
stacks carried from hand to hand (short stacks, deep stacks, all-ins, showdowns), each hand as the
hero's client stores it (others' cards hidden unless shown). The same seed gives the same hands.
Progress goes to standard error; the last line on standard output gives the figures (hands/s).

Options:
  --hands <n>    how many hands (1 to 100,000,000)
  --data <dir>   the data folder to fill (required: a player's own history is never filled by default)
  --seed <n>     the generator's seed (default 1)
  --days <n>     the period, ending now (default 400)
  --hero <name>  the player's name at every table (default "me")

Exit codes: 0 done; 1 the history cannot be opened or written; 2 bad usage.`;

function whole(v: string | undefined, min: number, max: number): number | null {
  if (v === undefined || !/^\d{1,9}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}

export const generateCommand: Command = {
  name: 'generate',
  summary: 'fill a history with realistic generated hands of all variants (test data at scale)',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    let hands: number | null = null;
    let dataDir: string | null = null;
    let seed = 1;
    let days = 400;
    let hero = 'me';
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--help' || a === '-h') {
        io.out(HELP);
        return EXIT_OK;
      }
      const v = args[i + 1];
      i++;
      if (a === '--hands') hands = whole(v, 1, 100_000_000);
      else if (a === '--data') dataDir = v ?? null;
      else if (a === '--seed') {
        const n = whole(v, 0, 0xffffffff);
        if (n === null) return usage(io, '--seed takes a whole number');
        seed = n;
      } else if (a === '--days') {
        const n = whole(v, 1, 3650);
        if (n === null) return usage(io, '--days takes 1 to 3650');
        days = n;
      } else if (a === '--hero') {
        if (v === undefined || v.length === 0 || v.length > 64) return usage(io, '--hero takes a name of 1 to 64 characters');
        hero = v;
      } else return usage(io, `unknown option '${a}' (see cercle generate --help)`);
    }
    if (hands === null) return usage(io, '--hands takes 1 to 100,000,000');
    if (dataDir === null) return usage(io, '--data <dir> is required');
    const file = join(dataDir, HISTORY_FILE);
    let store: HistoryStore;
    try {
      store = HistoryStore.open(file);
    } catch (e) {
      io.err(`cercle generate: cannot open '${file}': ${e instanceof Error ? e.message : String(e)}`);
      return EXIT_FAILED;
    }
    const t0 = performance.now();
    const step = Math.max(10_000, Math.round(hands / 20 / 10_000) * 10_000);
    let next = step;
    try {
      const r = fillHistory(store, { hands, seed, days, hero }, (p) => {
        if (p.done >= next || p.done === p.total) {
          next += step;
          const s = (performance.now() - t0) / 1000;
          io.err(`${p.done.toLocaleString('en')} / ${p.total.toLocaleString('en')} hands, ${s.toFixed(1)} s (${Math.round(p.done / s).toLocaleString('en')} hands/s)`);
        }
      });
      store.checkpoint();
      const s = (performance.now() - t0) / 1000;
      io.out(
        `${r.stored.toLocaleString('en')} hands stored (${r.duplicates} already there) in ${s.toFixed(1)} s: ${Math.round(r.done / s).toLocaleString('en')} hands/s ` +
          `(playing ${Math.round(r.done / (r.generateMs / 1000)).toLocaleString('en')} hands/s, storing ${Math.round(r.done / (r.storeMs / 1000)).toLocaleString('en')} hands/s); ${file}`,
      );
    } catch (e) {
      io.err(`cercle generate: ${e instanceof Error ? e.message : String(e)}`);
      return EXIT_FAILED;
    } finally {
      store.close();
    }
    return EXIT_OK;
  },
};

function usage(io: CliIo, message: string): number {
  io.err(`cercle generate: ${message}`);
  return EXIT_USAGE;
}
