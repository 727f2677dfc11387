/**
 * The variant of a state, by its code, with no state of its own (no module-level
 * mutable state in the engine).
 *
 * `VARIANTS[code]` with a code that varies is a keyed load V8 cannot specialise (megamorphic once a
 * process has seen several variants, as a table server does): it costs several times a plain
 * property load, and the engine needs the variant a few times per action. A switch compiles to
 * identity checks of the (interned) code strings, each case a load V8 specialises, whatever mix of
 * variants the process plays. It replaces a one-entry cache in module variables, which was as fast
 * but shared between every caller of the engine.
 */
import { VARIANTS, type Variant, type VariantCode } from '../variants';

export function variantOf(code: VariantCode): Variant {
  switch (code) {
    case 'THL':
      return VARIANTS.THL;
    case 'THPL':
      return VARIANTS.THPL;
    case 'THNL':
      return VARIANTS.THNL;
    case 'O4HPL':
      return VARIANTS.O4HPL;
    case 'O4JL':
      return VARIANTS.O4JL;
    case 'O4JPL':
      return VARIANTS.O4JPL;
    case 'O5HPL':
      return VARIANTS.O5HPL;
    case '7SHL':
      return VARIANTS['7SHL'];
    case '7SJL':
      return VARIANTS['7SJL'];
    case '7SLL':
      return VARIANTS['7SLL'];
    case '2T7TD':
      return VARIANTS['2T7TD'];
  }
}
