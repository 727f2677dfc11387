import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../shared/api';
import { validate } from '../../shared/validate';
import { SettingsStore } from './settings';

const fresh = () => mkdtempSync(join(tmpdir(), 'cercle-settings-'));

describe('SettingsStore', () => {
  it('my names (the player on the sites): none at first and for an older file, kept across restarts, refused at the boundary when not a name', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'settings.json'), '{"language": "fr"}');
    const a = new SettingsStore(dir);
    expect(a.get().myNames).toEqual([]);
    a.update({ myNames: ['Hero', 'Jean (Paris) é'] });
    expect(new SettingsStore(dir).get().myNames).toEqual(['Hero', 'Jean (Paris) é']);
    // The IPC boundary validates the patch (shared/api/contract.ts): no empty name, no edge space, no line break, 64 characters and 20 names at most.
    const ok = (myNames: unknown): boolean => validate(settingsPatchSchema, { myNames }).ok;
    expect(ok(['Hero', 'a b'])).toBe(true);
    for (const bad of [[''], [' Hero'], ['Hero '], ['a\nb'], ['x'.repeat(65)], Array.from({ length: 21 }, (_, k) => `p${k}`), 'Hero']) expect(ok(bad)).toBe(false);
    expect(() => a.update({ myNames: [' Hero'] })).toThrow(/myNames/);
    expect(new SettingsStore(dir).get().myNames).toEqual(['Hero', 'Jean (Paris) é']);
  });


  it('starts from French defaults and persists an update across restarts', () => {
    const dir = fresh();
    const a = new SettingsStore(dir);
    expect(a.get()).toEqual(DEFAULT_SETTINGS);
    expect(a.get().language).toBe('fr');
    a.update({ language: 'en', fourColorDeck: true });
    const b = new SettingsStore(dir);
    expect(b.get()).toEqual({ ...DEFAULT_SETTINGS, language: 'en', fourColorDeck: true });
  });

  it('refuses an invalid update and keeps the stored file unchanged', () => {
    const dir = fresh();
    const s = new SettingsStore(dir);
    s.update({ sounds: false });
    const before = readFileSync(s.file, 'utf8');
    expect(() => s.update({ language: 'de' } as never)).toThrow(/language/);
    expect(readFileSync(s.file, 'utf8')).toBe(before);
    expect(s.get().sounds).toBe(false);
  });

  it('sets a corrupt file aside instead of losing it, and says why', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'settings.json'), '{"language": "fr", "sounds": ');
    const s = new SettingsStore(dir);
    expect(s.get()).toEqual(DEFAULT_SETTINGS);
    expect(s.loadProblem).toMatch(/not JSON/);
    const aside = readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe('{"language": "fr", "sounds": ');
  });

  it('fills keys missing from an older file with defaults', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'settings.json'), '{"language": "en"}');
    expect(new SettingsStore(dir).get()).toEqual({ ...DEFAULT_SETTINGS, language: 'en' });
  });

  it('wait for the big blind: a default of the player, unticked for a file written before the setting existed, kept when changed', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'settings.json'), '{"language": "fr", "fourColorDeck": false, "sounds": true, "callGuard": true}');
    const s = new SettingsStore(dir);
    expect(s.get().waitForBigBlind).toBe(false);
    expect(s.update({ waitForBigBlind: true }).waitForBigBlind).toBe(true);
    expect(new SettingsStore(dir).get().waitForBigBlind).toBe(true);
  });

  it('notifies listeners of changes', () => {
    const s = new SettingsStore(fresh());
    const seen: string[] = [];
    s.onChange((x) => seen.push(x.language));
    s.update({ language: 'en' });
    expect(seen).toEqual(['en']);
  });
});
