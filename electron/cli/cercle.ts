// Entry point: `npx tsx electron/cli/cercle.ts <command>` (or `node --import tsx ...`).
// Binds the commands to this process's streams; everything else lives in cli.ts and commands/.

import { createInterface } from 'node:readline';
import type { CliIo } from './command';
import { runCli } from './cli';

const io: CliIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  lines: () => createInterface({ input: process.stdin, crlfDelay: Infinity }),
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not bad input: say so plainly and fail.
    process.stderr.write(`cercle: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
