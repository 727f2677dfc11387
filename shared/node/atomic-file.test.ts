import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-atomic-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file whole, with the exact mode, and leaves no temporary file', () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, 'old');
    writeFileAtomic(file, '{"a":1}\n', { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomic(file, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('a write whose rename fails leaves the target as it was and no temporary file', () => {
    // The target is a folder that holds a file: the data is written, then the rename over it fails.
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomic(target, 'y')).toThrow();
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
