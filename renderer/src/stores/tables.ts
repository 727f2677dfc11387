import { defineStore } from 'pinia';
import { computed, markRaw, type Ref, ref, shallowReactive, shallowRef, watch } from 'vue';
import type { SessionInfo, TableState, TournamentPlay } from '../../../shared/api';
import type { VariantCode } from '../../../shared/rules/variants';
import { useApi } from '../useApi';
import { useSessionStore } from './session';

/** Whether the table waits for a decision of ours (it stands out and can come to the front). */
export function waitsForUs(s: TableState): boolean {
  const v = s.view;
  return v !== null && v.turn !== null && v.you !== null && v.turn.seat === v.you.seat && s.pending === null;
}

/** How long "Vous avez quitté …" stays. */
export const LEFT_NOTICE_MS = 15_000;

/** A move to another table of a tournament, as the new table's tile says it. */
export interface TableMove {
  from: string | null;
  why: NonNullable<TournamentPlay['move']>['why'];
  at: number;
}

/**
 * Where each tile goes when the tournament moves the player: the order of the tiles
 * with `from` replaced by `to` in the same place (or `to` added at the end when `from` is not shown).
 * `to` is taken out of where it was if its first state came before the move.
 */
export function orderAfterMove(order: readonly string[], from: string | null, to: string): string[] {
  const rest = order.filter((id) => id !== to);
  const i = from === null ? -1 : rest.indexOf(from);
  if (i < 0) return [...rest, to];
  rest[i] = to;
  return rest;
}

export interface LeftTable {
  tableId: string;
  name: string;
  cashedOut: number | null;
  money: 'real' | 'play';
  variant: VariantCode;
}

/** What the other table stores do when the stream changes a table (tableSeats.ts, tableDecisions.ts, tableWindows.ts). */
export interface TableReactions {
  /** A state was applied (`before`: the one shown until now). */
  applied?: (s: TableState, before: TableState | undefined) => void;
  /** The tile of `from` became the tile of `to` (a tournament's move). */
  moved?: (from: string, to: string) => void;
  /** A tile was closed (a tournament table left, or no longer watched). */
  closed?: (tableId: string) => void;
}

// The one throttle of table pushes: main pushes each change of a table once per
// turn of its event loop (electron/services/client/pushes.ts), and the pace of redraws is
// decided here, where the focus, the tile size and the frame budget are known (DESIGN.md §5: 24
// busy tables, no frame over budget). Pushes are applied in animation frames. What the player must see at once goes at the next frame: the
// table they act on, a table starting or stopping to wait for them, a change of status, their own
// action's answer, any table while there are four or fewer. Other tiles redraw at most every
// TILE_MS (SMALL_TILE_MS past 12 tables), and no more of them per frame than the frame budget
// allows: the budget halves after a frame that ran long and grows by one after a frame on time, so
// under load the peripheral tiles update a little later instead of every frame arriving late.
const TILE_MS = 100;
/** Past 12 tables the tiles are small: four redraws a second are plenty for what is not ours to act on. */
const SMALL_TILE_MS = 250;
const FRAME_MS = 1000 / 60;

interface FramePacer {
  /** A push from main: applied at the next animation frame, with the others of that frame. */
  receive: (s: TableState) => void;
  /** A table's pushes not yet applied are dropped (the table gone, closed or moved away from). */
  forget: (tableId: string) => void;
}

