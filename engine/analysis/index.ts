/**
 * The analysis of one document, as the language server and the `dml`
 * command line ask for it: parse, statement blocks and DAGs, input metadata,
 * sizes of every node, and all diagnostics (`checkAndAnalyze`), with the
 * cache an editor keeps between edits. The facts it answers with (node
 * stats, block sizes, the sparsity estimators' names) are re-exported here
 * from engine/stats, so callers of the analysis need no stats module.
 */
export { analyzeText, analyzeParsed, type AnalysisOptions, type MeasuredSize, type ProgramAnalysis } from "./program-analysis";
export { checkDocument, checkAndAnalyze, type CheckOptions } from "./check-document";
export { AnalysisCache } from "./analysis-cache";
export { formatStats, scalarValueText, type NodeStats } from "../stats/sizes/node-stats";
export { SPARSITY_ESTIMATORS, type SparsityEstimator } from "../stats/sizes/sketch-sizes";
export type { BlockSizes } from "../stats/sizes/block-sizes";
