import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowReactive } from 'vue';
import type { Outcome, TableState, TournamentPlay } from '../../../shared/api';
import type { TournamentDetails, TournamentStanding } from '../../../shared/protocol/tournament';
import type { Move } from '../../../shared/protocol/messages';
import type { VariantCode } from '../../../shared/rules/variants';
import { useApi } from '../useApi';
import { outcomeText, safely } from '../errors';
import { i18n } from '../i18n';
import { shouldAutoMuck } from '../table/automuck';
import { tableHand } from '../table/hand';
import { autoTopUpAmount } from '../table/topup';
import { detailsStale } from '../tournaments/bar';
import { useNoticesStore } from './notices';
import { useSessionStore } from './session';
import { useSettingsStore } from './settings';
import { useTournamentsStore } from './tournaments';

/** Whether the table waits for a decision of ours (it stands out and can come to the front). */
export function waitsForUs(s: TableState): boolean {
  const v = s.view;
  return v !== null && v.turn !== null && v.you !== null && v.turn.seat === v.you.seat && s.pending === null;
}

/** An action id unique to this client (docs/protocol.md "Action ids": the operator applies an id once). */
export function newActionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `r-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** How long "Vous avez quitté …" stays. */
export const LEFT_NOTICE_MS = 15_000;
/** How long the message saying why the player changed tables stays; its button closes it sooner. */
export const MOVE_NOTICE_MS = 30_000;

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

/**
 * The tables the player sits at, as main pushes them. Each state is kept raw (not deeply reactive) and
 * replaced whole on a push, so a push re-renders only its own tile (24 busy tables, DESIGN.md §5).
 */
export const useTablesStore = defineStore('tables', () => {
  const api = useApi();
  const settings = useSettingsStore();
  const notices = useNoticesStore();
  const session = useSessionStore();
  const tournaments = useTournamentsStore();
  const states = shallowReactive(new Map<string, TableState>());
  /** Tile order: the order the tables were joined. */
  const order = ref<string[]>([]);
  const focused = ref<string | null>(null);
  /** Tables shown in their own window or tab: their tile gives way to a placeholder. */
  const poppedOut = ref<Set<string>>(new Set());
  const left = ref<LeftTable[]>([]);
  /**
   * What the player asked to do when the current hand ends: leave, or sit out
   * from the next hand, without folding the hand in progress. Shown on the table; done by the
   * first push that shows the hand over (or the player out of it).
   */
  const afterHand = shallowReactive(new Map<string, 'leave' | 'sitOut'>());
  /**
   * The echo of a click: the action just clicked, shown as sent from the next frame until main
   * answers. Not a second owner of "pending": main's outbox decides what is in
   * flight (one decision per table); this only spares the player the round trip to main before the
   * click shows (the `action-ack-ms` budget), and gives way to main's state as soon as it has one.
   */
  const clicked = shallowReactive(new Map<string, { actionId: string; move: Move }>());

  // The one throttle of table pushes: main pushes each change of a table once per
  // turn of its event loop (electron/services/client/pace.ts, no timer), and the pace of redraws is
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
  const incoming = new Map<string, TableState>();
  const appliedAt = new Map<string, number>();
  let frame = 0;
  let lastFrame = 0;
  let budget = 4;

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

  function receive(s: TableState): void {
    incoming.set(s.tableId, s);
    if (frame === 0) frame = requestAnimationFrame(applyIncoming);
  }

  function applyIncoming(now: number): void {
    frame = 0;
    const late = lastFrame > 0 && now - lastFrame > FRAME_MS * 1.5;
    budget = late ? Math.max(1, budget >> 1) : Math.min(24, budget + 1);
    lastFrame = now;
    const interval = order.value.length > 12 ? SMALL_TILE_MS : TILE_MS;
    const due: [string, TableState, number][] = [];
    for (const [id, s] of incoming) {
      if (mustShow(s)) {
        incoming.delete(id);
        appliedAt.set(id, now);
        put(s);
        continue;
      }
      const last = appliedAt.get(id) ?? 0;
      if (now - last >= interval) due.push([id, s, last]);
    }
    // The longest-waiting tiles first, as many as the budget allows.
    due.sort((a, b) => a[2] - b[2]);
    for (const [id, s] of due.slice(0, budget)) {
      incoming.delete(id);
      appliedAt.set(id, now);
      put(s);
    }
    if (incoming.size > 0) frame = requestAnimationFrame(applyIncoming);
    else lastFrame = 0;
  }

  function put(s: TableState): void {
    const before = states.get(s.tableId);
    // A table the player was moved away from, or whose finished tournament tile was closed: its last
    // pushes (the end of its stream) must not bring the tile back.
    if (dropped.has(s.tableId)) {
      incoming.delete(s.tableId);
      return;
    }
    const tournament = s.tournamentId ?? before?.tournamentId ?? null;
    if (s.status === 'gone' && tournament !== null && !(before?.watching ?? s.watching)) {
      // A tournament table the player no longer sits at (out, the end, or a move whose event is still
      // to come): the tile stays, its last hand in view, with the finish shown by the tournament bar;
      // the player closes it (closeTile), or the move's new table takes its place.
      incoming.delete(s.tableId);
      // Main's last push brings the table's last view (the hand run out, the cards shown: core.ts);
      // nobody acts there any more, so a turn still in it goes, or the tile would wait for our decision.
      const view = s.view ?? before?.view ?? null;
      if (before) states.set(s.tableId, markRaw({ ...before, status: 'gone', pending: null, view: view && { ...view, turn: null }, lastHand: s.lastHand ?? before.lastHand }));
      else if (view !== null) {
        // Seated and out within one frame (pushes are coalesced: out on the first hand, the page busy):
        // the first state drawn is the last one, and the player still sees where and how it ended.
        states.set(s.tableId, markRaw({ ...s, pending: null, view: { ...view, turn: null } }));
        if (!order.value.includes(s.tableId)) order.value = [...order.value, s.tableId];
      } else order.value = order.value.filter((id) => id !== s.tableId);
      return;
    }
    if (s.status === 'gone') {
      incoming.delete(s.tableId);
      if (before?.view && tournament === null) {
        left.value = [{ tableId: s.tableId, name: before.view.name, cashedOut: s.cashedOut, money: before.view.money, variant: before.view.rules.variant }, ...left.value.filter((l) => l.tableId !== s.tableId)].slice(0, 10);
        // "Vous avez quitté …" closes by itself, or with its button.
        setTimeout(() => dismissLeft(s.tableId), LEFT_NOTICE_MS);
      }
      states.delete(s.tableId);
      order.value = order.value.filter((id) => id !== s.tableId);
      if (focused.value === s.tableId) focused.value = null;
      return;
    }
    // A push older than what is shown (the call answer raced a newer event): keep the newer one.
    if (before && before.seq !== null && s.seq !== null && s.seq < before.seq) return;
    // Main's outbox has our click now: its state, not the echo, says what is in flight.
    if (s.pending !== null && clicked.get(s.tableId)?.actionId === s.pending.actionId) clicked.delete(s.tableId);
    if (settings.settings.sounds && !(before && waitsForUs(before)) && waitsForUs(s)) beep();
    states.set(s.tableId, markRaw(s));
    replaceStandIn(s.tableId);
    if (!order.value.includes(s.tableId)) order.value = [...order.value, s.tableId];
    runAfterHand(s);
    autoTopUp(s);
    sitInWhenRebought(s);
    autoMuck(s);
  }

  /** Hands already auto-mucked, per table (one request a hand). */
  const autoMucked = new Map<string, number>();
  /**
   * Auto-muck (Réglages, off by default): at our turn to show or muck, a hand that
   * cannot win or tie any part of any pot against the hands shown is mucked (table/automuck.ts).
   */
  function autoMuck(s: TableState): void {
    const v = s.view;
    const hand = tableHand(s);
    if (!settings.settings.autoMuck || v === null || hand === null || v.you === null || !waitsForUs(s) || clicked.has(s.tableId)) return;
    if (autoMucked.get(s.tableId) === v.handNo || !shouldAutoMuck(hand, v.you.seat)) return;
    autoMucked.set(s.tableId, v.handNo);
    void act(s.tableId, { type: 'muck' });
  }

  /** Hands for which an automatic top-up was asked, per table (one request a hand). */
  const autoAsked = new Map<string, number>();
  /** Auto-rebuy / auto top-up between hands, as the settings say. */
  function autoTopUp(s: TableState): void {
    const v = s.view;
    const you = v?.you ?? null;
    if (v === null || you === null || s.status !== 'live' || autoAsked.get(s.tableId) === v.handNo) return;
    const seat = v.seats[you.seat];
    const balance = session.session?.balances?.[v.money] ?? 0;
    const amount = autoTopUpAmount(settings.settings.autoTopUp, seat?.stack ?? 0, you.pendingTopUp, v.buyIn, balance, inLiveHand(s));
    if (amount === null) return;
    autoAsked.set(s.tableId, v.handNo);
    const bust = seat?.stack === 0 && seat.status === 'sitting-out';
    void (bust ? rebuy : topUp)(s.tableId, amount).then((r) => {
      if (!r.ok) notices.push(outcomeText(i18n.global.t, r));
    });
  }

  /** Whether we hold cards in a hand still being played at this table. */
  function inLiveHand(s: TableState): boolean {
    const h = tableHand(s);
    const seat = s.view?.you?.seat ?? null;
    if (h === null || seat === null || h.phase === 'done') return false;
    const st = h.seats[seat]?.status;
    return st === 'in' || st === 'allin';
  }

  function runAfterHand(s: TableState): void {
    const what = afterHand.get(s.tableId);
    if (what === undefined || s.status !== 'live' || inLiveHand(s)) return;
    afterHand.delete(s.tableId);
    if (what === 'leave') void leave(s.tableId);
    else void sitOut(s.tableId, true);
  }

  /** Leave or sit out when this hand ends (null: forget it). Done at once when no hand of ours is running. */
  function setAfterHand(tableId: string, what: 'leave' | 'sitOut' | null): void {
    if (what === null) afterHand.delete(tableId);
    else afterHand.set(tableId, what);
    const s = states.get(tableId);
    if (s) runAfterHand(s);
  }

  async function refresh(): Promise<void> {
    for (const s of await api.tables({})) put(s);
  }

  async function load(): Promise<void> {
    api.on('table', receive);
    // Moves between a tournament's tables are followed from the `tournament` events.
    api.on('tournament', follow);
    await refresh();
    await tournaments.start().catch(() => undefined);
    for (const p of tournaments.list) follow(p);
  }

  // ---- tournaments

  /** Tables whose pushes are no longer shown: left by a move, or closed after the tournament ended for the player. */
  const dropped = new Set<string>();
  /** The move that brought the player to each table, while its message shows. */
  const moves = shallowReactive(new Map<string, TableMove>());
  /** Where a table's tile went (from → to), for a window that showed the old table and for bringing it back. */
  const forwards = shallowReactive(new Map<string, string>());
  /** The last move followed, per tournament. */
  const followed = new Map<string, number>();

  /** One of the player's tournaments changed: a move is followed once; the details are kept fresh. */
  function follow(p: TournamentPlay): void {
    const m = p.move;
    if (m !== null && followed.get(p.tournamentId) !== m.at) {
      followed.set(p.tournamentId, m.at);
      moveTile(m.from, m.to, { from: m.from, why: m.why, at: m.at });
    }
    if (p.standing !== null && p.status === 'playing') void ensureDetails(p.tournamentId, p.standing);
  }

  /** The tile of `from` becomes the tile of `to`, in the same place; a popped-out `from` stays popped out as `to`. */
  function moveTile(from: string | null, to: string, move: TableMove): void {
    dropped.delete(to);
    // The message, for a move that is recent (not one read again after a reload).
    if (Date.now() - move.at < MOVE_NOTICE_MS) {
      moves.set(to, move);
      setTimeout(() => {
        if (moves.get(to)?.at === move.at) moves.delete(to);
      }, MOVE_NOTICE_MS);
    }
    if (from === null || from === to) return;
    dropped.add(from);
    forwards.set(from, to);
    // The old tile's place goes to the new table; with no old tile, the new one stays where it is.
    // The tile keeps its key, so the table drawn in it is updated to the new table, not drawn anew;
    // until the new table's first state arrives, the old table stands in (tournament-move-ms).
    tileKeys.set(to, tileKey(from));
    tileKeys.delete(from);
    if (order.value.includes(from)) order.value = orderAfterMove(order.value, from, to);
    if (states.has(from) && !states.has(to)) standIn.set(to, from);
    else states.delete(from);
    incoming.delete(from);
    afterHand.delete(from);
    clicked.delete(from);
    if (focused.value === from) focused.value = to;
    if (poppedOut.value.has(from)) poppedOut.value = new Set([...[...poppedOut.value].filter((id) => id !== from), to]);
  }

  /** Tiles' keys: a table's id, or the key of the tile it took over on a move. */
  const tileKeys = new Map<string, string>();
  function tileKey(id: string): string {
    return tileKeys.get(id) ?? id;
  }
  /** A moved-to table whose first state is still to come, and the old table shown in its tile meanwhile. */
  const standIn = shallowReactive(new Map<string, string>());
  /** The new table's first state: the old table stops standing in for it. */
  function replaceStandIn(to: string): void {
    const from = standIn.get(to);
    if (from === undefined) return;
    standIn.delete(to);
    states.delete(from);
  }

  /** The table a tile or window showing `id` shows now: `id`, or where the player was moved from it (followed to the end). */
  function current(id: string): string {
    let at = id;
    for (let i = 0; i < 100 && forwards.has(at); i++) at = forwards.get(at)!;
    return at;
  }

  /** Closes a tournament table's tile once the player is out of it (the finish has been shown on it). */
  function closeTile(tableId: string): void {
    const s = states.get(tableId);
    if (s && s.status !== 'gone' && !s.watching && s.tournamentId === null) return;
    dropped.add(tableId);
    replaceStandIn(tableId);
    states.delete(tableId);
    incoming.delete(tableId);
    moves.delete(tableId);
    order.value = order.value.filter((id) => id !== tableId);
    if (focused.value === tableId) focused.value = null;
    bringBack(tableId);
  }

  /** The details of a tournament (structure, prizes), cached; read again when the field or the paid places changed. */
  const details = shallowReactive(new Map<string, TournamentDetails>());
  const reading = new Set<string>();
  async function ensureDetails(tournamentId: string, latest: TournamentStanding | null = null): Promise<void> {
    const have = details.get(tournamentId);
    const standing = latest ?? tournaments.byId.get(tournamentId)?.standing ?? null;
    if (reading.has(tournamentId) || (have !== undefined && (standing === null || !detailsStale(have, standing)))) return;
    reading.add(tournamentId);
    try {
      const r = await api.tournamentDetails({ tournamentId });
      if (r.ok && r.details) details.set(tournamentId, markRaw(r.details));
    } catch {
      // Not reachable now: the bar shows what the standing alone says, and the next standing asks again.
    } finally {
      reading.delete(tournamentId);
    }
  }

  /** Rebuy or add-on (T 5-2, T 5-4); a refusal is worded as a notice. */
  async function purchase(tournamentId: string, what: 'rebuy' | 'addOn'): Promise<Outcome> {
    const r = await safely(what === 'rebuy' ? api.tournamentRebuy({ tournamentId }) : api.tournamentAddOn({ tournamentId }));
    if (!r.ok) notices.push(i18n.global.t(`table.tournament.${what === 'rebuy' ? 'rebuyRefused' : 'addOnRefused'}`, { reason: outcomeText(i18n.global.t, r) }));
    return r;
  }

  /** Leaving a running tournament forfeits the entry (R-TOURN-LEAVE): asked after a confirm on the table. */
  async function forfeit(tableId: string): Promise<Outcome> {
    const tournamentId = states.get(tableId)?.tournamentId ?? null;
    if (tournamentId === null) return { ok: false, code: 'NOT_REGISTERED', message: 'not a tournament table' };
    const r = await safely(api.tournamentUnregister({ tournamentId }));
    if (r.ok) closeTile(tableId);
    else notices.push(i18n.global.t('table.tournament.leave.refused', { reason: outcomeText(i18n.global.t, r) }));
    return r;
  }

  /** Stops watching a table (any table of a tournament can be watched). */
  async function unwatch(tableId: string): Promise<Outcome> {
    const r = await safely(api.watchTable({ tableId, watch: false }));
    if (r.ok) closeTile(tableId);
    return r;
  }

  const list = computed(() => order.value.map((id) => states.get(id)).filter((s): s is TableState => s !== undefined));
  const waiting = computed(() => list.value.filter((s) => waitsForUs(s) && !clicked.has(s.tableId)).map((s) => s.tableId));

  /** The state a tile shows: main's (its action in flight from main's outbox), or the click's echo until main has it. */
  function shown(id: string): TableState | undefined {
    const s = states.get(id);
    const echo = clicked.get(id);
    return s && echo && s.pending === null ? { ...s, pending: echo } : s;
  }

  /** `rulesVersion`: of the rules the join dialog showed and the player confirmed (R-INFO). */
  async function join(tableId: string, buyIn: number, waitForBigBlind: boolean, rulesVersion: string): Promise<Outcome> {
    dropped.delete(tableId);
    const r = await safely(api.join({ tableId, buyIn, waitForBigBlind, rulesVersion }));
    if (r.ok && !order.value.includes(tableId)) order.value = [...order.value, tableId];
    return r;
  }

  /** Sends a decision: shown as sent at once (the click's echo), then as main's outbox holds it until answered. */
  async function act(tableId: string, move: Move): Promise<Outcome> {
    const actionId = newActionId();
    clicked.set(tableId, { actionId, move });
    try {
      return told(await safely(api.act({ tableId, actionId, move })));
    } finally {
      if (clicked.get(tableId)?.actionId === actionId) clicked.delete(tableId);
    }
  }

  async function leave(tableId: string): Promise<Outcome> {
    const r = told(await safely(api.leave({ tableId })));
    if (r.ok && r.cashedOut !== undefined) {
      const s = states.get(tableId);
      put({ ...(s ?? { tableId, view: null, seq: null, lastHand: null, pending: null, error: null, tournamentId: null, watching: false }), status: 'gone', cashedOut: r.cashedOut });
    }
    return r;
  }

  async function sitOut(tableId: string, out: boolean): Promise<Outcome> {
    const r = await safely(api.sitOut({ tableId, out, waitForBigBlind: false }));
    // "Revenir" refused (no chips: rebuy first) says why instead of doing nothing.
    if (!r.ok) notices.push(outcomeText(i18n.global.t, r));
    return r;
  }

  function topUp(tableId: string, amount: number): Promise<Outcome> {
    return safely(api.topUp({ tableId, amount }));
  }

  /**
   * Tables rebought after a bust, to sit back in once the chips are on the seat.
   * Right after a bust the operator still holds the ended hand for a moment: the rebuy waits for its
   * end and "Revenir" at 0 chips is refused, which left the newcomer sitting out after paying.
   */
  const sitInAfterRebuy = new Set<string>();
  function sitInWhenRebought(s: TableState): void {
    const you = s.view?.you ?? null;
    if (!sitInAfterRebuy.has(s.tableId) || s.status !== 'live' || you === null) return;
    const seat = s.view?.seats[you.seat];
    if (!seat || seat.stack === 0) return;
    sitInAfterRebuy.delete(s.tableId);
    if (seat.status === 'sitting-out') void sitOut(s.tableId, false);
  }

  /** A rebuy at 0 chips: the chips, then back in play as soon as they are on the seat. */
  async function rebuy(tableId: string, amount: number): Promise<Outcome> {
    const r = await topUp(tableId, amount);
    if (r.ok) {
      sitInAfterRebuy.add(tableId);
      const s = states.get(tableId);
      if (s) sitInWhenRebought(s);
    }
    return r;
  }

  /** A refusal the table cannot show by itself (not sent at all: host or operator gone) becomes a notice. */
  function told(r: Outcome): Outcome {
    if (!r.ok && (r.code === 'HOST_DOWN' || r.code === 'OFFLINE')) notices.push(outcomeText(i18n.global.t, r));
    return r;
  }

  /**
   * Its own window in Electron; a new tab under the browser host (the tab shares this tab's host token).
   * The tile gives way only when the table did open somewhere: Electron refuses a table the player does
   * not sit at and a 25th window, and its page may not open windows itself
   * (window.open then returns null), nor may a browser's pop-up blocker. Closing it brings the table
   * back into the tiles at once: the window says so on the `cercle-tables` channel
   * as it closes, and a browser tab that could not is seen closed by a check every half second.
   */
  async function popOut(tableId: string): Promise<boolean> {
    let opened = (await api.popOut({ tableId }).catch(() => ({ opened: false }))).opened;
    if (!opened) {
      const w = window.open(`#/table/${encodeURIComponent(tableId)}`, `cercle-table-${tableId}`);
      if (w !== null) {
        opened = true;
        const check = setInterval(() => {
          if (!w.closed) return;
          clearInterval(check);
          bringBack(tableId);
        }, 500);
      }
    }
    if (opened) poppedOut.value = new Set([...poppedOut.value, tableId]);
    return opened;
  }

  if (typeof BroadcastChannel !== 'undefined') {
    new BroadcastChannel('cercle-tables').onmessage = (e: MessageEvent<{ closed?: unknown }>) => {
      if (typeof e.data?.closed === 'string') bringBack(e.data.closed);
    };
  }

  /** The hand shown in the replayer beside the tables ("Dernière main" keeps them in sight). */
  const replaying = ref<string | null>(null);
  /** The lobby beside the tiles while the player sits somewhere. */
  const lobbyOpen = ref(false);

  function bringBack(tableId: string): void {
    const next = new Set(poppedOut.value);
    // A window closed after following a move says the old table: the tile of the table it came to returns.
    next.delete(tableId);
    next.delete(current(tableId));
    poppedOut.value = next;
  }

  function dismissLeft(tableId: string): void {
    left.value = left.value.filter((l) => l.tableId !== tableId);
  }

  /** The next table waiting for us comes to the front (keyboard: Tab in the tables view). */
  function focusNextWaiting(): string | null {
    const w = waiting.value;
    if (w.length === 0) return null;
    const i = focused.value ? w.indexOf(focused.value) : -1;
    focused.value = w[(i + 1) % w.length];
    return focused.value;
  }

  return {
    states, order, list, waiting, focused, poppedOut, left, afterHand, setAfterHand, inLiveHand, load, refresh, shown, replaying, lobbyOpen, dismissLeft, join, act, leave, sitOut, topUp, rebuy, popOut, bringBack, focusNextWaiting,
    moves, forwards, current, follow, closeTile, tileKey, standIn, details, ensureDetails, purchase, forfeit, unwatch,
  };
});

let audio: AudioContext | null = null;
/** A short soft tone when a table starts waiting for the player (sounds can be turned off in the settings). */
function beep(): void {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
  } catch {
    // No audio device: silence is fine.
  }
}
