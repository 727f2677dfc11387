/** The compact codec's table rules: the primary stake and the differences from the variant's defaults, written and read side by side (R-INFO). */
import { REPLAY_HOUSE_RULES, type TableRules } from '../../rules/tableRules';
import type { BettingStructure, VariantCode } from '../../rules/variants';
import { type ByteReader, type ByteWriter, CorruptBytes } from '../bytes';
import { VARIANT_IDS, blindsGame, baseRules, sameRake } from './format';
import { amount } from './entries';

// Table-rules difference mask, most frequent differences in the low bits (one varint byte); R_HOUSE_RULES: the replay-only house rules of a recorded hand (tableRules.ts ReplayHouseRule), a byte, bit i = rule i. Frozen: on disk.
const STRUCTURES: readonly BettingStructure[] = ['limit', 'pot-limit', 'no-limit'];
const R_RAKE = 1 << 0;
const R_ANTE = 1 << 1;
const R_BRING_IN = 1 << 2;
const R_SMALL_BLIND = 1 << 3;
const R_BIG_BET = 1 << 4;
const R_CAP = 1 << 5;
const R_CAP_HEADS_UP = 1 << 6;
const R_MIN_RAISE = 1 << 7;
const R_OPEN_PAIR = 1 << 8;
const R_LOWBALL = 1 << 9;
const R_ACTION_SECONDS = 1 << 10;
const R_TIME_BANK = 1 << 11;
const R_ANTE_BY = 1 << 12;
const R_SMALL_BET = 1 << 13;
const R_BIG_BLIND = 1 << 14;
const R_STRUCTURE = 1 << 15;
const R_VARIANT = 1 << 16;
const R_HOUSE_RULES = 1 << 17;
const R_ALL = (1 << 18) - 1;

export function writeRules(w: ByteWriter, variant: VariantCode, r: TableRules): void {
  const primary = blindsGame(variant) ? r.bigBlind : r.smallBet;
  const base = baseRules(variant, primary);
  let mask = 0;
  if (!sameRake(r.rake, base.rake)) mask |= R_RAKE;
  if (r.ante !== base.ante) mask |= R_ANTE;
  if (r.bringIn !== base.bringIn) mask |= R_BRING_IN;
  if (r.smallBlind !== base.smallBlind) mask |= R_SMALL_BLIND;
  if (r.bigBet !== base.bigBet) mask |= R_BIG_BET;
  if (r.cap !== base.cap) mask |= R_CAP;
  if (r.capHeadsUp !== base.capHeadsUp) mask |= R_CAP_HEADS_UP;
  if (r.minRaise !== base.minRaise) mask |= R_MIN_RAISE;
  if (r.studOpenPairBigBet !== base.studOpenPairBigBet) mask |= R_OPEN_PAIR;
  if (r.lowball27 !== base.lowball27) mask |= R_LOWBALL;
  if (r.actionSeconds !== base.actionSeconds) mask |= R_ACTION_SECONDS;
  if (r.timeBankSeconds !== base.timeBankSeconds) mask |= R_TIME_BANK;
  if (r.anteBy !== undefined) mask |= R_ANTE_BY;
  if (r.smallBet !== base.smallBet) mask |= R_SMALL_BET;
  if (r.bigBlind !== base.bigBlind) mask |= R_BIG_BLIND;
  if (r.structure !== base.structure) mask |= R_STRUCTURE;
  if (r.variant !== variant) mask |= R_VARIANT;
  if (r.houseRules !== undefined && r.houseRules.length > 0) mask |= R_HOUSE_RULES;
  w.uint(primary);
  w.uint(mask);
  if (mask & R_RAKE) {
    w.uint(r.rake.basisPoints);
    w.uint(r.rake.cap === null ? 0 : r.rake.cap + 1);
    w.byte(r.rake.noFlopNoDrop ? 1 : 0);
  }
  if (mask & R_ANTE) w.uint(r.ante);
  if (mask & R_BRING_IN) w.uint(r.bringIn);
  if (mask & R_SMALL_BLIND) w.uint(r.smallBlind);
  if (mask & R_BIG_BET) w.uint(r.bigBet);
  if (mask & R_CAP) w.uint(r.cap === null ? 0 : r.cap + 1);
  if (mask & R_ACTION_SECONDS) w.uint(r.actionSeconds);
  if (mask & R_TIME_BANK) w.uint(r.timeBankSeconds);
  if (mask & R_ANTE_BY) w.byte(r.anteBy === 'big-blind' ? 1 : 0);
  if (mask & R_SMALL_BET) w.uint(r.smallBet);
  if (mask & R_BIG_BLIND) w.uint(r.bigBlind);
  if (mask & R_STRUCTURE) {
    const s = STRUCTURES.indexOf(r.structure);
    if (s < 0) throw new RangeError(`unknown betting structure ${String(r.structure)}`);
    w.byte(s);
  }
  if (mask & R_VARIANT) {
    const id = VARIANT_IDS.indexOf(r.variant);
    if (id < 0) throw new RangeError(`unknown variant ${String(r.variant)}`);
    w.byte(id);
  }
  if (mask & R_HOUSE_RULES) {
    let bits = 0;
    for (const h of r.houseRules!) {
      const i = REPLAY_HOUSE_RULES.indexOf(h);
      if (i < 0) throw new RangeError(`unknown house rule ${String(h)}`);
      bits |= 1 << i;
    }
    w.byte(bits);
  }
}

