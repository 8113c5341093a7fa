/** Public surface of the suggest stage: per-block optimization into verified, user-facing suggestions. */
export { optimizeBlock, type BlockInput, type BlockOptimization, type DroppedSuggestion, type PlanNode, type Suggestion, type SuggestOptions } from "./optimize-block";
export { suggestionEdits } from "./suggestion-edits";
export { statementRoots, type StatementRoot } from "./statement-roots";
export { randomInputs, shrinkDimensions, type InputCase, type VariableShape } from "./random-inputs";
export { valueDifference, verifyRewrite, type VerifyOptions, type VerifyResult } from "./verify-rewrite";
export { bakedNumbers, DEFAULT_SAVING_THRESHOLDS, sameExpression, savesEnough, type SavingThresholds } from "./worth-taking";
export { safetyNetNote } from "./safety-net";
export { blockSaturation, DEFAULT_DOCUMENT_BUDGET, documentBudget, spend, type DocumentBudget } from "./document-budget";
export { optimizeProgram, type ProgramOptimization } from "./optimize-program";
export { MAX_OPTIMIZED_CALL_BLOCKS, MAX_OPTIMIZED_CALLS, optimizeCalls, type CallOptimization, type CallOptimizations } from "./optimize-calls";
export { emptyFusionView, shiftFusionView } from "./fusion-view";
export type { ExecutableDag } from "./fusion-input";
export type { BlockFusion, FusionOperatorView, FusionView, FusionViewNode } from "./block-fusion";
export { blockOfVariables, proveInBlock, proveVariables, shapesDiffer, stopText, type BlockOfVariables, type ProveOptions, type ProveOutcome, type RelationalStep } from "./prove-variables";
export { derivationJob, runDerivationJob, suggestionDerivation, type DerivationJob, type SuggestionDerivation, type SuggestionSides, type TemporaryDefinition } from "./suggestion-derivation";
