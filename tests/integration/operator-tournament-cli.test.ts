/**
 * `npm run operator` offers tournaments: the standalone operator reads
 * operator/config/tournaments.default.json, or the file given with `--tournaments`, checked like the
 * lobby's configuration (a refused file starts nothing and names the field). Real TLS on loopback,
 * a real operator folder, the list read over the wire.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../operator/cli';
import { DEFAULT_TOURNAMENTS_PATH, type TournamentsConfig } from '../../operator/tournaments/config';
import { VARIANT_CODES } from '../../shared/rules/variants';
import { TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';

/** Runs the operator command until the list is read; the tournaments' names and formats it offers. */
async function offered(args: string[]): Promise<{ code: number; list: { id: string; name: string; variant: string; format: string; seats: number }[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let seen: (() => void) | null = null;
  const started = new Promise<void>((r) => (seen = r));
  const run = runCli(args, {
    out: (l) => {
      out.push(l);
      if (l.startsWith('pin ')) seen?.();
    },
    err: (l) => err.push(l),
    stopSignal: () => stopped,
  });
  // A refused configuration returns before starting anything.
  const first = await Promise.race([run.then((code) => ({ code })), started.then(() => null)]);
  if (first !== null) return { code: first.code, list: [], err };
  const c = await TestClient.guest(out[0], out[1].slice('pin '.length), { localAddress: '127.0.0.2' });
  const list = await c.request({ type: 'tournament.list' });
  await c.close();
  stop();
  const code = await run;
  if (list.type !== 'tournament.list') throw new Error(list.type);
  return { code, list: list.tournaments.map((t) => ({ id: t.tournamentId, name: t.name, variant: t.variant, format: t.format, seats: t.seats })), err };
}

describe('npm run operator offers tournaments', () => {
  it('the default file: a sit & go of each size in every variant and the scheduled tournaments; --tournaments overrides it; a bad file is refused naming the field', async () => {
    const t = tempDir();
    try {
      const defaults = JSON.parse(readFileSync(DEFAULT_TOURNAMENTS_PATH, 'utf8')) as TournamentsConfig;
      const byDefault = await offered(['--port', '0', '--data', join(t.dir, 'a')]);
      expect(byDefault.code).toBe(0);
      const sng = byDefault.list.filter((x) => x.format === 'sit-and-go');
      for (const v of VARIANT_CODES) expect(new Set(sng.filter((x) => x.variant === v).map((x) => x.seats)).has(2)).toBe(true);
      expect(byDefault.list.filter((x) => x.format === 'scheduled').map((x) => x.name).sort()).toEqual(defaults.scheduled.map((x) => x.name).sort());

      // An override: one scheduled tournament, no sit & go.
      const mine: TournamentsConfig = { ...defaults, sitAndGo: { ...defaults.sitAndGo, sizes: [] }, scheduled: [{ ...defaults.scheduled[0], id: 'mtt-club', name: 'Le Club' }] };
      const file = join(t.dir, 'tournaments.json');
      writeFileSync(file, JSON.stringify(mine));
      const overridden = await offered(['--port', '0', '--data', join(t.dir, 'b'), '--tournaments', file]);
      expect(overridden.code).toBe(0);
      expect(overridden.list.map((x) => [x.name, x.format])).toEqual([['Le Club', 'scheduled']]);

      // Refused like the lobby's configuration: the file and the field named, nothing started.
      writeFileSync(file, JSON.stringify({ ...mine, scheduled: [{ ...mine.scheduled[0], seats: 11 }] }));
      const refused = await offered(['--port', '0', '--data', join(t.dir, 'c'), '--tournaments', file]);
      expect(refused.code).toBe(2);
      expect(refused.err.join('\n')).toMatch(/tournaments\.json: tournaments\.scheduled\[0\]\.seats/);
      writeFileSync(file, JSON.stringify({ ...mine, scheduled: [{ ...mine.scheduled[0], seats: 10, variant: 'O4HPL' }] }));
      const tooMany = await offered(['--port', '0', '--data', join(t.dir, 'd'), '--tournaments', file]);
      expect(tooMany.code).toBe(2);
      expect(tooMany.err.join('\n')).toMatch(/mtt-club: seats/);
      expect((await offered(['--port', '0', '--data', join(t.dir, 'e'), '--tournaments', join(t.dir, 'nope.json')])).err.join('\n')).toMatch(/cannot read the tournaments/);
    } finally {
      t.cleanup();
    }
  });
});
