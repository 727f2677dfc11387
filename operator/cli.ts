/**
 * The operator's command line (`npm run operator -- …`, i.e. `npx tsx operator/main.ts …`):
 *
 *   --port <port> --data <folder> [--config <file>] [--tournaments <file>] [--cert <pem> --key <pem>] [--max-connections <n>] [--max-per-address <n>]
 *       runs the operator (the tournaments of --tournaments, by default config/tournaments.default.json) (connection caps: server/gate.ts, default 900 and 32); prints `wss://127.0.0.1:<port>` and `pin sha256/<base64>`; stops on
 *       SIGINT/SIGTERM (hands in progress cancelled, every player cashed out)
 *   trace verify --data <folder> [--config <file>] [--head <hash>] [--heads <file>] [--key <pem>]
 *       recomputes the trace vault's hash chain, checks it against the heads the operator signed (the
 *       folder's trace-heads.jsonl, or --heads; signatures checked with the folder's public key, or
 *       --key: trace/seal.ts), then checks every ledger movement and every hand played has its record
 *       (trace/crosscheck.ts); exit 1 if the chain is broken, cut short or a record is missing; with
 *       --head, a head published earlier (the operator's log line `trace head`) must be in the chain
 *   trace verify --file <export> [--head <hash>] [--key <pem>]
 *       verifies an export alone, without the vault: each record's hash and link, and the operator's
 *       seal over its count and both ends (with --key, the seal must be that published key's)
 *   trace export --data <folder> --from <iso> --to <iso> [--out <file>] [--config <file>]
 *       the records of [from, to) as one XML document (stdout, or the file), each with its chain
 *       hashes, sealed with the folder's signing key
 * The trace and report commands read the folder's evidence read-only (trace/evidence.ts): a missing
 * folder, vault or key is an error, and nothing is created or migrated (R-TRACE).
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
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FolderInUseError } from '../shared/node/folder-lock';
import { ConfigError, DEFAULT_CONFIG_PATH, loadConfig } from './config/config';
import type { Db } from '../shared/node/sqlite';
import { replaceBanFile } from './protection/bans';
import { DEFAULT_TOURNAMENTS_PATH, loadTournaments, TournamentsConfigError } from './tournaments/config';
import { OPERATOR_MIGRATIONS } from './schema';
import { payoutsCommand, PAYOUTS_USAGE } from './payouts-cli';
import { startOperator, type RunningOperator } from './server/operator';
import { fairPlayReport, formatFairPlayReport, REGULAR_DECISIONS } from './fairplay/fairplay';
import { duplicateIdentities } from './fairplay/identities';
import { DecisionTimes } from './fairplay/timings';
import { TlsIdentityError } from './tls';
import { crossCheck, type CrossCheck } from './trace/crosscheck';
import { EvidenceError, openEvidence, requireFolder } from './trace/evidence';
import { TraceOutbox } from './trace/outbox';
import { HEADS_FILE, keyFingerprint, PUBLIC_KEY_FILE, readPublicKey, readSignedHeads, TraceSigner } from './trace/seal';
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
  '  operator trace verify --data <folder> [--config <file>] [--head <hash>] [--heads <file>] [--key <pem>]',
  '  operator trace verify --file <export> [--head <hash>] [--key <pem>]',
  '  operator trace export --data <folder> --from <iso> --to <iso> [--out <file>] [--config <file>]',
  '  operator report --data <folder> [--config <file>] [--min-hands <n>] [--min-decisions <n>] [--max-cv <x>] [--play yes]',
  '  operator bans replace <file> --data <folder>',
  PAYOUTS_USAGE,
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

/**
 * The folder's vault, read-only. With an explicit --config, its IDOper/IDCoffre must be the vault's
 * (one file is one coffre); without, the vault's own are used (a verifier needs no configuration).
 */
function openVault(dataDir: string, expected: { idOper: string; idCoffre: number } | null): TraceVault {
  const vault = TraceVault.openReadonly(join(dataDir, 'trace.sqlite'));
  if (expected && (vault.idOper !== expected.idOper || vault.idCoffre !== expected.idCoffre)) {
    vault.close();
    throw new EvidenceError(`the trace vault of ${dataDir} belongs to IDOper ${vault.idOper} / IDCoffre ${vault.idCoffre}, not ${expected.idOper} / ${expected.idCoffre}; one file is one coffre`);
  }
  return vault;
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
  const db = openEvidence(opPath, 'operator database', OPERATOR_MIGRATIONS.length);
  const histPath = join(dataDir, 'history.sqlite');
  let hist;
  try {
    hist = existsSync(histPath) ? openEvidence(histPath, 'hand history database') : null;
  } catch (e) {
    db.close();
    throw e;
  }
  try {
    const hasOutbox = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trace_outbox'").get() !== undefined;
    return crossCheck(db, vault, hist, hasOutbox ? new TraceOutbox(db, vault).pendingRecords() : []);
  } finally {
    hist?.close();
    db.close();
  }
}

/** The public key to check signatures with: --key, else the one the folder publishes (null if neither). */
function publicKeyOf(file: string | undefined, dataDir: string | null, io: CliIo): KeyObject | null | 'bad' {
  const path = file ?? (dataDir !== null && existsSync(join(dataDir, PUBLIC_KEY_FILE)) ? join(dataDir, PUBLIC_KEY_FILE) : undefined);
  if (path === undefined) return null;
  const text = readText(path, io);
  const key = text === null ? null : readPublicKey(text);
  if (key === null) {
    if (text !== null) io.err(`${path} is not a public key (PEM)`);
    return 'bad';
  }
  return key;
}

