// `cercle rank`: what a hand is worth in a game, with the five cards that play (explainHand from
// shared/rules/eval: R-HIGH, R-LOW8, R-RAZZ, R-27).

import { cardToText, hasDuplicateCards, parseCards, type Card } from '../../../shared/rules/cards';
import { EVAL_GAMES, explainHand, type EvalGame } from '../../../shared/rules/eval';
import { EXIT_OK, EXIT_USAGE, type CliIo, type Command } from '../command';

const HELP = `Usage: cercle rank [--game <game>] [--board <cards>] [<cards>]

Prints the category of the best hand and the five cards that play, e.g.
  cercle rank --board "Jc 3d 5c 4h Jh" Ac2d   →   straight: 5c 4h 3d 2d Ac (straight, five high)

Games (--game, default high):
  high               best five of 5-7 cards (hold'em with the board, stud)          R-HIGH
  omaha-high         exactly 2 private cards + 3 of the board (--board needed)      R-HIGH
  omaha-low8         Omaha eight-or-better low (2 + 3)                               R-LOW8
  low8               eight-or-better low, best five of 5-7 cards                     R-LOW8
  razz               A-5 low, pairs count against                                    R-RAZZ
  27-decree          2-7 low, straights and flushes not counted (D art. 6 II)        R-27
  27-international   2-7 low, straights and flushes count against                    R-27

Cards are written As Td 2c (rank 2-9 T J Q K A, suit c d h s), concatenated or separated by spaces
or commas. In low8 games a hand with no qualifying low prints "no-low".

With no cards, reads one hand per line on standard input, "<cards> [| <board>]", and prints one JSON
object per line: {"category", "value", "cards", "label"}; "value" is the game's evaluator value,
higher is better within one game (0 for no qualifying low). Blank lines are skipped.

Exit codes: 0 done; 2 bad usage or bad input (the message on stderr names the input line).`;

interface Ranked {
  category: string;
  value: number;
  cards: string[];
  label: string;
}

type Evaluated = { ok: true; ranked: Ranked } | { ok: false; reason: string };

function readCards(text: string, what: string): { ok: true; cards: Card[] } | { ok: false; reason: string } {
  const cards = parseCards(text);
  if (cards === null) return { ok: false, reason: `${what} '${text.trim()}' is not a list of cards (e.g. "As Kd" or "AsKd")` };
  return { ok: true, cards };
}

function evaluate(game: EvalGame, hole: Card[], board: Card[] | null): Evaluated {
  if (hasDuplicateCards(board ? [...hole, ...board] : hole)) return { ok: false, reason: 'a card appears twice (R-DECK: one 52-card deck)' };
  if (game === 'omaha-high' || game === 'omaha-low8') {
    if (board === null) return { ok: false, reason: `${game} needs a board (--board, or "| <board>" on the line)` };
    if (hole.length < 2 || hole.length > 6) return { ok: false, reason: `${game} takes 2 to 6 private cards, got ${hole.length}` };
    if (board.length < 3 || board.length > 5) return { ok: false, reason: `${game} takes a board of 3 to 5 cards, got ${board.length}` };
  } else {
    const n = hole.length + (board?.length ?? 0);
    if (n < 5 || n > 7) return { ok: false, reason: `${game} takes 5 to 7 cards in all, got ${n}` };
  }
  const explained = explainHand(game, hole, board ?? undefined);
  // With the counts checked, null means no low qualifies (R-LOW8: five distinct ranks 8 or lower).
  if (explained === null) return { ok: true, ranked: { category: 'no-low', value: 0, cards: [], label: 'no qualifying low' } };
  return {
    ok: true,
    ranked: { category: explained.category, value: explained.value, cards: explained.cards.map(cardToText), label: explained.labelEn },
  };
}

function evaluateLine(game: EvalGame, line: string): Evaluated {
  const parts = line.split('|');
  if (parts.length > 2) return { ok: false, reason: "more than one '|' (expected <cards> [| <board>])" };
  const hole = readCards(parts[0], 'cards');
  if (!hole.ok) return hole;
  if (hole.cards.length === 0) return { ok: false, reason: 'no cards before the board' };
  let board: Card[] | null = null;
  if (parts.length === 2) {
    const b = readCards(parts[1], 'board');
    if (!b.ok) return b;
    board = b.cards.length > 0 ? b.cards : null;
  }
  return evaluate(game, hole.cards, board);
}

export const rankCommand: Command = {
  name: 'rank',
  summary: 'rank a poker hand (category and the five cards that play)',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    let game: EvalGame = 'high';
    let boardText: string | null = null;
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--help' || a === '-h') {
        io.out(HELP);
        return EXIT_OK;
      }
      if (a === '--game' || a === '--board') {
        const v = args[i + 1];
        if (v === undefined) {
          io.err(`cercle rank: ${a} needs a value`);
          return EXIT_USAGE;
        }
        i++;
        if (a === '--board') boardText = v;
        else if ((EVAL_GAMES as readonly string[]).includes(v)) game = v as EvalGame;
        else {
          io.err(`cercle rank: unknown game '${v}' (one of ${EVAL_GAMES.join(', ')})`);
          return EXIT_USAGE;
        }
        continue;
      }
      if (a.startsWith('--')) {
        io.err(`cercle rank: unknown option '${a}' (see cercle rank --help)`);
        return EXIT_USAGE;
      }
      rest.push(a);
    }

    if (rest.length > 0) {
      const hole = readCards(rest.join(' '), 'cards');
      if (!hole.ok) {
        io.err(`cercle rank: ${hole.reason}`);
        return EXIT_USAGE;
      }
      let board: Card[] | null = null;
      if (boardText !== null) {
        const b = readCards(boardText, 'board');
        if (!b.ok) {
          io.err(`cercle rank: ${b.reason}`);
          return EXIT_USAGE;
        }
        board = b.cards;
      }
      const r = evaluate(game, hole.cards, board);
      if (!r.ok) {
        io.err(`cercle rank: ${r.reason}`);
        return EXIT_USAGE;
      }
      io.out(r.ranked.cards.length > 0 ? `${r.ranked.category}: ${r.ranked.cards.join(' ')} (${r.ranked.label})` : `${r.ranked.category}: ${r.ranked.label}`);
      return EXIT_OK;
    }

    if (boardText !== null) {
      io.err('cercle rank: --board needs cards to go with it (or give "| <board>" on each input line)');
      return EXIT_USAGE;
    }
    let lineNumber = 0;
    for await (const line of io.lines()) {
      lineNumber++;
      if (line.trim() === '') continue;
      const r = evaluateLine(game, line);
      if (!r.ok) {
        io.err(`cercle rank: line ${lineNumber}: ${r.reason}`);
        return EXIT_USAGE;
      }
      io.out(JSON.stringify(r.ranked));
    }
    return EXIT_OK;
  },
};
