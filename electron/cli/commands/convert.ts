// `cercle convert`: a file of hands from one exchange format to another (POJEU XML, PHH,
// PokerStars-style text; shared/exchange does the work, docs/exchange.md describes the formats).

import { readFile, stat, writeFile } from 'node:fs/promises';
import { EXCHANGE_FILE_MAX_BYTES, EXCHANGE_FORMATS, detectFormat, exchangeFileTooLarge, exportHands, importHands, type ExchangeFormat } from '../../../shared/exchange';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';

const HELP = `Usage: cercle convert --to pojeu|phh|pokerstars <in> <out>

Reads every hand of <in> (its format is recognised: POJEU XML, PHH / PHHS, PokerStars-style text),
plays each one through the rules engine, and writes them all to <out> in the format asked for.
A file with a hand that is corrupt, cut short or impossible, or over the limits of what the history
can hold (ids, names, seats), is not converted at all: the line of the first problem is reported and
<out> is not written. Files over 32 MiB are refused before they are read: split them.

Options:
  --to <format>   pojeu (ARJEL POJEU XML: amounts in euros with 2 decimals, whole chips for the
                  play-money hands of a Cercle POJEU), phh, or pokerstars
  --chips         POJEU: write every amount as whole chips

Exit codes: 0 converted; 1 the input cannot be read or holds a bad hand (line reported);
2 bad usage. See docs/exchange.md.`;

export function parseFormat(v: string | undefined): ExchangeFormat | null {
  return v !== undefined && (EXCHANGE_FORMATS as readonly string[]).includes(v) ? (v as ExchangeFormat) : null;
}

export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert hand histories between POJEU XML, PHH and PokerStars-style text',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    let to: ExchangeFormat | null = null;
    let chips = false;
    const files: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--help' || a === '-h') {
        io.out(HELP);
        return EXIT_OK;
      }
      if (a === '--to') {
        to = parseFormat(args[++i]);
        if (to === null) {
          io.err(`cercle convert: --to takes ${EXCHANGE_FORMATS.join(', ')}`);
          return EXIT_USAGE;
        }
      } else if (a === '--chips') chips = true;
      else if (a.startsWith('-')) {
        io.err(`cercle convert: unknown option '${a}' (see cercle convert --help)`);
        return EXIT_USAGE;
      } else files.push(a);
    }
    if (to === null || files.length !== 2) {
      io.err('cercle convert: usage: cercle convert --to pojeu|phh|pokerstars <in> <out>');
      return EXIT_USAGE;
    }
    const [input, output] = files;
    let text: string;
    try {
      // Over the bound, refused before reading (a 200 MB text used to take 3.5 GB).
      const size = (await stat(input)).size;
      if (size > EXCHANGE_FILE_MAX_BYTES) {
        io.err(`cercle convert: ${input}: ${exchangeFileTooLarge(size)} (nothing converted)`);
        return EXIT_FAILED;
      }
      text = await readFile(input, 'utf8');
    } catch (error) {
      io.err(`cercle convert: cannot read '${input}': ${error instanceof Error ? error.message : String(error)}`);
      return EXIT_FAILED;
    }
    const from = detectFormat(text);
    if (from === null) {
      io.err(`cercle convert: ${input}: line 1: not POJEU XML, PHH or PokerStars-style text`);
      return EXIT_FAILED;
    }
    const read = importHands(from, text);
    if (!read.ok) {
      io.err(`cercle convert: ${input}: line ${read.line}: ${read.message} (nothing converted)`);
      return EXIT_FAILED;
    }
    try {
      await writeFile(output, exportHands(to, read.hands, chips ? { pojeuScale: 0 } : {}), 'utf8');
    } catch (error) {
      io.err(`cercle convert: cannot write '${output}': ${error instanceof Error ? error.message : String(error)}`);
      return EXIT_FAILED;
    }
    io.out(`${read.hands.length} hand${read.hands.length === 1 ? '' : 's'} converted from ${from} to ${to}: ${output}`);
    return EXIT_OK;
  },
};
