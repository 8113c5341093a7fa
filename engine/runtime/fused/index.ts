/**
 * Reference evaluation of fused operators (the fusion planner's CPlans)
 * over the runtime's kernels, and the unfused values they must equal.
 */
export { evaluateFusedOperator, checkOperator } from "./evaluate-fused";
export { UnfusedEvaluator, type UnfusedOptions } from "./unfused-evaluator";
export { FusedOperatorError, nodeLabel } from "./fused-error";
export { valueDifference } from "./value-difference";
export type { NodeShape } from "./operator-shapes";
export { callOperandOrder } from "./call-arguments";
export { columnRangeOf } from "./column-range";
export { operatorShapes, sameShape, shapeText } from "./operator-shapes";