/** The pushes applied in animation frames, as the comment above says. */
function framePacer(o: { mustShow: (s: TableState) => boolean; apply: (s: TableState) => void; tiles: () => number }): FramePacer {
  const incoming = new Map<string, TableState>();
  const appliedAt = new Map<string, number>();
  let frame = 0;
  let lastFrame = 0;
  let budget = 4;

  function applyNow(id: string, s: TableState, now: number): void {
    incoming.delete(id);
    appliedAt.set(id, now);
    o.apply(s);
  }

  function applyIncoming(now: number): void {
    frame = 0;
    const late = lastFrame > 0 && now - lastFrame > FRAME_MS * 1.5;
    budget = late ? Math.max(1, budget >> 1) : Math.min(24, budget + 1);
    lastFrame = now;
    const interval = o.tiles() > 12 ? SMALL_TILE_MS : TILE_MS;
    const due: [string, TableState, number][] = [];
    for (const [id, s] of incoming) {
      if (o.mustShow(s)) {
        applyNow(id, s, now);
        continue;
      }
      const last = appliedAt.get(id) ?? 0;
      if (now - last >= interval) due.push([id, s, last]);
    }
    // The longest-waiting tiles first, as many as the budget allows.
    due.sort((a, b) => a[2] - b[2]);
    for (const [id, s] of due.slice(0, budget)) applyNow(id, s, now);
    if (incoming.size > 0) frame = requestAnimationFrame(applyIncoming);
    else lastFrame = 0;
  }

  return {
    receive: (s) => {
      incoming.set(s.tableId, s);
      if (frame === 0) frame = requestAnimationFrame(applyIncoming);
    },
    forget: (tableId) => void incoming.delete(tableId),
  };
}

/** The tiles as the stream keeps them: each table's state, their order, the one in front. */
interface Tiles {
  states: Map<string, TableState>;
  order: Ref<string[]>;
  focused: Ref<string | null>;
  /** Tables whose pushes are no longer shown: left by a move, or closed after the tournament ended for the player. */
  dropped: Set<string>;
  /**
   * The last push of each dropped table. A tournament can move the player back to a table left before,
   * and that table's first state of the return may come before the move event (the table's stream and
   * the tournament's events are not ordered with each other): with our turn in it, nothing more would be
   * pushed until we act, so it is kept and shown when the table is opened again.
   */
  held: Map<string, TableState>;
  pacer: FramePacer;
  reactions: TableReactions[];
  /** "Vous avez quitté …": the cash tables just left. */
  left: Ref<LeftTable[]>;
  /** Tiles of tables main no longer had when the link came back (keepLostTile), until closed. */
  lost: Set<string>;
}

/** Removes a table's tile (and its focus). */
function removeTile(t: Tiles, tableId: string): void {
  t.order.value = t.order.value.filter((id) => id !== tableId);
  if (t.focused.value === tableId) t.focused.value = null;
}

/** Adds a table's tile at the end (a join accepted, or its first state). */
function addTile(t: Tiles, tableId: string): void {
  if (!t.order.value.includes(tableId)) t.order.value = [...t.order.value, tableId];
}

/**
 * A tournament table the player no longer sits at (out, the end, or a move whose event is still
 * to come): the tile stays, its last hand in view, with the finish shown by the tournament bar;
 * the player closes it (closeTile), or the move's new table takes its place.
 */
function keepTournamentTile(t: Tiles, s: TableState, before: TableState | undefined): void {
  t.pacer.forget(s.tableId);
  // Main's last push brings the table's last view (the hand run out, the cards shown: client/tables.ts);
  // nobody acts there any more, so a turn still in it goes, or the tile would wait for our decision.
  const view = s.view ?? before?.view ?? null;
  if (before) t.states.set(s.tableId, markRaw({ ...before, status: 'gone', pending: null, view: view && { ...view, turn: null }, lastHand: s.lastHand ?? before.lastHand }));
  else if (view !== null) {
    // Seated and out within one frame (pushes are coalesced: out on the first hand, the page busy):
    // the first state drawn is the last one, and the player still sees where and how it ended.
    t.states.set(s.tableId, markRaw({ ...s, pending: null, view: { ...view, turn: null } }));
    addTile(t, s.tableId);
  } else t.order.value = t.order.value.filter((id) => id !== s.tableId);
}

