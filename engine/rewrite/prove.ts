/**
 * Whether the optimizer proves two DML expressions equal: the left side is
 * saturated, then the right side is looked up in the same e-graph (a scalar
 * and a 1x1 matrix count as equal when `as.scalar` of the matrix is in the
 * scalar's class).
 */
import { EGraph, type ClassId, type ExplanationStep } from "../egraph";
import { matrixStats, scalarStats, type NodeStats } from "../stats/sizes/node-stats";
import { OptimizerAnalysis, type OptimizerData } from "./analysis";
import { AttributeTable } from "./attributes";
import { expressionToTerm } from "./expression-term";
import { bindRoot } from "./root-binds";
import { saturate, type SaturationOptions } from "./saturate";
import { parseExpression } from "./term-to-dml";

export type TermShape = "scalar" | { rows: number; cols: number; nnz?: number };
export type TermShapes = Record<string, TermShape>;

export interface ProveResult {
  proven: boolean;
  steps: ExplanationStep[];
  stopReason: string;
  nodes: number;
  ms: number;
}

export function shapeStats(shape: TermShape): NodeStats {
  if (shape === "scalar") return scalarStats({ dataType: "scalar", valueType: "double" });
  const nnz = shape.nnz ?? shape.rows * shape.cols;
  return matrixStats(shape.rows, shape.cols, nnz, shape.nnz !== undefined);
}

export interface ExpressionEGraph {
  egraph: EGraph<OptimizerData>;
  attributes: AttributeTable;
  root: ClassId;
}

/** An optimizer e-graph holding one DML expression over variables of the given shapes. */
export function expressionEGraph(expression: string, shapes: TermShapes, options: { explanations?: boolean } = {}): ExpressionEGraph {
  const attributes = new AttributeTable();
  const leafStats = (op: string) => {
    const shape = op.startsWith("var:") ? shapes[op.slice(4)] : undefined;
    return shape === undefined ? undefined : shapeStats(shape);
  };
  const egraph = new EGraph<OptimizerData>(new OptimizerAnalysis(attributes, leafStats), { explanations: options.explanations ?? false });
  const root = egraph.addTerm(expressionToTerm(parseExpression(expression)));
  egraph.rebuild();
  return { egraph, attributes, root };
}

export function proveTermsEqual(lhs: string, rhs: string, shapes: TermShapes, options: SaturationOptions & { explain?: boolean } = {}): ProveResult {
  const start = performance.now();
  const { egraph, attributes, root: left } = expressionEGraph(lhs, shapes, { explanations: options.explain ?? false });
  bindRoot(egraph, attributes, left);
  egraph.rebuild();
  const report = saturate(egraph, attributes, options);
  const right = egraph.addTerm(expressionToTerm(parseExpression(rhs)));
  egraph.rebuild();
  const equal = sameValue(egraph, left, right);
  const steps = equal && options.explain ? (egraph.explain(left, right) ?? []) : [];
  return { proven: equal, steps, stopReason: report.stopReason, nodes: egraph.nodeCount, ms: performance.now() - start };
}

/** Same class, or a 1x1 matrix whose `as.scalar` is in the scalar's class. */
export function sameValue(egraph: EGraph<OptimizerData>, a: ClassId, b: ClassId): boolean {
  if (egraph.find(a) === egraph.find(b)) return true;
  const kind = (id: ClassId) => {
    const d = egraph.data(id);
    return d.family === "la" ? d.stats.type.dataType : "other";
  };
  const asScalar = (m: ClassId) => egraph.lookup({ op: "as.scalar", children: [egraph.find(m)] });
  if (kind(a) === "matrix" && kind(b) === "scalar") {
    const s = asScalar(a);
    return s !== undefined && egraph.find(s) === egraph.find(b);
  }
  if (kind(a) === "scalar" && kind(b) === "matrix") {
    const s = asScalar(b);
    return s !== undefined && egraph.find(s) === egraph.find(a);
  }
  return false;
}
