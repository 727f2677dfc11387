// Golden files of the exchange (issue 17 item 5): cash hands of every variant, written by each
// format, must stay byte for byte what the files under tests/fixtures/exchange/golden hold (they were
// written by the exporters before tournament hands were added: adding tournaments changes no cash
// export). `CERCLE_WRITE_GOLDEN=1 npx vitest run shared/exchange/golden.test.ts` writes them again
// (only after a deliberate change of a format, reviewed in the diff).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prng, randomRecord } from '../history/test-support';
import { VARIANT_CODES } from '../rules/variants';
import { EXCHANGE_FORMATS, exportHands, type ExchangeFormat, type ExchangeHand } from './index';

const DIR = join(__dirname, '../../tests/fixtures/exchange/golden');
const EXT: Record<ExchangeFormat, string> = { pojeu: 'xml', phh: 'phhs', pokerstars: 'txt' };
const T0 = Date.UTC(2026, 10, 21, 18, 30, 5);

/** Three cash hands of each variant (real money, play money, and no money kind), seeded. */
function cashHands(): ExchangeHand[] {
  const rng = prng(0xc0ffee);
  return VARIANT_CODES.flatMap((code, v) =>
    [0, 1, 2].map((k): ExchangeHand => ({
      record: randomRecord(code, rng, k === 2 ? `cash-${code}-${k}` : String(500_000 + v * 10 + k)),
      meta: { tableName: `Table ${code} ${k}`, endedAt: T0 + (v * 3 + k) * 61_000, ...(k === 2 ? {} : { money: k === 0 ? 'real' : 'play' }) },
    })),
  );
}

/** Compares `text` with the golden file `name`, or writes it when asked to. */
function golden(name: string, text: string): void {
  const file = join(DIR, name);
  if (process.env.CERCLE_WRITE_GOLDEN === '1' || !existsSync(file)) {
    writeFileSync(file, text);
    if (process.env.CERCLE_WRITE_GOLDEN !== '1') throw new Error(`${name} did not exist: written; run again`);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
}

describe('cash exports, byte for byte', () => {
  for (const f of EXCHANGE_FORMATS) {
    it(`${f}: 33 cash hands of the 11 variants as the golden file`, () => {
      golden(`cash.${EXT[f]}`, exportHands(f, cashHands()));
    });
  }
});
