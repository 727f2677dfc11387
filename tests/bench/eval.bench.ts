/**
 * Hand evaluator speed (DESIGN.md §5: 7-card high evaluation ahead of the fastest JavaScript
 * evaluator on npm, same hands, same run).
 *
 * Every evaluator sees the same 1,000,000 random 7-card hands, dealt once from a seeded generator;
 * each peer's card format is prepared before timing. Each peer runs through its fastest entry:
 * `@pokertools/evaluator`'s `evaluate(number[])` (its only public evaluation entry) and `phe`'s
 * 7-argument `lib/evaluator7` (what its `evaluateCardCodes` calls after an `apply`).
 */
import * as pokertools from '@pokertools/evaluator';
import * as cercle from '../../shared/rules/eval/index';
import { type BenchResult, opsPerSecond } from './types';
import { mulberry32 } from '../../shared/rules/prng';

// Entries as local constants, for every library alike: a call through an import binding may be a
// getter call once TypeScript is compiled to CommonJS, which would measure the module system.
const pokertoolsEvaluate = pokertools.evaluate;
const { eval27Five, evalHigh, evalHigh7, evalOmahaHigh, evalOmahaLow8, evalRazz7 } = cercle;

const HANDS = 1_000_000;
const BATCH = 50_000;
const MS = 1500;

/** mulberry32: a small seeded generator, so that every run measures the same hands. */
const seeded = mulberry32;

/** `count` hands of `size` distinct cards, flat (hand i at `i * size`), our card codes. */
function deal(count: number, size: number, seed: number): Int32Array {
  const random = seeded(seed);
  const out = new Int32Array(count * size);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let h = 0; h < count; h++) {
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(random() * (52 - i));
      const t = deck[i];
      deck[i] = deck[j];
      deck[j] = t;
      out[h * size + i] = deck[i];
    }
  }
  return out;
}

/** Our code (suits c d h s = 0..3) → the peers' code (suits s h d c = 0..3), same rank index. */
function toPeerCode(c: number): number {
  return (c & ~3) | (3 - (c & 3));
}

type Seven = (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => number;

let sink = 0;

/**
 * Evaluations per second of `batch(start, end)`, which evaluates hands start..end-1 and returns a
 * checksum; batches cycle through the `count` dealt hands. Each evaluator gets its own `batch`
 * closure so that its call site stays monomorphic, as it would be in real code.
 */
function measure(count: number, batch: (start: number, end: number) => number): number {
  let next = 0;
  return opsPerSecond(() => {
    const start = next;
    const end = Math.min(start + BATCH, count);
    sink ^= batch(start, end);
    next = end === count ? 0 : end;
    return end - start;
  }, MS);
}

export default async function evalBench(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const report = (name: string, value: number): void => {
    results.push({ name, unit: 'evals/s', value });
    process.stderr.write(`  ${name}: ${Math.round(value).toLocaleString('en')} evals/s\n`);
  };

  process.stderr.write(`  dealing ${HANDS.toLocaleString('en')} 7-card hands\n`);
  const seven = deal(HANDS, 7, 20161006);
  const peerFlat = seven.map(toPeerCode);
  const peerArrays: number[][] = [];
  for (let h = 0; h < HANDS; h++) peerArrays.push(Array.from(peerFlat.subarray(h * 7, h * 7 + 7)));
  const ourArrays: number[][] = [];
  for (let h = 0; h < HANDS; h++) ourArrays.push(Array.from(seven.subarray(h * 7, h * 7 + 7)));
  // phe has no type declarations: load it through a computed specifier
  const pheSpecifier = 'phe/lib/evaluator7.js';
  const phe7 = ((await import(pheSpecifier)) as { default: Seven }).default;

  report(
    'eval7-high:cercle',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) {
        const o = h * 7;
        s += evalHigh7(seven[o], seven[o + 1], seven[o + 2], seven[o + 3], seven[o + 4], seven[o + 5], seven[o + 6]);
      }
      return s;
    }),
  );
  report(
    'eval7-high-array:cercle',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) s += evalHigh(ourArrays[h]);
      return s;
    }),
  );
  report(
    'eval7-high:@pokertools/evaluator',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) s += pokertoolsEvaluate(peerArrays[h]);
      return s;
    }),
  );
  report(
    'eval7-high:phe',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) {
        const o = h * 7;
        s += phe7(peerFlat[o], peerFlat[o + 1], peerFlat[o + 2], peerFlat[o + 3], peerFlat[o + 4], peerFlat[o + 5], peerFlat[o + 6]);
      }
      return s;
    }),
  );

  // Omaha (4 private + 5 board): the same dealt cards, first four private, last five board
  const OMAHA = 200_000;
  const nine = deal(OMAHA, 9, 7);
  const holes: number[][] = [];
  const boards: number[][] = [];
  for (let h = 0; h < OMAHA; h++) {
    holes.push(Array.from(nine.subarray(h * 9, h * 9 + 4)));
    boards.push(Array.from(nine.subarray(h * 9 + 4, h * 9 + 9)));
  }
  report(
    'eval-omaha4-high:cercle',
    measure(OMAHA, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) s += evalOmahaHigh(holes[h], boards[h]);
      return s;
    }),
  );
  report(
    'eval-omaha4-low8:cercle',
    measure(OMAHA, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) s += evalOmahaLow8(holes[h], boards[h]);
      return s;
    }),
  );
  report(
    'eval7-razz:cercle',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) {
        const o = h * 7;
        s += evalRazz7(seven[o], seven[o + 1], seven[o + 2], seven[o + 3], seven[o + 4], seven[o + 5], seven[o + 6]);
      }
      return s;
    }),
  );
  report(
    'eval5-27:cercle',
    measure(HANDS, (start, end) => {
      let s = 0;
      for (let h = start; h < end; h++) {
        const o = h * 7;
        s += eval27Five(seven[o], seven[o + 1], seven[o + 2], seven[o + 3], seven[o + 4], 'decree');
      }
      return s;
    }),
  );
  if (sink === 0.5) process.stderr.write('');
  return results;
}
