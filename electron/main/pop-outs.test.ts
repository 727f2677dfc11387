/**
 * Pop-outs: only for a table the player sits at, one window per table, at most 24.
 * The windows here are plain objects with the three methods used; the rule is the unit.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MAX_POP_OUTS, popOuts } from './pop-outs';

class Win extends EventEmitter {
  destroyed = false;
  focused = 0;
  constructor(readonly tableId: string) {
    super();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  focus(): void {
    this.focused++;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

function setup(seated: Set<string>) {
  const made: Win[] = [];
  const popOut = popOuts({ isSeated: (id) => seated.has(id), open: (id) => (made.push(new Win(id)), made[made.length - 1]) });
  return { popOut, made };
}

describe('pop-outs', () => {
  it('opens none for a table the player does not sit at', () => {
    const { popOut, made } = setup(new Set(['a']));
    expect(popOut('b')).toBe(false);
    expect(made).toHaveLength(0);
  });

  it('one window per table: asking again focuses it', () => {
    const { popOut, made } = setup(new Set(['a']));
    expect(popOut('a')).toBe(true);
    expect(popOut('a')).toBe(true);
    expect(made).toHaveLength(1);
    expect(made[0].focused).toBe(1);
  });

  it(`at most ${MAX_POP_OUTS} at once; closing one frees its place`, () => {
    const ids = Array.from({ length: MAX_POP_OUTS + 1 }, (_, i) => `t${i}`);
    const { popOut, made } = setup(new Set(ids));
    for (const id of ids.slice(0, MAX_POP_OUTS)) expect(popOut(id)).toBe(true);
    expect(popOut(ids[MAX_POP_OUTS])).toBe(false);
    expect(made).toHaveLength(MAX_POP_OUTS);
    // An open one is still focused at the limit.
    expect(popOut(ids[0])).toBe(true);
    made[3].close();
    expect(popOut(ids[MAX_POP_OUTS])).toBe(true);
    expect(made).toHaveLength(MAX_POP_OUTS + 1);
  });

  it('a table left after its window closed needs a seat again', () => {
    const seated = new Set(['a']);
    const { popOut, made } = setup(seated);
    expect(popOut('a')).toBe(true);
    made[0].close();
    seated.delete('a');
    expect(popOut('a')).toBe(false);
    expect(made).toHaveLength(1);
  });
});
