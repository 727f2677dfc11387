// The PHH action notation (phh.readthedocs.io, "Required Fields" → "Actions"):
//
//   d db <cards>          deal board cards          pN pb              post the bring-in
//   d dh pN <cards>       deal hole cards           pN f               fold
//   pN cc                 check or call             pN cbr <amount>    complete, bet or raise TO
//   pN sd [<cards>]       discard and draw (alone: stand pat)
//   pN sm [<cards>|-]     show (cards; `-` = the cards already dealt) or, alone, muck
//   [# commentary]        a no-op
//
// Words are separated by any whitespace; `#` starts a commentary that runs to the end. Cards are
// concatenated two-character codes (rank 23456789TJQKA, suit cdhs), `??` for an unknown card.
// Players are 1-based in the text (`p1`); `playerIndex` here is 0-based.

export type PhhCard = string;

export type PhhAction =
  | { readonly type: 'deal-board'; readonly cards: readonly PhhCard[]; readonly commentary?: string }
  | { readonly type: 'deal-hole'; readonly playerIndex: number; readonly cards: readonly PhhCard[]; readonly commentary?: string }
  | { readonly type: 'bring-in'; readonly playerIndex: number; readonly commentary?: string }
  | { readonly type: 'fold'; readonly playerIndex: number; readonly commentary?: string }
  | { readonly type: 'check-call'; readonly playerIndex: number; readonly commentary?: string }
  | {
      readonly type: 'complete-bet-raise';
      readonly playerIndex: number;
      /** The total the player's bet is raised TO this round, as written (may be a decimal). */
      readonly amount: number;
      readonly commentary?: string;
    }
  | {
      readonly type: 'discard';
      readonly playerIndex: number;
      /** The cards thrown away; empty = stand pat. */
      readonly cards: readonly PhhCard[];
      readonly commentary?: string;
    }
  | {
      readonly type: 'show-muck';
      readonly playerIndex: number;
      /** The cards shown; `'dealt'` for `-` (the hole cards already dealt); `null` = muck. */
      readonly cards: readonly PhhCard[] | 'dealt' | null;
      readonly commentary?: string;
    }
  | { readonly type: 'no-op'; readonly commentary?: string };

export type PhhActionParse = { readonly ok: true; readonly action: PhhAction } | { readonly ok: false; readonly reason: string };

const CARD = /^(?:[2-9TJQKA][cdhs]|\?\?)$/;
const AMOUNT = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Splits `AcKd??` into `['Ac', 'Kd', '??']`, or null when it is not a run of card codes. */
export function parsePhhCards(text: string): PhhCard[] | null {
  if (text.length === 0 || text.length % 2 !== 0) return null;
  const cards: PhhCard[] = [];
  for (let i = 0; i < text.length; i += 2) {
    const card = text.slice(i, i + 2);
    if (!CARD.test(card)) return null;
    cards.push(card);
  }
  return cards;
}

function player(word: string): number | null {
  const m = /^p([1-9][0-9]*)$/.exec(word);
  return m ? Number(m[1]) - 1 : null;
}

function cardsOrFail(word: string): PhhCard[] | string {
  const cards = parsePhhCards(word);
  return cards ?? `'${word}' is not a run of cards (two characters each: rank 2-9TJQKA or ?, suit cdhs or ?)`;
}

