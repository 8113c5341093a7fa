/** Public surface of the sparsity estimators: one interface, three implementations. */
export { checkMetadata, erase, product, type AnyEstimator, type SparsityEstimator } from "./estimator";
export { uniformEstimator, uniformDensity, type UniformStats } from "./uniform";
export { mncEstimator, mncProductIsExact, mncProductNnz } from "./mnc";
export { sketchFromStructure, type MncSketch, sketchFromCounts } from "./mnc-sketch";
export { chainBoundEstimator, type DegreeStats } from "./chain-bound";
export { chainBound, type DegreeConstraint } from "./degree-bound";
export {
  colSums,
  evaluateExact,
  evaluateWith,
  exprInputs,
  exprShape,
  exprText,
  input,
  matmul,
  plus,
  rowSums,
  sumAll,
  t,
  times,
  type SparsityExpr,
} from "./expression";

import { chainBoundEstimator } from "./chain-bound";
import { erase } from "./estimator";
import { mncEstimator } from "./mnc";
import { uniformEstimator } from "./uniform";

/** The three estimators, cheapest first. */
export const allEstimators = [erase(uniformEstimator), erase(mncEstimator), erase(chainBoundEstimator)] as const;
