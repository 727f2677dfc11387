/**
 * The embedded operator as the client starts it (electron/services/embedded): a child process running
 * operator/embedded.ts through tsx, its certificate pinned on first run and kept in the client's data
 * folder, reached over the pinned link, and stopped with the client (R-CASH: chips back to the wallet).
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/operator/temp-dir';
import { developmentLaunch, EMBEDDED_PIN_FILE, EmbeddedPinChangedError, keptPin, launchEmbeddedOperator } from '../../electron/services/embedded';
import { OperatorLink } from '../../electron/services/link';
import { VARIANT_CODES } from '../../shared/rules/variants';
import { joinAsShown } from './join-as-shown';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function refused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      done(false);
    });
    s.once('error', () => done(true));
  });
}

describe('the embedded operator, as a child process of the client', () => {
  it('starts, is pinned on first run and on every start after, and stops with the client', async () => {
    const t = tempDir('cercle-client-embedded-');
    const lines: string[] = [];
    const launch = { dataDir: t.dir, ...developmentLaunch(ROOT), log: (l: string) => void lines.push(l) };
    try {
      const first = await launchEmbeddedOperator(launch);
      expect(first.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
      expect(first.firstRun).toBe(true);
      expect(first.pins).toEqual([keptPin(t.dir)]);
      expect(statSync(join(t.dir, EMBEDDED_PIN_FILE)).mode & 0o077).toBe(0);

      // The client reaches it over the pinned link, as the guest it was given.
      const link = new OperatorLink({ url: first.url, pins: first.pins, clientVersion: '0.1.0', token: first.guest.token, log: (l) => void lines.push(l) });
      let authed = 0;
      link.on('authed', (a) => {
        authed++;
        expect(a.account).toMatchObject({ guest: true, username: first.guest.username });
      });
      await link.connect();
      expect(authed).toBe(1);
      const lobby = await link.lobby();
      if (!lobby.ok) throw new Error(lobby.code);
      expect(lobby.tables.map((x) => x.variant).sort()).toEqual([...VARIANT_CODES].sort());
      const table = lobby.tables.find((x) => x.variant === 'THNL')!;
      expect(await joinAsShown(link, table.tableId, table.buyIn.min)).toMatchObject({ ok: true });
      const balance = await link.balance();
      expect(balance.ok && balance.balances.play).toBe(1_000_000 - table.buyIn.min);

      // Stopping the operator with the client: the process ends cleanly and the port is closed.
      const port = Number(new URL(first.url).port);
      const states: string[] = [];
      link.on('state', (s) => states.push(s.state));
      await first.stop();
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(await refused(port)).toBe(true);
      await link.close();
      expect(states[0]).toBe('reconnecting');

      // Next start: the kept key is pinned; the seat was cashed out when the operator stopped (R-CASH).
      const second = await launchEmbeddedOperator(launch);
      expect(second.firstRun).toBe(false);
      expect(second.pins).toEqual(first.pins);
      const again = new OperatorLink({ url: second.url, pins: second.pins, clientVersion: '0.1.0', token: second.guest.token, log: (l) => void lines.push(l) });
      await again.connect();
      expect(again.balances?.play).toBe(1_000_000);
      await again.close();
      await second.stop();

      // A kept key that is not the operator's: refused, and the operator is stopped.
      const kept = JSON.parse(readFileSync(join(t.dir, EMBEDDED_PIN_FILE), 'utf8')) as { pin: string };
      writeFileSync(join(t.dir, EMBEDDED_PIN_FILE), JSON.stringify({ ...kept, pin: 'sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }));
      await expect(launchEmbeddedOperator(launch)).rejects.toBeInstanceOf(EmbeddedPinChangedError);
      // Accepting the new key keeps it.
      const third = await launchEmbeddedOperator({ ...launch, acceptNewPin: true });
      expect(third.firstRun).toBe(true);
      expect(third.pins).toEqual(first.pins);
      await third.stop();
      expect(lines.some((l) => /embedded operator: .*Error/.test(l))).toBe(false);
    } finally {
      t.cleanup();
    }
  });

  it('stops by itself when the client goes away without stopping it (its IPC channel closes)', async () => {
    const t = tempDir('cercle-client-embedded-orphan-');
    try {
      const dev = developmentLaunch(ROOT);
      const child = spawn(process.execPath, [...dev.execArgv!, dev.entry], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const ready = new Promise<{ url: string }>((r) => child.on('message', (m) => (m as { type: string }).type === 'ready' && r(m as { url: string })));
      child.send({ type: 'start', module: dev.module, dataDir: t.dir, port: 0 });
      const { url } = await ready;
      child.disconnect(); // what the child sees when the client process dies
      expect(await exited).toBe(0);
      expect(await refused(Number(new URL(url).port))).toBe(true);
    } finally {
      t.cleanup();
    }
  });
});
