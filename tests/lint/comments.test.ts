import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// CONVENTIONS.md "Names, comments, tests": a comment says why and cites the rule; the history of a
// line belongs in git, not in a comment. A reference to the project's issue tracker tells a reader
// where a line came from, not why it is there, so none may stay in tracked source, test titles
// included. No exception is needed: no tracked file links a third party's issue by number.
const ISSUE = /issue\s+\d+/i;

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '*.ts', '*.vue', '*.mjs', '*.mts'], { encoding: 'utf8' });
  return out.split('\n').filter((path) => path !== '');
}

describe('source comments', () => {
  it('cite rules and docs, never the issue tracker', () => {
    const found: string[] = [];
    for (const path of trackedSources()) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (ISSUE.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
