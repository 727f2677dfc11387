/**
 * The operator under load (DESIGN.md §4 "speed": figures, never timed tests).
 *
 * - `operator-hands:cercle`: hands per second completed by 100 tables of practice players (6 seats,
 *   the 11 variants in turn) in one process on one core: the whole table loop (seating plan, CSPRNG
 *   deal, every decision through the engine, practice players' Monte Carlo hand strength, settlement,
 *   one POJEU per hand into the hash-chained vault, wallet rake), no sockets.
 * - `operator-action-p99-ms:cercle`: under that load, four real WSS clients (pinned TLS on loopback)
 *   play two more tables; the 99th percentile of the time from a client's action to the next frame of
 *   that table it receives.
 * - `operator-loop-block-p99-ms:cercle`: under that load, the 99th percentile of the event loop's delay
 *   while another connection holds the trace vault's write lock (a busy vault must
 *   not stall the tables; before, each trace write waited 5 s with the loop held). Its peer,
 *   `operator-loop-block-p99-ms:vault-free`, is the same measure with the vault free, in the same run.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prng } from '../../shared/rules/engine/test-support';
import { VARIANT_CODES, VARIANTS } from '../../shared/rules/variants';
import { tablesOf, type TableEntry } from '../../operator/config/config';
import { startOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import type { BenchResult } from './types';

function tables(): TableEntry[] {
  const out: TableEntry[] = [];
  for (let i = 0; i < 100; i++) {
    const code = VARIANT_CODES[i % VARIANT_CODES.length];
    const v = VARIANTS[code];
    const stakes = v.forcedBets === 'ante-bring-in' ? { ante: 5, bringIn: 10, smallBet: 20 } : { smallBlind: 10, bigBlind: 20 };
    out.push({ id: `bench-${i}`, name: `Bench ${i}`, variant: code, money: 'play', stakes, seats: 6, buyIn: { min: 1000, max: 4000 }, practicePlayers: 5 });
  }
  // Two tables for the people of the latency figure.
  for (const id of ['people-1', 'people-2']) out.push({ id, name: id, variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 1000, max: 4000 } });
  return out;
}

function percentile(xs: number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export default async function operatorBench(): Promise<BenchResult[]> {
  const dir = tempDir('cercle-bench-');
  const op = await startOperator({
    dataDir: dir.dir,
    lobby: tablesOf({ version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Bench' }, tables: tables() }),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    practiceNeedsPeople: false,
    trustProxy: true,
    durability: 'normal',
    log: () => undefined,
  });
  try {
    const practice = op.manager.all().filter((t) => t.spec.practice);
    const hands = () => practice.reduce((n, t) => n + t.handsPlayed, 0);
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await wait(1000); // warm-up
    const h0 = hands();
    const t0 = performance.now();
    await wait(4000);
    const handsPerSecond = ((hands() - h0) * 1000) / (performance.now() - t0);
    process.stderr.write(`  ${hands() - h0} hands in 4 s at 100 practice tables\n`);

    const players: AutoPlayer[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await TestClient.guest(op.url, op.pin, { forwardedFor: `203.0.113.${i + 1}` });
      const p = new AutoPlayer(c, prng(i + 1));
      p.rebuy = 2000;
      await c.join(i < 2 ? 'people-1' : 'people-2', 2000);
      players.push(p);
    }
    await wait(5000);
    const latencies = players.flatMap((p) => p.latencies);
    process.stderr.write(`  ${latencies.length} actions timed over 4 clients\n`);
    await Promise.all(players.map((p) => p.client.close()));

    // The event loop's delay, vault free then vault locked by another connection (3 s each).
    // A 5 ms timer's lateness, sampled for 3 s: one long block (a write waiting on a lock) counts in
    // full, which a histogram of the loop's delay would show as a single sample.
    const loopP99 = async (): Promise<number> => {
      const lags: number[] = [];
      const end = performance.now() + 3000;
      while (performance.now() < end) {
        const t0 = performance.now();
        await wait(5);
        lags.push(Math.max(0, performance.now() - t0 - 5));
      }
      process.stderr.write(`  loop: ${lags.length} samples, worst ${Math.max(...lags).toFixed(1)} ms\n`);
      return percentile(lags, 99);
    };
    const free = await loopP99();
    const locker = new Database(join(dir.dir, 'trace.sqlite'));
    let locked: number;
    try {
      locker.exec('BEGIN IMMEDIATE');
      const before = hands();
      locked = await loopP99();
      process.stderr.write(`  vault locked 3 s: ${hands() - before} hands settled, ${op.outbox.pending()} records waiting in the outbox\n`);
      locker.exec('ROLLBACK');
    } finally {
      locker.close();
    }
    return [
      { name: 'operator-hands:cercle', unit: 'hands/s', value: handsPerSecond },
      { name: 'operator-action-p99-ms:cercle', unit: 'ms', value: latencies.length ? percentile(latencies, 99) : Number.NaN },
      { name: 'operator-loop-block-p99-ms:cercle', unit: 'ms', value: locked },
      { name: 'operator-loop-block-p99-ms:vault-free', unit: 'ms', value: free },
    ];
  } finally {
    await op.close();
    dir.cleanup();
  }
}