/**
 * A table main no longer has once the link is back (the operator or the host stopped meanwhile, or the
 * seat was released): the tile stays, closed, its last finished hand in view (R-HISTORY, R-RESULTS),
 * until the player closes it (closeTile). Nobody acts there any more: no turn, nothing in flight. The
 * hand that was in play is not shown frozen: the operator voided it (its stakes back on the stacks) or
 * finished it without us, and main keeps what it fetched of it in the history.
 */
function keepLostTile(t: Tiles, before: TableState): void {
  t.pacer.forget(before.tableId);
  const view = before.view;
  t.states.set(before.tableId, markRaw({ ...before, status: 'gone', pending: null, error: null, cashedOut: null, view: view && { ...view, turn: null, hand: null } }));
}

/** A cash table left (or a watched one gone): "Vous avez quitté …" with what came back, and the tile goes. */
function goneTable(t: Tiles, s: TableState, before: TableState | undefined): void {
  t.pacer.forget(s.tableId);
  const tournament = s.tournamentId ?? before?.tournamentId ?? null;
  if (before?.view && tournament === null) {
    t.left.value = [{ tableId: s.tableId, name: before.view.name, cashedOut: s.cashedOut, money: before.view.money, variant: before.view.rules.variant }, ...t.left.value.filter((l) => l.tableId !== s.tableId)].slice(0, 10);
    // "Vous avez quitté …" closes by itself, or with its button.
    setTimeout(() => (t.left.value = t.left.value.filter((l) => l.tableId !== s.tableId)), LEFT_NOTICE_MS);
  }
  t.states.delete(s.tableId);
  removeTile(t, s.tableId);
}

/** A tile that takes another table's place (a tournament's move) or is closed. */
function tileMoves(t: Tiles) {
  /** Where a table's tile went (from → to), for a window that showed the old table and for bringing it back. */
  const forwards = shallowReactive(new Map<string, string>());
  /** Tiles' keys: a table's id, or the key of the tile it took over on a move. */
  const tileKeys = new Map<string, string>();
  /** A moved-to table whose first state is still to come, and the old table shown in its tile meanwhile. */
  const standIn = shallowReactive(new Map<string, string>());

  const tileKey = (id: string): string => tileKeys.get(id) ?? id;

  /** The new table's first state: the old table stops standing in for it. */
  function replaceStandIn(to: string): void {
    const from = standIn.get(to);
    if (from === undefined) return;
    standIn.delete(to);
    t.states.delete(from);
  }

  /** The tile of `from` becomes the tile of `to`, in the same place; the other table stores follow (`moved`). */
  function moveTile(from: string, to: string): void {
    t.dropped.add(from);
    t.held.delete(from);
    forwards.set(from, to);
    // The player is at `to` now: a way on from it, left by an earlier stay there, would make a loop
    // (B → A, then A → B again) and a window would follow it to the wrong table.
    forwards.delete(to);
    // The old tile's place goes to the new table; with no old tile, the new one stays where it is.
    // The tile keeps its key, so the table drawn in it is updated to the new table, not drawn anew;
    // until the new table's first state arrives, the old table stands in (tournament-move-ms).
    tileKeys.set(to, tileKey(from));
    tileKeys.delete(from);
    if (t.order.value.includes(from)) t.order.value = orderAfterMove(t.order.value, from, to);
    if (t.states.has(from) && !t.states.has(to)) standIn.set(to, from);
    else t.states.delete(from);
    t.pacer.forget(from);
    if (t.focused.value === from) t.focused.value = to;
    for (const r of t.reactions) r.moved?.(from, to);
  }

  /** The table a tile or window showing `id` shows now: `id`, or where the player was moved from it (followed to the end). */
  function current(id: string): string {
    let at = id;
    for (let i = 0; i < 100 && forwards.has(at); i++) at = forwards.get(at)!;
    return at;
  }

  /** Closes a tournament table's tile once the player is out of it (the finish has been shown on it). */
  function closeTile(tableId: string): void {
    const s = t.states.get(tableId);
    if (s && s.status !== 'gone' && !s.watching && s.tournamentId === null) return;
    t.lost.delete(tableId);
    t.dropped.add(tableId);
    t.held.delete(tableId);
    replaceStandIn(tableId);
    t.states.delete(tableId);
    t.pacer.forget(tableId);
    removeTile(t, tableId);
    for (const r of t.reactions) r.closed?.(tableId);
  }

  return { forwards, standIn, tileKey, replaceStandIn, moveTile, current, closeTile };
}

