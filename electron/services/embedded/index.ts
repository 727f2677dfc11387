/**
 * The embedded operator the client starts on loopback (DESIGN.md §3 "The embedded default"), as a
 * child process, pinned on first run. Plain Node: no `electron` import.
 */
export {
  builtLaunch,
  developmentLaunch,
  EMBEDDED_ENV_NAMES,
  embeddedChildEnv,
  nodeChild,
  type ChildHandle,
  EMBEDDED_OPERATOR_DIR,
  EMBEDDED_PIN_FILE,
  EmbeddedPinChangedError,
  keptPin,
  launchEmbeddedOperator,
  type EmbeddedLaunchOptions,
  type EmbeddedTiming,
  type EmbeddedOperatorProcess,
} from './launcher';
