/**
 * Entry point of the operator (`npx tsx operator/main.ts …`; see cli.ts for the commands).
 */
import { runCli } from './cli';

const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
});
process.exitCode = code;