export function readRules(r: ByteReader, variant: VariantCode): TableRules {
  const primary = amount(r);
  const mask = r.uint();
  if (mask > R_ALL) throw new CorruptBytes('unknown table-rule fields');
  const base = baseRules(variant, primary);
  const out: { -readonly [K in keyof TableRules]: TableRules[K] } = { ...base };
  if (mask & R_RAKE) {
    const basisPoints = amount(r);
    const cap = amount(r);
    const nfnd = r.byte();
    if (nfnd > 1) throw new CorruptBytes('no-flop-no-drop is not 0 or 1');
    out.rake = { basisPoints, cap: cap === 0 ? null : cap - 1, noFlopNoDrop: nfnd === 1 };
  }
  if (mask & R_ANTE) out.ante = amount(r);
  if (mask & R_BRING_IN) out.bringIn = amount(r);
  if (mask & R_SMALL_BLIND) out.smallBlind = amount(r);
  if (mask & R_BIG_BET) out.bigBet = amount(r);
  if (mask & R_CAP) {
    const cap = amount(r);
    out.cap = cap === 0 ? null : cap - 1;
  }
  if (mask & R_CAP_HEADS_UP) out.capHeadsUp = !base.capHeadsUp;
  if (mask & R_MIN_RAISE) out.minRaise = base.minRaise === 'increment' ? 'double' : 'increment';
  if (mask & R_OPEN_PAIR) out.studOpenPairBigBet = !base.studOpenPairBigBet;
  if (mask & R_LOWBALL) out.lowball27 = base.lowball27 === 'decree' ? 'international' : 'decree';
  if (mask & R_ACTION_SECONDS) out.actionSeconds = amount(r);
  if (mask & R_TIME_BANK) out.timeBankSeconds = amount(r);
  if (mask & R_ANTE_BY) {
    const b = r.byte();
    if (b > 1) throw new CorruptBytes('unknown ante payer');
    out.anteBy = b === 1 ? 'big-blind' : 'everyone';
  }
  if (mask & R_SMALL_BET) out.smallBet = amount(r);
  if (mask & R_BIG_BLIND) out.bigBlind = amount(r);
  if (mask & R_STRUCTURE) {
    const s = r.byte();
    if (s >= STRUCTURES.length) throw new CorruptBytes('unknown betting structure');
    out.structure = STRUCTURES[s];
  }
  if (mask & R_VARIANT) {
    const id = r.byte();
    if (id >= VARIANT_IDS.length) throw new CorruptBytes('unknown rules variant');
    out.variant = VARIANT_IDS[id];
  }
  if (mask & R_HOUSE_RULES) {
    const bits = r.byte();
    if (bits === 0 || bits >= 1 << REPLAY_HOUSE_RULES.length) throw new CorruptBytes('unknown house rules');
    out.houseRules = REPLAY_HOUSE_RULES.filter((_, i) => (bits >> i) & 1);
  }
  return out;
}