/**
 * The one place that says whether the tables' link is down: the page's link to main (the browser
 * host stopped) or main's link to the operator is not connected. Nothing sent from a table arrives
 * then, and what the tiles show may be stale. When it is back, main's tables are read again as the
 * truth (`refresh`; DESIGN.md §3: a reconnect resynchronises without guesswork): tables still there
 * resume, the others close (keepLostTile).
 */
function tablesLink(t: Tiles, refresh: () => Promise<void>) {
  const session = useSessionStore();
  // The host gone, main's session as last pushed is stale (main may start again with no link yet):
  // not trusted until read again (main.ts, onHostBack) or pushed, either of which replaces it.
  const stale = shallowRef<SessionInfo | null>(null);
  watch(
    () => session.host.up,
    (up) => {
      if (!up) stale.value = session.session;
    },
    { flush: 'sync' },
  );
  const linkDown = computed(() => !session.host.up || (session.session !== null && (session.session === stale.value || session.session.link.state !== 'connected')));

  /**
   * A table's link, as its tile shows it: 'down' while the link is down (no decision can be sent, no
   * clock shown, it waits for nothing), 'lost' once back when main no longer had the table (closed
   * with its last hand), null when live.
   */
  function linkGone(tableId: string): 'down' | 'lost' | null {
    if (t.lost.has(tableId)) return 'lost';
    const s = t.states.get(tableId);
    return linkDown.value && s !== undefined && s.status !== 'gone' ? 'down' : null;
  }

  // Sync: a link down and back within one tick still reads them again.
  watch(
    linkDown,
    (down, was) => {
      if (was && !down) void refresh().catch(() => undefined);
    },
    { flush: 'sync' },
  );
  return { linkDown, linkGone };
}

/**
 * Main's list read as the truth: a tile `shown` before the list was asked for,
 * whose table the list does not have (gone while the link was down), is closed with its last hand
 * (keepLostTile). A tile a push changed while the list was on its way is left to that push (newer).
 */
function closeUnlisted(t: Tiles, shown: ReadonlyMap<string, TableState>, listed: ReadonlySet<string>): void {
  for (const [id, before] of shown) {
    if (listed.has(id) || before.status === 'gone' || t.dropped.has(id) || t.states.get(id) !== before) continue;
    keepLostTile(t, before);
    t.lost.add(id);
  }
}

/**
 * The tables the player sits at or watches, as main pushes them, and their tiles. Each state is kept
 * raw (not deeply reactive) and replaced whole on a push, so a push re-renders only its own tile (24
 * busy tables, DESIGN.md §5). What the player does at a table is tableSeats.ts's and tableDecisions.ts's;
 * when a tournament moves the player, tournamentTables.ts says so and the tile moves here (`moveTile`).
 */
