// What every `cercle` command is: a name, its help, and a run function over plain text streams.
// One module per command under ./commands (replay, rank; convert and export can be added the
// same way). Commands never touch `process` themselves, so they stay testable in-process too.

export interface CliIo {
  /** Writes one line to standard output. */
  out(line: string): void;
  /** Writes one line to standard error. */
  err(line: string): void;
  /** Standard input, one line at a time (without the line end). */
  lines(): AsyncIterable<string>;
}

/** Exit codes: 0 all good, 1 something checked failed (replay), 2 bad usage or bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full help: usage, options, output, exit codes. */
  readonly help: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}