export function parsePhhAction(text: string): PhhActionParse {
  const hash = text.indexOf('#');
  const commentary = hash >= 0 ? text.slice(hash + 1).trim() : undefined;
  const words = (hash >= 0 ? text.slice(0, hash) : text).trim().split(/\s+/).filter((w) => w !== '');
  const withComment = <T extends object>(action: T): T => (commentary !== undefined ? { ...action, commentary } : action);
  if (words.length === 0) return { ok: true, action: withComment({ type: 'no-op' as const }) };

  const [actor, verb, ...args] = words;
  if (actor === 'd') {
    if (verb === 'db') {
      if (args.length !== 1) return { ok: false, reason: `'d db' takes one run of cards, got ${args.length} words` };
      const cards = cardsOrFail(args[0]);
      if (typeof cards === 'string') return { ok: false, reason: cards };
      return { ok: true, action: withComment({ type: 'deal-board' as const, cards }) };
    }
    if (verb === 'dh') {
      if (args.length !== 2) return { ok: false, reason: `'d dh' takes a player and a run of cards, got ${args.length} words` };
      const playerIndex = player(args[0]);
      if (playerIndex === null) return { ok: false, reason: `'${args[0]}' is not a player (p1, p2, ...)` };
      const cards = cardsOrFail(args[1]);
      if (typeof cards === 'string') return { ok: false, reason: cards };
      return { ok: true, action: withComment({ type: 'deal-hole' as const, playerIndex, cards }) };
    }
    return { ok: false, reason: `unknown dealer action '${verb ?? ''}' (expected db or dh)` };
  }

  const playerIndex = player(actor);
  if (playerIndex === null) return { ok: false, reason: `'${actor}' is neither the dealer (d) nor a player (p1, p2, ...)` };
  const noArgs = (type: 'bring-in' | 'fold' | 'check-call'): PhhActionParse =>
    args.length === 0
      ? { ok: true, action: withComment({ type, playerIndex }) }
      : { ok: false, reason: `'${verb}' takes no argument` };
  switch (verb) {
    case 'pb':
      return noArgs('bring-in');
    case 'f':
      return noArgs('fold');
    case 'cc':
      return noArgs('check-call');
    case 'cbr': {
      if (args.length !== 1 || !AMOUNT.test(args[0])) {
        return { ok: false, reason: `'cbr' takes one non-negative amount, got '${args.join(' ')}'` };
      }
      return { ok: true, action: withComment({ type: 'complete-bet-raise' as const, playerIndex, amount: Number(args[0]) }) };
    }
    case 'sd': {
      if (args.length > 1) return { ok: false, reason: `'sd' takes at most one run of cards` };
      if (args.length === 0) return { ok: true, action: withComment({ type: 'discard' as const, playerIndex, cards: [] }) };
      const cards = cardsOrFail(args[0]);
      if (typeof cards === 'string') return { ok: false, reason: cards };
      return { ok: true, action: withComment({ type: 'discard' as const, playerIndex, cards }) };
    }
    case 'sm': {
      if (args.length > 1) return { ok: false, reason: `'sm' takes at most one run of cards` };
      if (args.length === 0) return { ok: true, action: withComment({ type: 'show-muck' as const, playerIndex, cards: null }) };
      if (args[0] === '-') return { ok: true, action: withComment({ type: 'show-muck' as const, playerIndex, cards: 'dealt' as const }) };
      const cards = cardsOrFail(args[0]);
      if (typeof cards === 'string') return { ok: false, reason: cards };
      return { ok: true, action: withComment({ type: 'show-muck' as const, playerIndex, cards }) };
    }
    case undefined:
      return { ok: false, reason: `'${actor}' has no action` };
    default:
      return { ok: false, reason: `unknown player action '${verb}' (expected pb, f, cc, cbr, sd or sm)` };
  }
}

/** Writes an action in the notation, canonical spacing (one space, ` # ` before a commentary). */
export function formatPhhAction(action: PhhAction): string {
  const p = 'playerIndex' in action ? `p${action.playerIndex + 1}` : '';
  let text: string;
  switch (action.type) {
    case 'deal-board':
      text = `d db ${action.cards.join('')}`;
      break;
    case 'deal-hole':
      text = `d dh ${p} ${action.cards.join('')}`;
      break;
    case 'bring-in':
      text = `${p} pb`;
      break;
    case 'fold':
      text = `${p} f`;
      break;
    case 'check-call':
      text = `${p} cc`;
      break;
    case 'complete-bet-raise':
      text = `${p} cbr ${action.amount}`;
      break;
    case 'discard':
      text = action.cards.length === 0 ? `${p} sd` : `${p} sd ${action.cards.join('')}`;
      break;
    case 'show-muck':
      text = action.cards === null ? `${p} sm` : `${p} sm ${action.cards === 'dealt' ? '-' : action.cards.join('')}`;
      break;
    case 'no-op':
      text = '';
      break;
  }
  if (action.commentary !== undefined) return text === '' ? `# ${action.commentary}` : `${text} # ${action.commentary}`;
  return text;
}
