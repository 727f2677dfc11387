/**
 * The engine keeps no module-level mutable state: a transition's copy-on-write
 * bookkeeping belongs to that one `apply` call, so a call made while another is under way (here from
 * inside the caller's own card array) can neither write into the state the first call was given nor
 * lose the first call's bookkeeping.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTableRules } from '../tableRules';
import { legalActions } from './legal';
import { apply, startHand } from './machine';
import { cards, tableConfig } from './test-support';

describe('engine state', () => {
  it('an apply made during another apply leaves the first one’s input state untouched', () => {
    const config = tableConfig(makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 }), { stacks: [1000, 1000, 1000] });
    const first = startHand(config);
    const other = startHand(config);
    const seat = legalActions(first).deal!.seat as number;
    const before = JSON.stringify(first);
    const logLength = first.log.length;

    const mine = cards('AcAd');
    let nested: ReturnType<typeof apply> | null = null;
    // The engine copies the dealt cards after it has begun its transition: this array's own `slice`
    // deals the same seat of another hand meanwhile.
    Object.defineProperty(mine, 'slice', {
      value: () => {
        nested = apply(other, { type: 'deal', seat, cards: cards('KcKd') });
        return cards('AcAd');
      },
    });
    const r = apply(first, { type: 'deal', seat, cards: mine });

    const inner = nested as ReturnType<typeof apply> | null;
    expect(r.ok).toBe(true);
    expect(inner?.ok).toBe(true);
    // Before the fix the nested call left "seat copied" and "log copied" marks behind, so the first
    // call wrote the given state's own seat and pushed onto its log.
    expect(first.log.length).toBe(logLength);
    expect(JSON.stringify(first)).toBe(before);
    if (!r.ok || inner === null || !inner.ok) return;
    expect(r.state.seats[seat].hole).toEqual(cards('AcAd'));
    expect(r.state.log.length).toBe(logLength + 1);
    expect(inner.state.seats[seat].hole).toEqual(cards('KcKd'));
    expect(other.seats[seat].hole).toEqual([]);
  });

  it('no engine source declares a module-level variable', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const offenders: string[] = [];
    for (const file of readdirSync(here)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const lines = readFileSync(join(here, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^(export\s+)?(let|var)\s/.test(line)) offenders.push(`${file}:${i + 1}: ${line}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
