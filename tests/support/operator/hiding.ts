/**
 * Information hiding checked against the regulator's trace (DESIGN.md §1, R-HIDDEN): every frame a
 * client received is read against the hand as its POJEU has it (every card dealt): a card may appear
 * only if it was dealt to this client's seat, dealt face up (Stud), is a board card, or was shown
 * earlier in the stream. The known-card bit sets of the hand state are decoded and checked too.
 * Used by tests/integration/operator-hiding.test.ts (players and a watcher of every table) and
 * operator-watch-resume.test.ts (a watcher across a resume).
 */
import { handOf } from '../../../shared/protocol/hand';
import type { ServerMessage } from '../../../shared/protocol/messages';
import type { TraceVault } from '../../../operator/trace/vault';

/**
 * Per hand id: the cards dealt face down to each seat (0-based; in Triple Draw a card discarded and
 * reshuffled may be dealt to two seats in turn), and the cards everybody saw dealt.
 */
export type Dealt = { bySeat: Map<number, Set<number>>; open: Set<number> };

export function dealtCards(vault: TraceVault, tableId: string): Map<string, Dealt> {
  const out = new Map<string, Dealt>();
  for (const r of vault.byTech(tableId)) {
    if (r.kind !== 'POJEU') continue;
    const pool = /<Pool>([^<]+)<\/Pool>/.exec(r.xml)![1];
    const hand: Dealt = { bySeat: new Map(), open: new Set() };
    for (const m of r.xml.matchAll(/<Draw([^>]*)>\s*(?:<Siege>(\d+)<\/Siege>\s*)?<Valeur>(\d+)<\/Valeur>/g)) {
      const card = Number(m[3]);
      if (/ouverte="true"|commune="true"/.test(m[1])) hand.open.add(card);
      else {
        const seat = Number(m[2]) - 1;
        if (!hand.bySeat.has(seat)) hand.bySeat.set(seat, new Set());
        hand.bySeat.get(seat)!.add(card);
      }
    }
    out.set(pool, hand);
  }
  return out;
}

/** Every card a frame carries: in card lists, and in the known-card bit sets. */
export function cardsIn(v: unknown, key = '', out: number[] = []): number[] {
  if (Array.isArray(v)) {
    if (['cards', 'hole', 'board', 'discards', 'discardPool'].includes(key)) for (const c of v) if (typeof c === 'number') out.push(c);
    for (const x of v) if (typeof x === 'object' && x !== null) cardsIn(x, '', out);
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'usedLo' || k === 'usedHi') {
        for (let b = 0; b < 26; b++) if (((x as number) >>> b) & 1) out.push(b + (k === 'usedHi' ? 26 : 0));
      } else cardsIn(x, k, out);
    }
  }
  return out;
}

/**
 * Reads one client's frames, table by table, against the trace; throws at the first card the client
 * could not see. Returns how many frames and cards of hands in the trace were checked (a hand still
 * in play when the trace was read is skipped), and the table frames (snapshots, events) read.
 */
export function checkHiding(vault: TraceVault, received: readonly ServerMessage[]): { frames: number; cards: number; tableFrames: number } {
  let frames = 0;
  let cards = 0;
  let tableFrames = 0;
  const deals = new Map<string, Map<string, Dealt>>();
  for (const only of new Set(received.flatMap((m) => ('tableId' in m && m.tableId ? [m.tableId] : [])))) {
    let seat: number | null = null;
    let handId: string | null = null;
    let shown = new Set<number>();
    if (!deals.has(only)) deals.set(only, dealtCards(vault, only));
    const check = (m: ServerMessage, tableId: string, payload: unknown) => {
      if (handId === null) return;
      const hand = deals.get(tableId)!.get(handId);
      if (!hand) return; // the hand was still being played when the trace was read
      frames++;
      for (const c of cardsIn(payload)) {
        cards++;
        const own = seat !== null && (hand.bySeat.get(seat)?.has(c) ?? false);
        const owners = [...hand.bySeat].filter(([, cs]) => cs.has(c)).map(([s]) => s);
        // A card dealt to no one yet is the stub's (the next board card, a draw's replacement): it is
        // hidden from everybody, so seeing it is a leak too.
        const visible = own || hand.open.has(c) || shown.has(c);
        if (!visible) {
          const whose = owners.length === 0 ? 'the stub (dealt to no one yet)' : `seat ${owners}`;
          throw new Error(`${tableId} ${handId}: seat ${seat} was sent card ${c} of ${whose} before it was shown: ${JSON.stringify(m).slice(0, 400)}`);
        }
      }
    };
    for (const m of received) {
      if (!('tableId' in m) || m.tableId !== only) continue;
      if (m.type === 'table.snapshot') {
        tableFrames++;
        seat = m.table.you?.seat ?? null;
        handId = m.table.hand?.handId ?? null;
        // The hand travels as a view: what was shown is what its actions show.
        shown = new Set(m.table.hand ? m.table.hand.actions.flatMap((a) => (a.type === 'show' ? (a.cards ?? []) : [])) : []);
        check(m, m.tableId, m.table);
        // And the state the client folds from it (its engine's bookkeeping included) knows no more.
        if (m.table.hand) check(m, m.tableId, handOf(m.table.hand));
        continue;
      }
      if (m.type !== 'table.event') continue;
      tableFrames++;
      const e = m.event;
      if (e.type === 'you') seat = e.you?.seat ?? seat;
      if (e.type === 'handStart') {
        handId = e.hand.handId;
        shown = new Set();
      }
      if (e.type === 'action' && e.action.type === 'show') for (const c of e.action.cards ?? []) shown.add(c);
      check(m, m.tableId, e);
      if (e.type === 'handEnd' || e.type === 'handCancelled') handId = null;
    }
  }
  return { frames, cards, tableFrames };
}
