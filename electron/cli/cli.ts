// The `cercle` dispatcher: picks the command, prints help. Plain Node; never imports `electron`.

import { EXIT_OK, EXIT_USAGE, type CliIo, type Command } from './command';
import { convertCommand } from './commands/convert';
import { exportCommand } from './commands/export';
import { generateCommand } from './commands/generate';
import { importCommand } from './commands/import';
import { rankCommand } from './commands/rank';
import { replayCommand } from './commands/replay';

export const COMMANDS: readonly Command[] = [replayCommand, rankCommand, convertCommand, exportCommand, importCommand, generateCommand];

export function generalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: cercle <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'cercle <command> --help shows the options of a command.',
    '',
    ...COMMANDS.flatMap((c) => [`--- cercle ${c.name} ---`, c.help, '']),
  ].join('\n');
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === args[0]) : undefined;
    io.out(topic ? topic.help : generalHelp());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`cercle: unknown command '${name}' (commands: ${COMMANDS.map((c) => c.name).join(', ')}; see cercle --help)`);
    return EXIT_USAGE;
  }
  return command.run(args, io);
}
