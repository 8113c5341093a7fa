/** Public surface of the rewrite stage: the LA/RA language, the rules, LA DAG ↔ e-graph, saturation, proofs. */
export { OptimizerAnalysis, type LaData, type OptimizerData, type RaData } from "./analysis";
export { AttributeTable } from "./attributes";
export { buildBlockEGraph, bindRoots, type BlockEGraph, type BlockEGraphOptions } from "./block-egraph";
export { enodeCost, enodeMeasures, type OperationMeasures, UNKNOWN_COST_SECONDS } from "./enode-cost";
export { expressionToTerm, UnsupportedExpressionError } from "./expression-term";
export { FUSED_OPS, fusedOp } from "./fused-ops";
export { opFamily } from "./la-ops";
export { expressionEGraph, proveTermsEqual, sameValue, shapeStats, type ExpressionEGraph, type ProveResult, type TermShape, type TermShapes } from "./prove";
export { bindRoot } from "./root-binds";
export { optimizerRuleSpecs, type RuleSetOptions } from "./rules";
export { DEFAULT_SATURATION, saturate, type SaturationOptions } from "./saturate";
export { parseExpression, termToDml, termToExpression, UnprintableTermError, type LeafText } from "./term-to-dml";
export { chainLeaves, greedyChainOrder, optimalChainOrder, printChainTree, type ChainCostModel, type ChainPlan, type ChainTree } from "./chain-order";
export { MATMUL_COST, seedChainOrders } from "./chain-seed";
export { factorOutCommon, seedSumProductForm } from "./sum-product-seed";
export { combineIsomorphic, toPolynomial, type Factor, type Monomial, type Polynomial } from "./polynomial";
export { factorizeMonomial, type FactorPlan } from "./factorize";