/**
 * The vault against the heads the operator signed (trace/seal.ts): every head's record still there,
 * unchanged. A folder with the operator's key but no heads file lost it (records cut off the end hide
 * that way): refused. Returns the lines to print, or null once a failure is told.
 */
function checkHeads(vault: TraceVault, dataDir: string, flags: Map<string, string>, io: CliIo): string | null {
  const key = publicKeyOf(flags.get('key'), dataDir, io);
  if (key === 'bad') return null;
  const headsFile = flags.get('heads') ?? join(dataDir, HEADS_FILE);
  if (!existsSync(headsFile)) {
    if (key !== null) {
      io.err(`no signed heads ${headsFile}, though the operator's key is there: the heads were removed, and records cut off the vault's end could not be seen`);
      return null;
    }
    return 'no signed heads in this folder (an operator of an older build): records cut off the end are caught only against a published head (--head)';
  }
  if (key === null) {
    io.err(`signed heads ${headsFile} but no public key to check them (${PUBLIC_KEY_FILE} in the folder, or --key)`);
    return null;
  }
  const text = readText(headsFile, io);
  if (text === null) return null;
  const heads = readSignedHeads(text, key);
  if (!heads.ok) {
    io.err(`${headsFile}, line ${heads.line}: ${heads.reason}`);
    return null;
  }
  const broken = vault.missingHead(heads.heads);
  if (broken) {
    io.err(`trace chain broken at record ${broken.idEvt}: ${broken.reason}`);
    return null;
  }
  const last = heads.heads[heads.heads.length - 1];
  return `signed heads: ${heads.heads.length} (key ${keyFingerprint(key)}), each in the chain${last ? `; the last, signed at ${last.at}, is record ${last.idEvt}` : ''}`;
}

/** Runs one command; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    // Evidence missing or unreadable (trace/evidence.ts): told, nothing created.
    if (e instanceof EvidenceError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'bans') return replaceBans(argv, io);
  if (argv[0] === 'payouts') return payoutsCommand(argv.slice(1), io);
  const trace = argv[0] === 'trace';
  const report = argv[0] === 'report';
  const flags = parseFlags(trace ? argv.slice(2) : report ? argv.slice(1) : argv);
  if (typeof flags === 'string') {
    io.err(`${flags}\n${USAGE}`);
    return 2;
  }
  const known = trace
    ? ['data', 'config', 'from', 'to', 'out', 'file', 'head', 'heads', 'key']
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
    // An export verifies alone, without the vault (nor --data).
    const text = readText(file, io);
    if (text === null) return 2;
    const key = publicKeyOf(flags.get('key'), null, io);
    if (key === 'bad') return 2;
    const v = verifyExport(text, { publishedHash, publicKey: key ?? undefined });
    if (!v.ok) {
      io.err(`export ${file}: chain broken at record ${v.idEvt}: ${v.reason}`);
      return 1;
    }
    io.out(`export intact: ${v.count} records` + (v.head ? `, from after ${v.continues!.idEvt} (${v.continues!.hash}) to ${v.head.idEvt} ${v.head.hash}` : '') + (publishedHash ? `; the published head ${publishedHash} is in it` : ''));
    io.out(key ? `sealed by the operator's published key ${v.sealedBy}` : `sealed by the key ${v.sealedBy}: compare it with the key the operator publishes (or pass it with --key)`);
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
    requireFolder(dataDir);
    const vault = openVault(dataDir, flags.has('config') ? { idOper, idCoffre } : null);
    let db: Db | undefined;
    try {
      db = openEvidence(join(dataDir, 'operator.sqlite'), 'operator database', OPERATOR_MIGRATIONS.length);
      const decisionTimes = new DecisionTimes(db).stats({ includePlayMoney, minDecisions });
      const head = vault.head().idEvt;
      function* all() {
        for (let i = 1; i <= head; i++) {
          const r = vault.get(i);
          if (r) yield r;
        }
      }
      const r = fairPlayReport(all(), { includePlayMoney, minHandsTogether: minHands, decisionTimes, minDecisions, maxCv, duplicateIdentities: duplicateIdentities(db) });
      for (const line of formatFairPlayReport(r)) io.out(line);
      return 0;
    } finally {
      db?.close();
      vault.close();
    }
  }

  if (trace) {
    if (argv[1] !== 'verify' && argv[1] !== 'export') {
      io.err(`unknown trace command ${argv[1] ?? ''}\n${USAGE}`);
      return 2;
    }
    const { idOper, idCoffre } = lobby.config.operator;
    requireFolder(dataDir);
    const vault = openVault(dataDir, flags.has('config') ? { idOper, idCoffre } : null);
    try {
      if (argv[1] === 'verify') {
        const v = vault.verifyChain({ publishedHash });
        if (!v.ok) {
          io.err(`trace chain broken at record ${v.idEvt}: ${v.reason}`);
          return 1;
        }
        const heads = checkHeads(vault, dataDir, flags, io);
        if (heads === null) return 1;
        io.out(`trace chain intact: ${v.count} records, head ${v.head.idEvt} ${v.head.hash}${publishedHash ? `; the published head ${publishedHash} is in it` : ''}`);
        io.out(heads);
        // The chain being whole is not enough; every movement needs its record.
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
        // The seal over the export's count and ends (trace/seal.ts): made with the folder's key, never a new one.
        const signer = TraceSigner.load(dataDir);
        if (signer === null) {
          io.err(`no signing key in ${dataDir}: an export cannot be sealed (the operator makes its key on its first start)`);
          return 1;
        }
        const xml = vault.exportPeriod(from, to, signer);
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
  // The caps follow the descriptor limit the operator is given (ulimit -n).
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
  // The tournaments offered, checked like the lobby: a refused file starts nothing.
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
    // Another operator holds the folder; nothing was read or written.
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