export const useTablesStore = defineStore('tables', () => {
  const api = useApi();
  const states = shallowReactive(new Map<string, TableState>());
  /** Tile order: the order the tables were joined. */
  const order = ref<string[]>([]);
  const focused = ref<string | null>(null);
  const left = ref<LeftTable[]>([]);
  const reactions: TableReactions[] = [];
  const pacer = framePacer({ mustShow, apply: (s) => put(s), tiles: () => order.value.length });
  const lost = shallowReactive(new Set<string>());
  const tiles: Tiles = { states, order, focused, dropped: new Set(), held: new Map(), pacer, reactions, left, lost };
  const moves = tileMoves(tiles);
  const link = tablesLink(tiles, () => refresh());

  function mustShow(s: TableState): boolean {
    const before = states.get(s.tableId);
    return (
      before === undefined ||
      s.status !== before.status ||
      focused.value === s.tableId ||
      order.value.length <= 4 ||
      waitsForUs(s) !== waitsForUs(before) ||
      (s.pending?.actionId ?? null) !== (before.pending?.actionId ?? null) ||
      (s.error?.message ?? null) !== (before.error?.message ?? null)
    );
  }

  /**
   * Applies a table's state: the tile, its order, and what the other table stores do about it.
   * `truth`: main's list read after the link came back, applied even when its seq is lower (the
   * operator may have started again, its frames numbered anew).
   */
  function put(s: TableState, truth = false): void {
    const before = states.get(s.tableId);
    // A table the player was moved away from, or whose finished tournament tile was closed: its last
    // pushes (the end of its stream) must not bring the tile back.
    if (tiles.dropped.has(s.tableId)) {
      tiles.held.set(s.tableId, s);
      return pacer.forget(s.tableId);
    }
    // A table closed while the link was down and pushed again: a new stay, numbered anew.
    const fresh = lost.delete(s.tableId);
    const tournament = s.tournamentId ?? before?.tournamentId ?? null;
    if (s.status === 'gone' && tournament !== null && !(before?.watching ?? s.watching)) return keepTournamentTile(tiles, s, before);
    if (s.status === 'gone') return goneTable(tiles, s, before);
    // A push older than what is shown (the call answer raced a newer event): keep the newer one.
    if (!truth && !fresh && before && before.seq !== null && s.seq !== null && s.seq < before.seq) return;
    states.set(s.tableId, markRaw(s));
    moves.replaceStandIn(s.tableId);
    joined(s.tableId);
    for (const r of reactions) r.applied?.(s, before);
  }

  /** Reads main's tables and takes them as the truth (closeUnlisted); each listed one as main has it, unless a push came meanwhile. */
  async function refresh(): Promise<void> {
    const shown = new Map(states);
    const now = await api.tables({});
    for (const s of now) put(s, states.get(s.tableId) === shown.get(s.tableId));
    closeUnlisted(tiles, shown, new Set(now.map((s) => s.tableId)));
  }

  /** The join was accepted: the tile takes its place, before the first state. */
  function joined(tableId: string): void {
    addTile(tiles, tableId);
  }

  function dismissLeft(tableId: string): void {
    left.value = left.value.filter((l) => l.tableId !== tableId);
  }

  /**
   * The player sits at (or watches) a table again: its pushes show again, from the last one held while
   * it was dropped. A held `gone` is the end of the old stay (or of a finished tournament's tile), not
   * news: the next stay's own pushes follow.
   */
  function opened(tableId: string): void {
    if (!tiles.dropped.delete(tableId)) return;
    const last = tiles.held.get(tableId);
    tiles.held.delete(tableId);
    if (last !== undefined && last.status !== 'gone') pacer.receive(last);
  }

  const list = computed(() => order.value.map((id) => states.get(id)).filter((s): s is TableState => s !== undefined));

  return {
    states, order, list, focused, left, put, refresh, joined, dismissLeft, linkDown: link.linkDown, linkGone: link.linkGone,
    forwards: moves.forwards, standIn: moves.standIn, tileKey: moves.tileKey, moveTile: moves.moveTile, current: moves.current, closeTile: moves.closeTile,
    /** Another table store reacts to the stream (registered once, as that store is made). */
    react: (r: TableReactions): void => void reactions.push(r),
    /** Follows main's `table` pushes (tablesLoad.ts then reads the tables now: `refresh`). */
    listen: (): void => void api.on('table', pacer.receive),
    opened,
  };
});
