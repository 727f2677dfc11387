/**
 * Keyboard shortcuts of the action bar, as a pure mapping from a key press to an intent. The bar
 * listens only while its table is the active one, so one key press never acts at two tables.
 *
 *   F fold · C check or call · R bet / raise / complete (at the amount shown) · A all-in (the top of
 *   the bounds) · ↑ → + one step more · ↓ ← − one step less · PageUp / PageDown five steps ·
 *   Enter confirm (the bet at the amount typed, or the guard's confirmation) · Escape cancel ·
 *   1-5 the presets · D draw (Triple Draw) · S show · M muck.
 */
export type Intent =
  | { type: 'fold' }
  | { type: 'checkCall' }
  | { type: 'betRaise' }
  | { type: 'allIn' }
  | { type: 'nudge'; steps: number }
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'preset'; index: number }
  | { type: 'draw' }
  | { type: 'show' }
  | { type: 'muck' };

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  /** The key went to a text field (the amount input): letters and digits are typing, not shortcuts. */
  inTextField?: boolean;
  /** Auto-repeat of a held key: only the slider nudges repeat, never an action. */
  repeat?: boolean;
}

const NUDGES: Record<string, number> = { ArrowUp: 1, ArrowRight: 1, '+': 1, ArrowDown: -1, ArrowLeft: -1, '-': -1, PageUp: 5, PageDown: -5 };

export function intentOf(e: KeyPress): Intent | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const key = e.key;
  if (key === 'Enter') return e.repeat ? null : { type: 'confirm' };
  if (key === 'Escape') return { type: 'cancel' };
  const steps = NUDGES[key];
  if (steps !== undefined) {
    // In the amount field the left/right arrows move the caret and +/- may be typed.
    if (e.inTextField && key !== 'ArrowUp' && key !== 'ArrowDown' && key !== 'PageUp' && key !== 'PageDown') return null;
    return { type: 'nudge', steps };
  }
  if (e.inTextField || e.repeat) return null;
  if (key.length === 1 && key >= '1' && key <= '5') return { type: 'preset', index: key.charCodeAt(0) - 49 };
  switch (key.toLowerCase()) {
    case 'f':
      return { type: 'fold' };
    case 'c':
      return { type: 'checkCall' };
    case 'r':
      return { type: 'betRaise' };
    case 'a':
      return { type: 'allIn' };
    case 'd':
      return { type: 'draw' };
    case 's':
      return { type: 'show' };
    case 'm':
      return { type: 'muck' };
  }
  return null;
}
