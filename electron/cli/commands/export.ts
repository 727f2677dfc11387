// `cercle export`: the hands of a period from the local history (electron/services/history/store.ts)
// to one file of POJEU XML, PHH or PokerStars-style text (shared/exchange; docs/exchange.md).

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXCHANGE_FORMATS, exportHands, writePokerstarsSummaries, type ExchangeFormat, type ExchangeHand } from '../../../shared/exchange';
import { defaultDataDir } from '../../services/data-dir';
import { HistoryStore } from '../../services/history/store';
import { bookOf, exchangeMetaOf, heroOfTournament, summariesOf, summaryTournaments, tournamentLookup } from '../../services/history/tournament-exchange';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';
import { parseFormat } from './convert';

/** The history file in a data folder (as electron/services/client/history.ts names it). */
export const HISTORY_FILE = 'history.sqlite';

const HELP = `Usage: cercle export --from YYYY-MM-DD --to YYYY-MM-DD --format pojeu|phh|pokerstars|pokerstars-summary [--data <dir>] <out>

Writes every hand of the local history played from the start of the --from day to the end of the
--to day (both included, this computer's time zone), oldest first, to <out> in one format:
  pojeu        ARJEL POJEU XML (one <POJEU> per hand inside <Evenements>; real-money amounts
               in euros with 2 decimals, play-money amounts in whole chips)
  phh          PHH (a .phhs file, one table per hand)
  pokerstars   PokerStars-style text, as hand-history trackers import it
  pokerstars-summary
               not hands: the summaries of the tournaments that ended in the period, in the
               PokerStars summary form trackers import beside the hands

Options:
  --data <dir>   the data folder holding ${HISTORY_FILE} (default: Cercle's own, as the app uses)
  --chips        POJEU: write every amount as whole chips

Exit codes: 0 written (an empty period writes an empty file); 1 the history cannot be read, a
stored hand cannot be decoded, or <out> cannot be written; 2 bad usage. See docs/exchange.md.`;

/** Local midnight of a YYYY-MM-DD day, or null when it is not a date. */
function dayStart(text: string | undefined): number | null {
  const m = text === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(y, mo - 1, d);
  return t.getFullYear() === y && t.getMonth() === mo - 1 && t.getDate() === d ? t.getTime() : null;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'export the hands of a period from the local history (POJEU, PHH, PokerStars text)',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    let from: number | null = null;
    let toDay: number | null = null;
    let format: ExchangeFormat | 'pokerstars-summary' | null = null;
    let dataDir: string | null = null;
    let chips = false;
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--help' || a === '-h') {
        io.out(HELP);
        return EXIT_OK;
      }
      if (a === '--from' || a === '--to') {
        const v = dayStart(args[++i]);
        if (v === null) {
          io.err(`cercle export: ${a} takes a date YYYY-MM-DD`);
          return EXIT_USAGE;
        }
        if (a === '--from') from = v;
        else toDay = v;
      } else if (a === '--format') {
        const f = args[++i];
        format = f === 'pokerstars-summary' ? f : parseFormat(f);
        if (format === null) {
          io.err(`cercle export: --format takes ${[...EXCHANGE_FORMATS, 'pokerstars-summary'].join(', ')}`);
          return EXIT_USAGE;
        }
      } else if (a === '--data') {
        dataDir = args[++i] ?? null;
        if (dataDir === null) {
          io.err('cercle export: --data takes a folder');
          return EXIT_USAGE;
        }
      } else if (a === '--chips') chips = true;
      else if (a.startsWith('-')) {
        io.err(`cercle export: unknown option '${a}' (see cercle export --help)`);
        return EXIT_USAGE;
      } else rest.push(a);
    }
    if (from === null || toDay === null || format === null || rest.length !== 1) {
      io.err('cercle export: usage: cercle export --from YYYY-MM-DD --to YYYY-MM-DD --format pojeu|phh|pokerstars|pokerstars-summary [--data <dir>] <out>');
      return EXIT_USAGE;
    }
    if (toDay < from) {
      io.err('cercle export: --to is before --from');
      return EXIT_USAGE;
    }
    const end = new Date(toDay);
    const until = new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1).getTime();
    const file = join(dataDir ?? defaultDataDir(), HISTORY_FILE);
    if (!existsSync(file)) {
      io.err(`cercle export: no hand history at '${file}'`);
      return EXIT_FAILED;
    }
    const hands: ExchangeHand[] = [];
    let store: HistoryStore;
    try {
      store = HistoryStore.open(file);
    } catch (error) {
      io.err(`cercle export: cannot open '${file}': ${error instanceof Error ? error.message : String(error)}`);
      return EXIT_FAILED;
    }
    if (format === 'pokerstars-summary') return summaries(store, { from, to: until }, rest[0], io);
    try {
      const tournamentOf = tournamentLookup(bookOf(store));
      let cursor: string | null = null;
      do {
        const page = store.page({ from, to: until }, { sort: 'time', dir: 'asc', limit: 200, cursor });
        if (!page.ok) {
          io.err(`cercle export: ${page.reason}`);
          return EXIT_FAILED;
        }
        for (const s of page.hands) {
          const h = store.getHand(s.handId);
          if (!h.ok) {
            io.err(`cercle export: ${h.reason}`);
            return EXIT_FAILED;
          }
          // A tournament hand with its tournament's entry and name, as the app's export job writes it.
          hands.push({ record: h.record, meta: exchangeMetaOf(s, tournamentOf) });
        }
        cursor = page.next;
      } while (cursor !== null);
    } finally {
      store.close();
    }
    try {
      await writeFile(rest[0], exportHands(format, hands, chips ? { pojeuScale: 0 } : {}), 'utf8');
    } catch (error) {
      io.err(`cercle export: cannot write '${rest[0]}': ${error instanceof Error ? error.message : String(error)}`);
      return EXIT_FAILED;
    }
    io.out(`${hands.length} hand${hands.length === 1 ? '' : 's'} exported (${format}): ${rest[0]}`);
    return EXIT_OK;
  },
};

/** `--format pokerstars-summary`: the summaries of the tournaments that ended in the period. */
async function summaries(store: HistoryStore, period: { from: number; to: number }, out: string, io: CliIo): Promise<number> {
  let text: string;
  let count: number;
  try {
    const list = summaryTournaments(bookOf(store), period);
    const { summaries: s } = summariesOf(list, (id) => heroOfTournament(store, id), []);
    text = writePokerstarsSummaries(s);
    count = s.length;
  } catch (error) {
    io.err(`cercle export: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  } finally {
    store.close();
  }
  try {
    await writeFile(out, text, 'utf8');
  } catch (error) {
    io.err(`cercle export: cannot write '${out}': ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
  io.out(`${count} tournament summar${count === 1 ? 'y' : 'ies'} exported (pokerstars-summary): ${out}`);
  return EXIT_OK;
}
