/** Public surface of ReMac's redundancy elimination: the report of a script's CSE and LSE options and the plans chosen from them. */
export { findRedundancy, type RedundancySettings } from "./find-redundancy";
export { DEFAULT_EXPECTED_ITERATIONS } from "./loop-iterations";
export { NAME_PLACEHOLDER } from "./occurrence-edits";
export type { RedundancyKind, RedundancyOccurrence, RedundancyOption, RedundancyPlan, RedundancyReport, RedundancyStrategy } from "./redundancy-types";
