// PHH variant codes, ours, and the mapping between them.
//
// The PHH standard (phh.readthedocs.io, "Required Fields") defines 11 codes: a betting letter
// (F fixed-limit, N no-limit, P pot-limit) and a game (T Texas hold'em, S short-deck, O Omaha,
// 7S seven card stud, R razz, 2L1D / 2L3D deuce-to-seven single / triple draw, B badugi), with
// `/8` for eight-or-better high/low. It has no code for three decree variants (D art. 7): pot-limit
// hold'em, pot-limit Omaha high/low and 5-card pot-limit Omaha. Our extension codes for them start
// with `x-`: the standard's codes are upper-case letters, digits and `/` only, so a code with a
// lower-case letter and a hyphen can never collide with a present or future standard code.
// docs/phh.md documents them.

import type { VariantCode } from '../../rules/variants';

/** The variant codes of the PHH standard. */
export const PHH_STANDARD_VARIANTS = ['FT', 'NT', 'NS', 'PO', 'FO/8', 'F7S', 'F7S/8', 'FR', 'N2L1D', 'F2L3D', 'FB'] as const;
export type PhhStandardVariant = (typeof PHH_STANDARD_VARIANTS)[number];

/** Cercle's extension codes for decree variants the standard lacks. */
export const PHH_EXTENSION_VARIANTS = ['x-PT', 'x-PO/8', 'x-PO5'] as const;
export type PhhExtensionVariant = (typeof PHH_EXTENSION_VARIANTS)[number];

export type PhhVariant = PhhStandardVariant | PhhExtensionVariant;


/** Our variant code → the PHH code we write. */
export const PHH_CODE_OF: Readonly<Record<VariantCode, PhhVariant>> = {
  THL: 'FT',
  THPL: 'x-PT',
  THNL: 'NT',
  O4HPL: 'PO',
  O4JL: 'FO/8',
  O4JPL: 'x-PO/8',
  O5HPL: 'x-PO5',
  '7SHL': 'F7S',
  '7SJL': 'F7S/8',
  '7SLL': 'FR',
  '2T7TD': 'F2L3D',
};

/** PHH code → our variant, for the codes that are decree variants. */
export const DECREE_VARIANT_OF: Readonly<Partial<Record<PhhVariant, VariantCode>>> = Object.fromEntries(
  Object.entries(PHH_CODE_OF).map(([ours, phh]) => [phh, ours]),
);

/** What a PHH variant needs in its header (the standard's "required field statuses" table). */
export type BettingFields = 'limit' | 'min-bet';
export type ForcedBets = 'blinds' | 'bring-in';

export interface PhhVariantInfo {
  readonly code: PhhVariant;
  readonly name: string;
  /** `limit` needs small_bet and big_bet; `min-bet` needs min_bet. */
  readonly betting: BettingFields;
  /** `blinds` needs blinds_or_straddles; `bring-in` needs bring_in. */
  readonly forced: ForcedBets;
  /** Hole cards dealt before the first betting round. */
  readonly holeCards: number;
  readonly decree: VariantCode | null;
}

export const PHH_VARIANTS: Readonly<Record<PhhVariant, PhhVariantInfo>> = {
  FT: { code: 'FT', name: "Fixed-limit Texas hold 'em", betting: 'limit', forced: 'blinds', holeCards: 2, decree: 'THL' },
  NT: { code: 'NT', name: "No-limit Texas hold 'em", betting: 'min-bet', forced: 'blinds', holeCards: 2, decree: 'THNL' },
  NS: { code: 'NS', name: "No-limit short-deck hold 'em", betting: 'min-bet', forced: 'blinds', holeCards: 2, decree: null },
  PO: { code: 'PO', name: "Pot-limit Omaha hold 'em", betting: 'min-bet', forced: 'blinds', holeCards: 4, decree: 'O4HPL' },
  'FO/8': {
    code: 'FO/8',
    name: "Fixed-limit Omaha hold 'em high/low-split eight or better",
    betting: 'limit',
    forced: 'blinds',
    holeCards: 4,
    decree: 'O4JL',
  },
  F7S: { code: 'F7S', name: 'Fixed-limit seven card stud', betting: 'limit', forced: 'bring-in', holeCards: 3, decree: '7SHL' },
  'F7S/8': {
    code: 'F7S/8',
    name: 'Fixed-limit seven card stud high/low-split eight or better',
    betting: 'limit',
    forced: 'bring-in',
    holeCards: 3,
    decree: '7SJL',
  },
  FR: { code: 'FR', name: 'Fixed-limit razz', betting: 'limit', forced: 'bring-in', holeCards: 3, decree: '7SLL' },
  N2L1D: {
    code: 'N2L1D',
    name: 'No-limit deuce-to-seven lowball single draw',
    betting: 'min-bet',
    forced: 'blinds',
    holeCards: 5,
    decree: null,
  },
  F2L3D: {
    code: 'F2L3D',
    name: 'Fixed-limit deuce-to-seven lowball triple draw',
    betting: 'limit',
    forced: 'blinds',
    holeCards: 5,
    decree: '2T7TD',
  },
  FB: { code: 'FB', name: 'Fixed-limit badugi', betting: 'limit', forced: 'blinds', holeCards: 4, decree: null },
  'x-PT': { code: 'x-PT', name: "Pot-limit Texas hold 'em (Cercle extension)", betting: 'min-bet', forced: 'blinds', holeCards: 2, decree: 'THPL' },
  'x-PO/8': {
    code: 'x-PO/8',
    name: "Pot-limit Omaha hold 'em high/low-split eight or better (Cercle extension)",
    betting: 'min-bet',
    forced: 'blinds',
    holeCards: 4,
    decree: 'O4JPL',
  },
  'x-PO5': {
    code: 'x-PO5',
    name: "Pot-limit 5-card Omaha hold 'em (Cercle extension)",
    betting: 'min-bet',
    forced: 'blinds',
    holeCards: 5,
    decree: 'O5HPL',
  },
};

export function isPhhVariant(code: string): code is PhhVariant {
  return Object.prototype.hasOwnProperty.call(PHH_VARIANTS, code);
}
