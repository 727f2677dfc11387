import { defineStore } from 'pinia';
import { ref } from 'vue';

/** Colour tags a player may give another, as PokerStars and Winamax offer them. */
export const NOTE_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'] as const;
export type NoteColor = (typeof NOTE_COLORS)[number];
export interface PlayerNote {
  note: string;
  color: NoteColor | null;
}

const KEY = 'cercle.playerNotes';
const MAX_NOTE = 500;
const MAX_PLAYERS = 5000;

/** The notes kept in this client's storage, each checked: a damaged entry is dropped, never trusted. */
export function readNotes(raw: string | null): Record<string, PlayerNote> {
  const out: Record<string, PlayerNote> = {};
  if (raw === null) return out;
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null) return out;
    for (const [name, n] of Object.entries(v as Record<string, unknown>).slice(0, MAX_PLAYERS)) {
      const x = n as Partial<PlayerNote> | null;
      if (name.length > 64 || typeof x !== 'object' || x === null || typeof x.note !== 'string') continue;
      const color = NOTE_COLORS.includes(x.color as NoteColor) ? (x.color as NoteColor) : null;
      out[name] = { note: x.note.slice(0, MAX_NOTE), color };
    }
  } catch {
    // not JSON: no notes rather than a broken page
  }
  return out;
}

/**
 * Notes and colour tags on other players, kept locally (this client's storage; never sent to the
 * operator) and shown at the tables.
 */
export const useNotesStore = defineStore('notes', () => {
  const notes = ref<Record<string, PlayerNote>>(readNotes(localStorage.getItem(KEY)));

  function set(name: string, note: string, color: NoteColor | null): void {
    const next = { ...notes.value };
    if (note.trim() === '' && color === null) delete next[name];
    else next[name] = { note: note.slice(0, MAX_NOTE), color };
    notes.value = next;
    localStorage.setItem(KEY, JSON.stringify(next));
  }

  return { notes, set };
});
