/**
 * The operator's command line (`npm run operator -- …`, i.e. `npx tsx operator/main.ts …`):
 *
 *   --port <port> --data <folder> [--config <file>] [--tournaments <file>] [--cert <pem> --key <pem>] [--max-connections <n>] [--max-per-address <n>]
 *       runs the operator (the tournaments of --tournaments, by default config/tournaments.default.json: issue 16) (connection caps: server/gate.ts, default 900 and 32); prints `wss://127.0.0.1:<port>` and `pin sha256/<base64>`; stops on
 *       SIGINT/SIGTERM (hands in progress cancelled, every player cashed out)
 *   trace verify --data <folder> [--config <file>] [--head <hash>]
 *       recomputes the trace vault's hash chain, then checks every ledger movement and every hand
 *       played has its record (trace/crosscheck.ts); exit 1 if the chain is broken or a record is missing;
 *       with --head, a head published earlier (the operator's log line `trace head`) must be in the chain
 *   trace verify --file <export> [--head <hash>]
 *       verifies an export alone, without the vault: each record's hash and link (issue 15 item 6)
 *   trace export --data <folder> --from <iso> --to <iso> [--out <file>] [--config <file>]
 *       the records of [from, to) as one XML document (stdout, or the file), each with its chain hashes
 *   report --data <folder> [--config <file>] [--min-hands <n>] [--min-decisions <n>] [--max-cv <x>] [--play yes]
 *       the fair-play report (fairplay/fairplay.ts) from the trace and the decision times kept in the
 *       operator database: shared addresses, chip flows between pairs, near-constant decision times
 *       (R-NOBOT); `--play yes` includes play money
 *   bans replace <file> --data <folder>
 *       puts <file> in force as the operator's copy of the national ban file (R-BANNED; format in
 *       protection/identity.ts and docs/protection.md), whole and atomically: a malformed file is refused
 *       naming its line and the copy in force stays; a running operator reads it at its next check
 *
 * `--config` defaults to the checked-in lobby (config/lobby.default.json); its `operator` block names
 * the vault (IDOper, IDCoffre).
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FolderInUseError } from '../shared/node/folder-lock';
import { ConfigError, DEFAULT_CONFIG_PATH, loadConfig } from './config/config';
import type { Db } from './db';
import { replaceBanFile } from './protection/bans';
import { DEFAULT_TOURNAMENTS_PATH, loadTournaments, TournamentsConfigError } from './tournaments/config';
import { openOperatorDatabase } from './schema';
import { startOperator, type RunningOperator } from './server/operator';
import { fairPlayReport, formatFairPlayReport, REGULAR_DECISIONS } from './fairplay/fairplay';
import { DecisionTimes } from './fairplay/timings';
import { TlsIdentityError } from './tls';
import { crossCheck, type CrossCheck } from './trace/crosscheck';
import { TraceOutbox } from './trace/outbox';
import { isChainHash, TraceVault, verifyExport } from './trace/vault';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal(): Promise<void>;
}

const USAGE = [
  'usage:',
  '  operator --port <port> --data <folder> [--config <file>] [--tournaments <file>] [--cert <pem> --key <pem>] [--max-connections <n>] [--max-per-address <n>]',
  '  operator trace verify --data <folder> [--config <file>] [--head <hash>]',
  '  operator trace verify --file <export> [--head <hash>]',
  '  operator trace export --data <folder> --from <iso> --to <iso> [--out <file>] [--config <file>]',
  '  operator report --data <folder> [--config <file>] [--min-hands <n>] [--min-decisions <n>] [--max-cv <x>] [--play yes]',
  '  operator bans replace <file> --data <folder>',
].join('\n');

/** The text of `file`, or null once the reason it cannot be read is told. */
function readText(file: string, io: CliIo): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`cannot read ${file}: ${(e as Error).message}`);
    return null;
  }
}

/** `bans replace <file> --data <folder>` (R-BANNED; protection/bans.ts). */
function replaceBans(argv: string[], io: CliIo): number {
  const flags = parseFlags(argv.slice(3));
  const file = argv[2];
  if (argv[1] !== 'replace' || file === undefined || file.startsWith('--') || typeof flags === 'string' || [...flags.keys()].some((k) => k !== 'data') || !flags.has('data')) {
    io.err(`${typeof flags === 'string' ? `${flags}\n` : ''}${USAGE}`);
    return 2;
  }
  const text = readText(file, io);
  if (text === null) return 2;
  const dataDir = resolve(flags.get('data')!);
  if (!existsSync(dataDir)) {
    io.err(`no data folder ${dataDir}`);
    return 2;
  }
  const r = replaceBanFile(dataDir, text);
  if (!r.ok) {
    io.err(`${file}, line ${r.line}: ${r.message}; the ban file in force is unchanged`);
    return 1;
  }
  io.out(`ban file replaced: ${r.count} identities in force`);
  return 0;
}

