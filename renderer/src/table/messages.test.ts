import { describe, expect, it } from 'vitest';
import en from '../i18n/table.en';
import fr from '../i18n/table.fr';
import { betLabel, bringInLabel, callLabel, drawLabel } from './actions';
import { logLines, roundKey } from './log';
import type { PresetId } from './presets';
import { winnerKey } from './results';
import type { LogEntry } from '../../../shared/rules/engine/types';
import { VARIANTS } from '../../../shared/rules/variants';

function lookup(messages: unknown, key: string): unknown {
  let node: unknown = messages;
  for (const part of key.replace(/^table\./, '').split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function keysOf(x: unknown, prefix = ''): string[] {
  if (typeof x !== 'object' || x === null) return [prefix];
  return Object.entries(x).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe('table messages', () => {
  it('English mirrors French key for key, every message a non-empty string', () => {
    expect(keysOf(en).sort()).toEqual(keysOf(fr).sort());
    for (const k of keysOf(fr)) {
      expect(typeof lookup(fr, k), k).toBe('string');
      expect((lookup(fr, k) as string).length, k).toBeGreaterThan(0);
    }
  });

  it('every key the table logic produces exists', () => {
    const used = new Set<string>();
    const bet = { kind: 'raise' as const, min: 2, max: 10, exact: false, allInTo: 10 };
    for (const l of [
      betLabel(bet, 5),
      betLabel(bet, 10),
      betLabel({ ...bet, kind: 'bet' }, 5),
      betLabel({ ...bet, kind: 'complete' }, 5),
      callLabel({ amount: 1, allIn: false }),
      callLabel({ amount: 1, allIn: true }),
      bringInLabel({ amount: 1, allIn: false }),
      bringInLabel({ amount: 1, allIn: true }),
      drawLabel(0),
      drawLabel(2),
    ])
      used.add(l.key);
    const entries: LogEntry[] = [
      { round: 'bet', kind: 'post', seat: 0, post: 'ante', amount: 1, allIn: false },
      { round: 'bet', kind: 'post', seat: 0, post: 'small blind', amount: 1, allIn: false },
      { round: 'bet', kind: 'post', seat: 0, post: 'big blind', amount: 1, allIn: false },
      { round: 'bet', kind: 'post', seat: 0, post: 'dead small blind', amount: 1, allIn: false },
      { round: 'flop', kind: 'deal', seat: null, cards: [1, 2, 3], up: [true, true, true] },
      { round: 'flop', kind: 'deal', seat: 0, cards: [4, 5], up: [false, false] },
      { round: 'flop', kind: 'deal', seat: 1, cards: [null, 6], up: [false, true] },
      { round: 'flop', kind: 'reshuffle', stub: 10 },
      { round: 'flop', kind: 'bring-in', seat: 1, amount: 1, allIn: false },
      { round: 'flop', kind: 'fold', seat: 1 },
      { round: 'flop', kind: 'check', seat: 1 },
      { round: 'flop', kind: 'call', seat: 1, amount: 1, allIn: false },
      { round: 'flop', kind: 'bet', seat: 1, amount: 1, to: 1, allIn: false },
      { round: 'flop', kind: 'raise', seat: 1, amount: 1, to: 1, allIn: false },
      { round: 'flop', kind: 'complete', seat: 1, amount: 1, to: 1, allIn: false },
      { round: 'flop', kind: 'discard', seat: 1, cards: [null] },
      { round: 'flop', kind: 'discard', seat: 0, cards: [7] },
      { round: 'flop', kind: 'discard', seat: 1, cards: [] },
      { round: 'reveal', kind: 'show', seat: 1, cards: [8, 9] },
      { round: 'reveal', kind: 'muck', seat: 1 },
      { round: 'reveal', kind: 'return', seat: 1, amount: 3 },
    ];
    for (const l of logLines(entries, ['a', 'b'], 0)) used.add(l.key);
    for (const v of Object.values(VARIANTS)) for (const r of v.rounds) used.add(`table.round.${roundKey(r)}`);
    const presets: PresetId[] = ['min', 'x2_5', 'x3', 'x4', 'half', '3q', 'pot', 'max', 'allin'];
    for (const p of presets) used.add(`table.preset.${p}`);
    for (const half of ['whole', 'high', 'low'] as const)
      for (const hand of [null, { labelFr: '', labelEn: '', category: '', cards: [] }]) used.add(winnerKey({ seat: 0, name: '', amount: 0, half, hand }));
    for (const e of ['empty', 'notNumber', 'decimals', 'decimalsEuros', 'negative', 'tooLarge', 'outOfRange']) used.add(`table.amountError.${e}`);
    for (const m of ['fold', 'check', 'call', 'bet', 'bringIn', 'draw', 'show', 'muck']) used.add(`table.move.${m}`);
    for (const s of ['folded', 'allIn', 'disconnected', 'sittingOut', 'waiting']) used.add(`table.seat.${s}`);
    for (const r of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]) used.add(`table.card.rank.r${r}`);
    for (const s of ['c', 'd', 'h', 's']) used.add(`table.card.suit.${s}`);
    for (const key of used) {
      expect(typeof lookup(fr, key), key).toBe('string');
      expect(typeof lookup(en, key), key).toBe('string');
    }
  });
});
