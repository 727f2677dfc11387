import { defineStore } from 'pinia';
import { computed, shallowReactive } from 'vue';
import type { Outcome, TableState } from '../../../shared/api';
import type { Move } from '../../../shared/protocol/messages';
import { safely } from '../errors';
import { shouldAutoMuck } from '../table/automuck';
import { tableHand } from '../table/hand';
import { useApi } from '../useApi';
import { useSettingsStore } from './settings';
import { useTableSeatsStore } from './tableSeats';
import { useTablesStore, waitsForUs } from './tables';

/** An action id unique to this client (docs/protocol.md "Action ids": the operator applies an id once). */
export function newActionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `r-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The decisions the tables wait for: which tables wait for us (and the next one brought to the front),
 * the decision sent, shown as sent at once, the tone when a table starts waiting, and auto-muck.
 */
export const useTableDecisionsStore = defineStore('tableDecisions', () => {
  const api = useApi();
  const tables = useTablesStore();
  const seats = useTableSeatsStore();
  const settings = useSettingsStore();
  /**
   * The echo of a click: the action just clicked, shown as sent from the next frame until main
   * answers. Not a second owner of "pending": main's outbox decides what is in
   * flight (one decision per table); this only spares the player the round trip to main before the
   * click shows (the `action-ack-ms` budget), and gives way to main's state as soon as it has one.
   */
  const clicked = shallowReactive(new Map<string, { actionId: string; move: Move }>());
  /** Hands already auto-mucked, per table (one request a hand). */
  const autoMucked = new Map<string, number>();

  tables.react({
    applied: (s, before) => {
      // Main's outbox has our click now: its state, not the echo, says what is in flight.
      if (s.pending !== null && clicked.get(s.tableId)?.actionId === s.pending.actionId) clicked.delete(s.tableId);
      if (settings.settings.sounds && !(before && waitsForUs(before)) && waitsForUs(s)) beep();
      autoMuck(s);
    },
    moved: (from) => void clicked.delete(from),
  });

  /**
   * Auto-muck (Réglages, off by default): at our turn to show or muck, a hand that
   * cannot win or tie any part of any pot against the hands shown is mucked (table/automuck.ts).
   */
  function autoMuck(s: TableState): void {
    const v = s.view;
    const hand = tableHand(s);
    if (!settings.settings.autoMuck || v === null || hand === null || v.you === null || !waitsForUs(s) || clicked.has(s.tableId) || tables.linkGone(s.tableId) !== null) return;
    if (autoMucked.get(s.tableId) === v.handNo || !shouldAutoMuck(hand, v.you.seat)) return;
    autoMucked.set(s.tableId, v.handNo);
    void act(s.tableId, { type: 'muck' });
  }

  // A table whose link is gone waits for nothing we can send (tables.ts linkGone).
  const waiting = computed(() => tables.list.filter((s) => waitsForUs(s) && !clicked.has(s.tableId) && tables.linkGone(s.tableId) === null).map((s) => s.tableId));

  /** The state a tile shows: main's (its action in flight from main's outbox), or the click's echo until main has it. */
  function shown(id: string): TableState | undefined {
    const s = tables.states.get(id);
    const echo = clicked.get(id);
    return s && echo && s.pending === null ? { ...s, pending: echo } : s;
  }

  /** Sends a decision: shown as sent at once (the click's echo), then as main's outbox holds it until answered. */
  async function act(tableId: string, move: Move): Promise<Outcome> {
    const actionId = newActionId();
    clicked.set(tableId, { actionId, move });
    try {
      return seats.told(await safely(api.act({ tableId, actionId, move })));
    } finally {
      if (clicked.get(tableId)?.actionId === actionId) clicked.delete(tableId);
    }
  }

  /** The next table waiting for us comes to the front (keyboard: Tab in the tables view). */
  function focusNextWaiting(): string | null {
    const w = waiting.value;
    if (w.length === 0) return null;
    const i = tables.focused ? w.indexOf(tables.focused) : -1;
    tables.focused = w[(i + 1) % w.length] ?? null;
    return tables.focused;
  }

  return { waiting, shown, act, focusNextWaiting };
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
