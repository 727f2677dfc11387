// Golden files of the exchange: cash hands of every variant, written by each
// format, must stay byte for byte what the files under tests/fixtures/exchange/golden hold (they were
// written by the exporters before tournament hands were added: adding tournaments changes no cash
// export). `CERCLE_WRITE_GOLDEN=1 npx vitest run shared/exchange/golden.test.ts` writes them again
// (only after a deliberate change of a format, reviewed in the diff).

import { describe, it } from 'vitest';
import { prng, randomRecord } from '../history/test-support';
import { VARIANT_CODES } from '../rules/variants';
import { golden } from '../../tests/support/exchange-golden';
import { EXCHANGE_FORMATS, exportHands, type ExchangeFormat, type ExchangeHand } from './index';

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

describe('cash exports, byte for byte', () => {
  for (const f of EXCHANGE_FORMATS) {
    it(`${f}: 33 cash hands of the 11 variants as the golden file`, () => {
      golden(`cash.${EXT[f]}`, exportHands(f, cashHands()));
    });
  }
});
