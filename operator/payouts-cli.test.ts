import { describe, expect, it } from 'vitest';
import { runCli } from './cli';

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['payouts', ...argv], { out: (l) => out.push(l), err: (l) => err.push(l), stopSignal: () => new Promise(() => undefined) });
  return { code, out, err };
}

describe('operator payouts (R-TOURN-STRUCTURE: the table operators publish)', () => {
  it('prints the pool and every place as JSON, the guarantee making up the pool', async () => {
    const r = await cli('--entrants', '21', '--buy-in', '1000', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0])).toEqual({ structure: 'standard', entrants: 21, pool: 21_000, overlay: 0, places: [8_700, 5_100, 3_900, 3_300] });
    const g = JSON.parse((await cli('--entrants', '500', '--buy-in', '100', '--guarantee', '100000', '--json')).out[0]) as { pool: number; overlay: number; places: number[] };
    expect(g).toMatchObject({ pool: 100_000, overlay: 50_000 });
    expect(g.places).toHaveLength(75);
    expect(g.places.reduce((a, b) => a + b, 0)).toBe(100_000);
  });

  it('prints a readable table, equal prizes on one line', async () => {
    const r = await cli('--entrants', '20000', '--buy-in', '1000');
    expect(r.out[0]).toBe('20000 entrants, pool 20000000, 3000 places paid (standard)');
    expect(r.out[1]).toMatch(/^1: \d+$/);
    // The last line covers the last place, 3000.
    expect(r.out[r.out.length - 1]).toMatch(/^(\d+-)?3000: \d+$/);
  });

  it('refuses what is not a field or an amount, naming it', async () => {
    for (const [args, what] of [
      [['--entrants', '1', '--buy-in', '5'], '--entrants'],
      [['--entrants', '10'], '--buy-in is required'],
      [['--entrants', '10', '--buy-in', '2.5'], '--buy-in'],
      [['--entrants', '10', '--buy-in', '5', '--structure', 'turbo-ish'], '--structure: one of standard'],
      [['--entrants', '10', '--buy-in', '5', '--pool', '9'], 'unknown argument --pool'],
    ] as const) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.err[0]).toContain(what);
    }
  });
});
