/**
 * Information hiding (DESIGN.md §1): every frame sent to each client over many hands of every variant
 * is recorded, then checked against the hand as the regulator's trace has it (the POJEU of the hand,
 * with every card dealt): no card of an opponent's that the client may not see appears in any frame
 * before it is shown (tests/support/operator/hiding.ts says what may appear).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessageOf } from '../../shared/protocol/messages';
import { prng } from '../../shared/rules/engine/test-support';
import { VARIANT_CODES, VARIANTS } from '../../shared/rules/variants';
import { tablesOf } from '../../operator/config/config';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { scaledTimers } from '../../operator/tables/timers';
import { tempDir } from '../support/operator/temp-dir';
import { checkHiding } from '../support/operator/hiding';

const HANDS_PER_VARIANT = 15;

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;

beforeAll(async () => {
  dir = tempDir();
  const tables = VARIANT_CODES.map((code) => {
    const v = VARIANTS[code];
    const seats = Math.min(6, v.maxSeats);
    const stakes = v.forcedBets === 'ante-bring-in' ? { ante: 5, bringIn: 10, smallBet: 20 } : { smallBlind: 10, bigBlind: 20 };
    return { id: `h-${code.toLowerCase()}`, name: code, variant: code, money: 'play', stakes, seats, buyIn: { min: 400, max: 2000 }, practicePlayers: seats - 3 };
  });
  op = await startOperator({
    dataDir: dir.dir,
    lobby: tablesOf({ version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Test' }, tables }),
    timers: scaledTimers(50),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    practice: { samples: 4 },
    trustProxy: true,
    durability: 'normal',
    log: () => undefined,
  });
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

describe('information hiding', () => {
  it(`no frame carries an opponent's private card before it is shown (${HANDS_PER_VARIANT}+ hands of each of the 11 variants)`, async () => {
    const players: AutoPlayer[] = [];
    let ip = 1;
    for (const t of op.manager.all()) {
      for (let k = 0; k < 2; k++) {
        const c = await TestClient.guest(op.url, op.pin, { forwardedFor: `203.0.113.${ip++}` });
        const p = new AutoPlayer(c, prng(ip * 31));
        p.rebuy = 2000;
        expect(await c.join(t.tableId, 2000)).toMatchObject({ type: 'table.joined' });
        players.push(p);
      }
    }
    // Someone without a seat watches every table (table.watch): sees no hidden card either.
    const watcher = await TestClient.guest(op.url, op.pin, { forwardedFor: `203.0.113.${ip}` });
    for (const t of op.manager.all()) expect(await watcher.request({ type: 'table.watch', tableId: t.tableId })).toMatchObject({ type: 'ok' });
    const deadline = Date.now() + 90_000;
    while (op.manager.all().some((t) => t.handsPlayed < HANDS_PER_VARIANT)) {
      if (Date.now() > deadline) throw new Error(`slow: ${op.manager.all().map((t) => `${t.tableId} ${t.handsPlayed}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const p of players) p.paused = true;
    await new Promise((r) => setTimeout(r, 50));

    let checkedFrames = 0;
    let checkedCards = 0;
    let watchedFrames = 0;
    const clients = [...players.map((p) => ({ client: p.client, problems: p.problems })), { client: watcher, problems: [] as string[] }];
    for (const p of clients) {
      expect(p.client.invalid).toEqual([]);
      expect(p.problems).toEqual([]);
      // Each table's frames on their own (a watcher follows all of them at once).
      const r = checkHiding(op.vault, p.client.received);
      checkedFrames += r.frames;
      checkedCards += r.cards;
      if (p.client === watcher) watchedFrames = r.tableFrames;
    }
    // The watcher had no seat anywhere, and saw every table's hands.
    const watcherId = (watcher.received.find((m) => m.type === 'authed') as ServerMessageOf<'authed'>).account.id;
    expect(op.manager.all().some((t) => t.isSeated(watcherId))).toBe(false);
    expect(watchedFrames).toBeGreaterThan(op.manager.all().length * HANDS_PER_VARIANT);
    expect(checkedFrames).toBeGreaterThan(1000);
    expect(checkedCards).toBeGreaterThan(10_000);
    expect(op.vault.verifyChain().ok).toBe(true);
    expect(op.wallet.audit().problems).toEqual([]);
    await Promise.all([...players.map((p) => p.client.close()), watcher.close()]);
  });
});
