// `cercle import`: PokerStars and Winamax hand-history files into the local history, hand by hand
// (electron/services/history/site-import.ts; docs/exchange.md "Site files").

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir } from '../../services/data-dir';
import { importSiteFiles, siteFiles, type SiteImportSummary } from '../../services/history/site-import';
import { HistoryStore } from '../../services/history/store';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';
import { HISTORY_FILE } from './export';

const HELP = `Usage: cercle import [--data <dir>] [--hero <name>]… <file or folder>…

Reads hand histories as PokerStars and Winamax write them (a folder: its .txt files) and stores
every hand that can be read and replayed by the rules in the local history. Each other hand is
listed with its file, line, hand id and reason; a summary counts the hands imported, already there,
without the player, and refused by kind. Importing the same files again adds nothing.

Options:
  --data <dir>    the data folder holding ${HISTORY_FILE} (default: Cercle's own; created if new)
  --hero <name>   one of the player's names (repeat for several sites); otherwise the player is
                  the seat whose hidden cards the file gives

Exit codes: 0 something was imported, or everything was already there; 1 nothing could be read;
2 bad usage (no file, an unknown option, a path that does not exist). See docs/exchange.md.`;

type Parsed = { data: string | null; heroes: string[]; paths: string[] } | string;

function parse(args: readonly string[]): Parsed | 'help' {
  let data: string | null = null;
  const heroes: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--data' || a === '--hero') {
      const v = args[++i];
      if (v === undefined || v === '') return `${a} takes a ${a === '--data' ? 'folder' : 'name'}`;
      if (a === '--data') data = v;
      else heroes.push(v);
    } else if (a.startsWith('--')) return `unknown option '${a}'`;
    else paths.push(a);
  }
  return paths.length === 0 ? 'give at least one file or folder' : { data, heroes, paths };
}

/** The summary, then each refused hand, as lines. */
export function summaryLines(s: SiteImportSummary): string[] {
  const kinds = Object.entries(s.byKind).map(([k, n]) => `${k} ${n}`).join(', ');
  const money = Object.entries(s.currencies).map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    `files: ${s.files}, hands: ${s.hands}`,
    `imported: ${s.imported}, already there: ${s.already}, observed (without the player, in no result): ${s.observed}, refused: ${s.refused.length}${kinds !== '' ? ` (${kinds})` : ''}`,
    ...(money !== '' ? [`currencies: ${money}`] : []),
    ...s.refused.map((r) => `refused: ${r.file}:${r.line}${r.handId !== null ? ` hand ${r.handId}` : ''}: ${r.kind}: ${r.reason}`),
  ];
}

export const importCommand: Command = {
  name: 'import',
  summary: 'import PokerStars and Winamax hand histories into the local history',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const p = parse(args);
    if (p === 'help') {
      io.out(HELP);
      return EXIT_OK;
    }
    if (typeof p === 'string') {
      io.err(`cercle import: ${p} (see cercle import --help)`);
      return EXIT_USAGE;
    }
    const { files, missing } = siteFiles(p.paths);
    if (missing.length > 0) {
      io.err(`cercle import: no such file or folder: ${missing.join(', ')}`);
      return EXIT_USAGE;
    }
    const dir = p.data ?? defaultDataDir();
    let store: HistoryStore;
    try {
      mkdirSync(dir, { recursive: true });
      store = HistoryStore.open(join(dir, HISTORY_FILE));
    } catch (e) {
      io.err(`cercle import: the history cannot be opened: ${e instanceof Error ? e.message : String(e)}`);
      return EXIT_FAILED;
    }
    try {
      const s = await importSiteFiles(store, files, p.heroes);
      for (const l of summaryLines(s)) io.out(l);
      return s.imported + s.already > 0 ? EXIT_OK : EXIT_FAILED;
    } finally {
      store.close();
    }
  },
};
