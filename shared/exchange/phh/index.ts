/**
 * PHH (Poker Hand History, phh.readthedocs.io): reading and writing hands, the action notation,
 * variant codes (the standard's and our extensions), and the replayer that drives the rules
 * engine through a recorded hand. docs/phh.md describes the support and the corpus differences.
 */
export {
  type TomlDateTime,
  type TomlDocument,
  type TomlError,
  type TomlParse,
  type TomlTable,
  type TomlValue,
  formatTomlKey,
  formatTomlNumber,
  formatTomlString,
  formatTomlValue,
  isTomlDateTime,
  isTomlTable,
  parseToml,
  tomlPathKey,
} from './toml';
export { type PhhAction, type PhhActionParse, type PhhCard, formatPhhAction, parsePhhAction, parsePhhCards } from './actions';
export { type NamedPhhHand, type PhhHand, type PhhParse, type PhhsParse, parsePhh, parsePhhs, writePhh, writePhhs } from './phh';
export {
  DECREE_VARIANT_OF,
  PHH_CODE_OF,
  PHH_EXTENSION_VARIANTS,
  PHH_STANDARD_VARIANTS,
  PHH_VARIANTS,
  type PhhExtensionVariant,
  type PhhStandardVariant,
  type PhhVariant,
  type PhhVariantInfo,
  isPhhVariant,
} from './variants';
export { type HouseRule, type ReplayOptions, type ReplayResult, WSOP_LIMIT_CAP, replayHand } from './replay';
