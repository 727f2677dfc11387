/**
 * The variant of a state, looked up once per change of variant rather than at every use.
 *
 * `VARIANTS[code]` with a code that varies is a keyed load V8 cannot specialise (megamorphic once a
 * process has seen several variants, as a table server does): it costs several times a plain
 * property load, and the engine needs the variant a few times per action. A table plays one variant
 * hand after hand, so a one-entry cache mostly hits (a string identity check); a miss costs the
 * lookup it replaces. Module state is safe: the engine is synchronous and never re-entered.
 */
import { VARIANTS, type Variant, type VariantCode } from '../variants';

let lastCode: VariantCode | null = null;
let lastVariant: Variant | undefined;

export function variantOf(code: VariantCode): Variant {
  if (code !== lastCode) {
    lastVariant = VARIANTS[code];
    lastCode = code;
  }
  return lastVariant as Variant;
}
