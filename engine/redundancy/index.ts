/** Public surface of ReMac's redundancy elimination: the report of a script's CSE and LSE options and the plans chosen from them. */
export { DEFAULT_EXPECTED_ITERATIONS, findRedundancy, type RedundancySettings } from "./find-redundancy";
export { NAME_PLACEHOLDER } from "./occurrence-edits";
export type { RedundancyKind, RedundancyOccurrence, RedundancyOption, RedundancyPlan, RedundancyReport, RedundancyStrategy } from "./redundancy-types";
export { allOptions } from "./redundancy-types";
export type { AppliedOption } from "./apply-redundancy";
export type { OriginalPlace } from "./edited-positions";
export { applyRedundancy } from "./apply-redundancy";
export { originalPositions } from "./edited-positions";
export { FreshNames } from "./fresh-names";