function parseFlags(args: string[]): Map<string, string> | string {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) return `unexpected argument ${a}`;
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) return `${a} needs a value`;
    flags.set(a.slice(2), v);
    i++;
  }
  return flags;
}

function isoDate(s: string | undefined, name: string): Date | string {
  if (s === undefined) return `--${name} is required`;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? `--${name}: ${s} is not an ISO date` : d;
}

/** The ledger and the hand histories of the folder against its vault (read only); null without an operator database. */
function crossCheckFolder(dataDir: string, vault: TraceVault): CrossCheck | null {
  const opPath = join(dataDir, 'operator.sqlite');
  if (!existsSync(opPath)) return null;
  const db = new Database(opPath, { readonly: true, fileMustExist: true });
  const histPath = join(dataDir, 'history.sqlite');
  const hist = existsSync(histPath) ? new Database(histPath, { readonly: true, fileMustExist: true }) : null;
  try {
    const hasOutbox = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trace_outbox'").get() !== undefined;
    return crossCheck(db, vault, hist, hasOutbox ? new TraceOutbox(db, vault).pendingRecords() : []);
  } finally {
    hist?.close();
    db.close();
  }
}

/** Runs one command; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'bans') return replaceBans(argv, io);
  const trace = argv[0] === 'trace';
  const report = argv[0] === 'report';
  const flags = parseFlags(trace ? argv.slice(2) : report ? argv.slice(1) : argv);
  if (typeof flags === 'string') {
    io.err(`${flags}\n${USAGE}`);
    return 2;
  }
  const known = trace
    ? ['data', 'config', 'from', 'to', 'out', 'file', 'head']
    : report
      ? ['data', 'config', 'min-hands', 'min-decisions', 'max-cv', 'play']
      : ['port', 'data', 'config', 'tournaments', 'cert', 'key', 'max-connections', 'max-per-address'];
  for (const k of flags.keys()) {
    if (!known.includes(k)) {
      io.err(`unknown option --${k}\n${USAGE}`);
      return 2;
    }
  }
  const publishedHash = flags.get('head');
  if (publishedHash !== undefined && !isChainHash(publishedHash)) {
    io.err(`--head must be a published head's hash (64 hex digits), got ${publishedHash}\n${USAGE}`);
    return 2;
  }
  const file = flags.get('file');
  if (trace && argv[1] === 'verify' && file !== undefined) {
    // issue 15 item 6: an export verifies alone, without the vault (nor --data).
    const text = readText(file, io);
    if (text === null) return 2;
    const v = verifyExport(text, { publishedHash });
    if (!v.ok) {
      io.err(`export ${file}: chain broken at record ${v.idEvt}: ${v.reason}`);
      return 1;
    }
    io.out(`export intact: ${v.count} records` + (v.head ? `, from after ${v.continues!.idEvt} (${v.continues!.hash}) to ${v.head.idEvt} ${v.head.hash}` : '') + (publishedHash ? `; the published head ${publishedHash} is in it` : ''));
    return 0;
  }
  const data = flags.get('data');
  if (data === undefined) {
    io.err(`--data <folder> is required\n${USAGE}`);
    return 2;
  }
  let lobby;
  try {
    lobby = loadConfig(resolve(flags.get('config') ?? DEFAULT_CONFIG_PATH));
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
  const dataDir = resolve(data);

  if (report) {
    const { idOper, idCoffre } = lobby.config.operator;
    const minHands = Number(flags.get('min-hands') ?? '10');
    const minDecisions = Number(flags.get('min-decisions') ?? String(REGULAR_DECISIONS.minDecisions));
    const maxCv = Number(flags.get('max-cv') ?? String(REGULAR_DECISIONS.maxCv));
    for (const [name, v] of [['min-hands', minHands], ['min-decisions', minDecisions]] as const) {
      if (!Number.isInteger(v) || v < 1) {
        io.err(`--${name} must be a whole number\n${USAGE}`);
        return 2;
      }
    }
    if (!Number.isFinite(maxCv) || maxCv < 0) {
      io.err(`--max-cv must be a number >= 0 (e.g. 0.2)\n${USAGE}`);
      return 2;
    }
    const includePlayMoney = flags.get('play') === 'yes';
    const vault = TraceVault.open({ path: join(dataDir, 'trace.sqlite'), idOper, idCoffre });
    let db: Db | undefined;
    try {
      db = openOperatorDatabase(join(dataDir, 'operator.sqlite'));
      const decisionTimes = new DecisionTimes(db).stats({ includePlayMoney, minDecisions });
      const head = vault.head().idEvt;
      function* all() {
        for (let i = 1; i <= head; i++) {
          const r = vault.get(i);
          if (r) yield r;
        }
      }
      const r = fairPlayReport(all(), { includePlayMoney, minHandsTogether: minHands, decisionTimes, minDecisions, maxCv });
      for (const line of formatFairPlayReport(r)) io.out(line);
      return 0;
    } finally {
      db?.close();
      vault.close();
    }
  }

  if (trace) {
    const { idOper, idCoffre } = lobby.config.operator;
    const vault = TraceVault.open({ path: join(dataDir, 'trace.sqlite'), idOper, idCoffre });
    try {
      if (argv[1] === 'verify') {
        const v = vault.verifyChain({ publishedHash });
        if (!v.ok) {
          io.err(`trace chain broken at record ${v.idEvt}: ${v.reason}`);
          return 1;
        }
        io.out(`trace chain intact: ${v.count} records, head ${v.head.idEvt} ${v.head.hash}${publishedHash ? `; the published head ${publishedHash} is in it` : ''}`);
        // issue 12 item 5: the chain being whole is not enough; every movement needs its record.
        const c = crossCheckFolder(dataDir, vault);
        if (c === null) return 0;
        for (const line of c.missing.slice(0, 50)) io.err(line);
        if (c.missing.length > 50) io.err(`… and ${c.missing.length - 50} more`);
        if (c.missing.length > 0) {
          io.err(`trace behind the money: ${c.missing.length} of ${c.checked} movements and hands have no record`);
          return 1;
        }
        io.out(`ledger cross-check: ${c.checked} movements and hands, each with its record${c.pending ? ` (${c.pending} still in the outbox, on their way to the vault)` : ''}`);
        return 0;
      }
      if (argv[1] === 'export') {
        const from = isoDate(flags.get('from'), 'from');
        const to = isoDate(flags.get('to'), 'to');
        if (typeof from === 'string' || typeof to === 'string') {
          io.err(`${typeof from === 'string' ? from : to}\n${USAGE}`);
          return 2;
        }
        const xml = vault.exportPeriod(from, to);
        const out = flags.get('out');
        if (out === undefined) io.out(xml.trimEnd());
        else {
          writeFileSync(out, xml);
          io.out(`wrote ${out}`);
        }
        return 0;
      }
      io.err(`unknown trace command ${argv[1] ?? ''}\n${USAGE}`);
      return 2;
    } finally {
      vault.close();
    }
  }

  const port = Number(flags.get('port') ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`--port must be a port number\n${USAGE}`);
    return 2;
  }
  // issue 12 item 2: the caps follow the descriptor limit the operator is given (ulimit -n).
  const connectionLimits: { global?: number; perAddress?: number } = {};
  for (const [flag, field] of [['max-connections', 'global'], ['max-per-address', 'perAddress']] as const) {
    const v = flags.get(flag);
    if (v === undefined) continue;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000) {
      io.err(`--${flag} must be a whole number from 1 to 1000000\n${USAGE}`);
      return 2;
    }
    connectionLimits[field] = n;
  }
  // The tournaments offered (issue 16), checked like the lobby: a refused file starts nothing.
  let specs;
  try {
    specs = loadTournaments(resolve(flags.get('tournaments') ?? DEFAULT_TOURNAMENTS_PATH), Date.now());
  } catch (e) {
    if (e instanceof TournamentsConfigError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
  let op: RunningOperator;
  try {
    op = await startOperator({ dataDir, lobby, tournaments: { specs }, port, certFile: flags.get('cert'), keyFile: flags.get('key'), connectionLimits, log: io.err });
  } catch (e) {
    if (e instanceof TlsIdentityError) {
      io.err(e.message);
      return 2;
    }
    // issue 12 item 1: another operator holds the folder; nothing was read or written.
    if (e instanceof FolderInUseError) {
      io.err(e.message);
      return 1;
    }
    throw e;
  }
  io.out(op.url);
  io.out(`pin ${op.pin}`);
  io.out(`tables ${op.manager.all().length}, data ${dataDir}`);
  await io.stopSignal();
  await op.close();
  io.err('operator stopped');
  return 0;
}
