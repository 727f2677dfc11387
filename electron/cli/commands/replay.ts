// `cercle replay`: every hand of PHH files through the rules engine, checked against the recorded
// final stacks (shared/exchange/phh/replay.ts does the work through the exchange's one driver; this is files and printing).

import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePhhs } from '../../../shared/exchange/phh/phh';
import { replayHand, type ReplayResult } from '../../../shared/exchange/phh/replay';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';

const HELP = `Usage: cercle replay [--verbose] <file or folder>...

Replays every hand of the given .phh / .phhs files (folders are searched recursively, in name order)
through the rules engine and compares the final stacks with the hand's finishing_stacks.

One line per hand:
  ok <file>[#n]                  every action accepted; final stacks as recorded
  fail <file>[#n]: <reason>      the refused action (numbered from 1, with its text) and the rule,
                                 or the final stacks that differ from finishing_stacks
  skip <file>[#n]: <reason>      not replayed, NOT counted as failed: variants outside the decree
                                 (N2L1D, NS, FB: parsed only) and documented house rules of the
                                 source that our rules cannot play (straddles)
#n names the hand's table in a .phhs file. A file that cannot be read or parsed is one failure.
A hand without finishing_stacks passes when every action is accepted.
The last line is "N passed, M failed".

Options:
  --verbose   after each ok line, the table rules chosen for the source (e.g. the WSOP limit
              cap of 1 bet + 4 raises) and anything the replay stopped at

Exit codes: 0 nothing failed; 1 at least one hand failed; 2 bad usage (no path, unknown option,
a path that does not exist). See docs/phh.md.`;

async function collect(path: string, out: string[]): Promise<void> {
  const info = await stat(path);
  if (!info.isDirectory()) {
    out.push(path);
    return;
  }
  const names = (await readdir(path)).sort();
  for (const name of names) {
    const child = join(path, name);
    const childInfo = await stat(child);
    if (childInfo.isDirectory()) await collect(child, out);
    else if (/\.phhs?$/i.test(name)) out.push(child);
  }
}

function describeFailure(r: Extract<ReplayResult, { ok: false }>, actions: readonly string[]): string {
  if (r.skipped) return r.reason;
  const parts: string[] = [];
  if (r.actionIndex !== undefined) parts.push(`action ${r.actionIndex + 1} '${actions[r.actionIndex] ?? ''}'`);
  if (r.rule !== undefined) parts.push(r.rule);
  let text = parts.length > 0 ? `${parts.join(': ')}: ${r.reason}` : r.reason;
  if (r.expected !== undefined && r.actual !== undefined) {
    const players = r.expected.map((_, i) => i).filter((i) => r.expected![i] !== r.actual![i]);
    const diffs = players.map((i) => `p${i + 1} expected ${r.expected![i]}, got ${r.actual![i]}`);
    text += ` (${diffs.join('; ')})`;
  }
  return text;
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay PHH hand histories through the rules engine (skips non-decree variants)',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    let verbose = false;
    const paths: string[] = [];
    for (const a of args) {
      if (a === '--help' || a === '-h') {
        io.out(HELP);
        return EXIT_OK;
      }
      if (a === '--verbose' || a === '-v') verbose = true;
      else if (a.startsWith('-') && a !== '-') {
        io.err(`cercle replay: unknown option '${a}' (see cercle replay --help)`);
        return EXIT_USAGE;
      } else paths.push(a);
    }
    if (paths.length === 0) {
      io.err('cercle replay: give at least one .phh / .phhs file or folder (see cercle replay --help)');
      return EXIT_USAGE;
    }
    const files: string[] = [];
    for (const p of paths) {
      try {
        await collect(p, files);
      } catch {
        io.err(`cercle replay: cannot read '${p}'`);
        return EXIT_USAGE;
      }
    }

    let passed = 0;
    let failed = 0;
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        failed++;
        io.out(`fail ${file}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const parsed = parsePhhs(text);
      if (!parsed.ok) {
        failed++;
        io.out(`fail ${file}: line ${parsed.line}: ${parsed.reason}`);
        continue;
      }
      const several = parsed.hands.length > 1 || parsed.hands.some((h) => h.name !== '');
      for (const { name, hand } of parsed.hands) {
        const label = several ? `${file}#${name}` : file;
        const r = replayHand(hand);
        if (r.ok) {
          passed++;
          io.out(`ok ${label}`);
          if (verbose) {
            if (!r.stacksChecked) io.out('  no finishing_stacks: actions checked only');
            for (const note of r.notes) io.out(`  ${note}`);
          }
        } else if (r.skipped) {
          io.out(`skip ${label}: ${r.reason}`);
        } else {
          failed++;
          io.out(`fail ${label}: ${describeFailure(r, hand.actions)}`);
        }
      }
    }
    io.out(`${passed} passed, ${failed} failed`);
    return failed > 0 ? EXIT_FAILED : EXIT_OK;
  },
};
