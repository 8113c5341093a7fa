/**
 * Public surface of the fusion stage (SystemML's codegen optimizer): plans
 * which operations of a DAG run as one fused operator (Cell, Row, MAgg,
 * Outer templates), by exact cost-based selection (MPSkipEnum).
 */
export { planFusion, dagCosts, type FusionOptions } from "./plan-fusion";
export { inputReadFloorSeconds } from "./input-read-floor";
export { fusionDag, type FusionDag, nodeLabel } from "./fusion-dag";
export { fusionDagOfBlock } from "./from-block";
export { exploreFusionPlans, reachableAscending } from "./explore";
export { nodeSeconds } from "./select";
export { MemoTable, printEntry } from "./memo-table";
export { FUSION_TEMPLATES, isColumnRangeSyntax, isMatrixVectorProduct } from "./templates";
export type { CloseStatus, FusedOperator, FusionPlan, FusionTemplate, MemoEntry, OperatorBinding, SearchStats, TemplateType } from "./types";
export type { PartitionChoice } from "./select";
export { FusedCostModel, choosePartitionPlans } from "./select";
