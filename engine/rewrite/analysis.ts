/**
 * The class invariants of the optimizer's e-graph (SPORES section 3.2):
 * - LA classes: the stats of the value (type, dims, non-zeros from the
 *   estimators; merged by taking the tighter) and its constant value;
 * - RA classes: the schema (free attributes) and a constant value;
 * - attributes: which attribute the leaf names.
 * Constants are folded inside saturation: a class whose constant becomes
 * known gets the literal (or the constant matrix) as a member.
 */
import { type Analysis, type ClassId, type EGraphApi, type EGraphView, type ENode, type MergeResult, sameValue } from "../egraph";
import type { DagNode, DagOp, DagType, ElementwiseBinaryOp } from "../program";
import { cells, matrixStats, scalarStats, type NodeStats } from "../stats/sizes/node-stats";
import { applyNumeric } from "../stats/sizes/scalar-fold";
import { nodeStats, type NodeSizeContext, type NodeSizeResult } from "../stats/sizes/node-sizes";
import type { AttributeTable } from "./attributes";
import {
  attributeId,
  BIND,
  dagOpOf,
  fillDims,
  fillOp,
  literalOp,
  literalValue,
  NO_ATTRIBUTE,
  opFamily,
  outerOperator,
  RA_ADD,
  RA_MUL,
  RA_SUM,
  UNBIND_MATRIX,
} from "./la-ops";

export interface LaData {
  family: "la";
  stats: NodeStats;
  /** The value of a constant scalar, or of every cell of a constant matrix. */
  constant?: number;
  /** The operation does not type-check on these operands (a rule must never produce it). */
  invalid?: boolean;
}

export interface RaData {
  family: "ra";
  /** Free attribute ids, ascending. */
  schema: readonly number[];
  constant?: number;
}

export interface AttributeData {
  family: "attribute";
  attribute: number;
}

export type OptimizerData = LaData | RaData | AttributeData;

/** Where the stats of leaves (`var:NAME`, `dag:ID`) come from. */
export interface LeafStats {
  (op: string): NodeStats | undefined;
}

const SCALAR_DOUBLE: DagType = { dataType: "scalar", valueType: "double" };
const MATRIX_DOUBLE: DagType = { dataType: "matrix", valueType: "double" };
const SCALAR_STRING: DagType = { dataType: "scalar", valueType: "string" };
const UNKNOWN_STATS: NodeStats = { type: { dataType: "unknown", valueType: "unknown" }, rows: null, cols: null, nnz: null };

const NO_CONTEXT: NodeSizeContext = {
  input: () => undefined,
  parameter: () => undefined,
  read: () => undefined,
  call: () => undefined,
};

export function isMatrixData(d: OptimizerData): d is LaData {
  return d.family === "la" && d.stats.type.dataType === "matrix";
}

export function isScalarData(d: OptimizerData): d is LaData {
  return d.family === "la" && d.stats.type.dataType === "scalar";
}

export class OptimizerAnalysis implements Analysis<OptimizerData> {
  constructor(
    private readonly attributes: AttributeTable,
    private readonly leafStats: LeafStats,
  ) {}

  make(egraph: EGraphView<OptimizerData>, node: ENode): OptimizerData {
    const family = opFamily(node.op);
    if (family === "attribute") return { family: "attribute", attribute: attributeId(node.op) };
    const kids = node.children.map((c) => egraph.data(c));
    if (family === "ra") return this.makeRelational(node.op, kids);
    if (family === "unbind") {
      const [i, j] = kids as AttributeData[];
      if (node.op === UNBIND_MATRIX) return { family: "la", stats: matrixStats(this.attributes.dim(i!.attribute), this.attributes.dim(j!.attribute), null) };
      return { family: "la", stats: scalarStats(SCALAR_DOUBLE) };
    }
    return makeLinearAlgebra(node, kids as LaData[], this.leafStats);
  }

  private makeRelational(op: string, kids: OptimizerData[]): RaData {
    if (op === BIND) {
      const [i, j, x] = kids as [AttributeData, AttributeData, LaData];
      const schema = [i.attribute, j.attribute].filter((a) => a >= 0).sort((a, b) => a - b);
      return withConstant({ family: "ra", schema: dedupe(schema) }, x.constant ?? knownScalarValue(x));
    }
    if (op === RA_SUM) {
      const [i, e] = kids as [AttributeData, RaData];
      const constant = e.constant === undefined ? undefined : e.constant * this.attributes.dim(i.attribute);
      return withConstant({ family: "ra", schema: e.schema.filter((a) => a !== i.attribute) }, constant);
    }
    const [a, b] = kids as [RaData, RaData];
    const schema = dedupe([...a.schema, ...b.schema].sort((x, y) => x - y));
    let constant: number | undefined;
    if (op === RA_MUL) {
      if (a.constant !== undefined && b.constant !== undefined) constant = a.constant * b.constant;
      else if (a.constant === 0 || b.constant === 0) constant = 0;
    } else if (op === RA_ADD && a.constant !== undefined && b.constant !== undefined) {
      constant = a.constant + b.constant;
    }
    return withConstant({ family: "ra", schema }, constant);
  }

  merge(a: OptimizerData, b: OptimizerData): MergeResult<OptimizerData> {
    if (a.family === "la" && b.family === "la") return mergeLinearAlgebra(a, b);
    if (a.family === "ra" && b.family === "ra") {
      const schema = a.schema.filter((x) => b.schema.includes(x));
      const constant = a.constant ?? b.constant;
      const data: RaData = withConstant({ family: "ra", schema }, constant);
      return {
        data,
        changedA: !sameValue(schema, a.schema) || !sameValue(constant, a.constant),
        changedB: !sameValue(schema, b.schema) || !sameValue(constant, b.constant),
      };
    }
    return { data: a, changedA: false, changedB: a !== b };
  }

  modify(egraph: EGraphApi<OptimizerData>, id: ClassId): void {
    const data = egraph.data(id);
    if (data.family === "ra") {
      if (data.constant !== undefined && Number.isFinite(data.constant)) {
        const none = egraph.add({ op: NO_ATTRIBUTE, children: [] });
        const literal = egraph.add({ op: literalOp(data.constant), children: [] });
        egraph.union(id, egraph.add({ op: BIND, children: [none, none, literal] }), "constant folding");
      }
      return;
    }
    if (data.family !== "la" || data.invalid) return;
    const { stats, constant } = data;
    if (stats.type.dataType === "scalar" && constant !== undefined && Number.isFinite(constant)) {
      egraph.union(id, egraph.add({ op: literalOp(constant), children: [] }), "constant folding");
    } else if (stats.type.dataType === "matrix" && stats.rows !== null && stats.cols !== null) {
      const value = constant ?? (stats.nnz === 0 && stats.nnzExact ? 0 : undefined);
      if (value !== undefined && Number.isFinite(value)) {
        const literal = egraph.add({ op: literalOp(value), children: [] });
        egraph.union(id, egraph.add({ op: fillOp(stats.rows, stats.cols), children: [literal] }), "constant folding");
      }
    }
  }
}

/**
 * The value of a scalar the stats stage knows (`nrow(X)` of a known size,
 * an opaque leaf): its relational form is that constant, so sums over it
 * fold (sum(A + r) = sum(A) + nrow(A) * sum(r)); the LA class keeps the
 * leaf, so a rewrite still writes nrow(A), not its value.
 */
function knownScalarValue(x: LaData): number | undefined {
  const value = x.stats.type.dataType === "scalar" ? x.stats.value : undefined;
  return typeof value === "number" ? value : typeof value === "boolean" ? (value ? 1 : 0) : undefined;
}

function withConstant(data: RaData, constant: number | undefined): RaData {
  return constant === undefined || Number.isNaN(constant) ? data : { ...data, constant };
}

function dedupe(sorted: number[]): number[] {
  return sorted.filter((x, k) => k === 0 || sorted[k - 1] !== x);
}

function makeLinearAlgebra(node: ENode, kids: LaData[], leafStats: LeafStats): LaData {
  const literal = literalValue(node.op);
  if (literal !== undefined) return { family: "la", stats: scalarStats(SCALAR_DOUBLE, literal), constant: literal };
  if (node.children.length === 0) return { family: "la", stats: leafStats(node.op) ?? UNKNOWN_STATS };
  if (kids.some((k) => k.family !== "la" || k.invalid)) return { family: "la", stats: UNKNOWN_STATS, invalid: true };
  const fill = fillDims(node.op);
  if (fill) {
    const value = kids[0]!.constant;
    const nnz = value === undefined ? fill.rows * fill.cols : value === 0 ? 0 : fill.rows * fill.cols;
    const data: LaData = { family: "la", stats: matrixStats(fill.rows, fill.cols, nnz, value !== undefined) };
    return value === undefined ? data : { ...data, constant: value };
  }
  const op = dagOpOf(node.op, node.children.length);
  if (!op) return { family: "la", stats: UNKNOWN_STATS, invalid: true };
  const inputs = kids.map((k) => k.stats);
  // Matrix-only operators on a scalar (e.g. t(3)) are not DML: a rule must never make one.
  if ((op.kind === "matmul" || op.kind === "transpose" || op.kind === "aggregate") && inputs.some((s) => s.type.dataType !== "matrix")) {
    return { family: "la", stats: UNKNOWN_STATS, invalid: true };
  }
  if (reorganizeOperandsFit(node.op, inputs) === false) return { family: "la", stats: UNKNOWN_STATS, invalid: true };
  const outer = outerOperator(node.op);
  // outer's operator is its third argument (a string), as the sizes of the call expect it.
  if (outer !== undefined) inputs.push(scalarStats(SCALAR_STRING, outer));
  const anyMatrix = inputs.some((s) => s.type.dataType === "matrix");
  let type: DagType = anyMatrix ? MATRIX_DOUBLE : SCALAR_DOUBLE;
  if ((op.kind === "aggregate" && op.direction === "full") || node.op === "trace") type = SCALAR_DOUBLE;
  if (op.kind === "cast") type = op.to === "scalar" ? SCALAR_DOUBLE : MATRIX_DOUBLE;
  if (op.kind === "matmul") type = MATRIX_DOUBLE;
  const result = operationStats(op, inputs, type);
  const invalid = result.diagnostics.some((d) => d.severity === "error");
  const stats = result.stats;
  const data: LaData = { family: "la", stats };
  if (invalid) data.invalid = true;
  if (stats.type.dataType === "scalar" && typeof stats.value === "number") data.constant = stats.value;
  else if (stats.type.dataType === "scalar" && typeof stats.value === "boolean") data.constant = stats.value ? 1 : 0;
  else if (stats.type.dataType === "scalar") {
    const constant = scalarOfConstantMatrix(op, node.op, kids[0]!);
    if (constant !== undefined) data.constant = constant;
  } else if (stats.type.dataType === "matrix") {
    const constant = matrixConstant(node.op, kids);
    if (constant !== undefined) data.constant = constant;
  }
  return data;
}

/**
 * Whether the operands of a reorganization or modelled builtin have the
 * kinds and (where known) shapes SystemDS's validator requires: rev, diag
 * and trace of a matrix, trace of a square one, roll(X, k) of a matrix by
 * a scalar, (reshape X R C) of a matrix to scalar dims, outer(v, r, op) of
 * a column vector and a row vector. Undefined for other ops.
 */
function reorganizeOperandsFit(op: string, inputs: readonly NodeStats[]): boolean | undefined {
  const matrix = (s: NodeStats | undefined) => s?.type.dataType === "matrix";
  const scalar = (s: NodeStats | undefined) => s?.type.dataType === "scalar";
  const [a, b, c] = inputs;
  switch (op) {
    case "rev":
    case "diag":
      return matrix(a);
    case "trace":
      return matrix(a) && (a!.rows === null || a!.cols === null || a!.rows === a!.cols);
    case "roll":
      return matrix(a) && scalar(b);
    case "reshape":
      return matrix(a) && scalar(b) && scalar(c);
    default:
      if (outerOperator(op) === undefined) return undefined;
      return matrix(a) && matrix(b) && (a!.cols === null || a!.cols === 1) && (b!.rows === null || b!.rows === 1);
  }
}

/**
 * The scalar value of an aggregate or trace of a constant matrix (every cell
 * `c`): min, max and mean of at least one cell are `c`, prod is `c` for c = 0
 * or 1, trace of an n x n matrix is n * c. Undefined otherwise (sums come from
 * the relational form).
 */
function scalarOfConstantMatrix(op: DagOp, laOp: string, x: LaData | undefined): number | undefined {
  const c = x?.constant;
  if (c === undefined || x!.stats.type.dataType !== "matrix") return undefined;
  const n = cells(x!.stats);
  if (laOp === "trace") return x!.stats.rows === null ? undefined : x!.stats.rows * c;
  if (op.kind !== "aggregate" || op.direction !== "full" || n === null || n < 1) return undefined;
  if (op.fn === "min" || op.fn === "max" || op.fn === "mean") return c;
  if (op.fn === "prod" && (c === 0 || c === 1)) return c;
  return undefined;
}

/**
 * The constant cell value of a matrix operation on constant operands
 * (transpose, element-wise +, -, *, neg; rev, roll, reshape and diag of a
 * constant matrix; outer of constant vectors).
 */
function matrixConstant(op: string, kids: LaData[]): number | undefined {
  const first = kids[0]?.constant;
  if (op === "rev" || op === "roll" || op === "reshape") return first;
  if (op === "diag") return diagConstant(kids[0]!);
  const outer = outerOperator(op);
  if (outer !== undefined) {
    if (first === undefined || kids[1]!.constant === undefined) return undefined;
    const value = applyNumeric(outer as ElementwiseBinaryOp, first, kids[1]!.constant);
    return typeof value === "boolean" ? (value ? 1 : 0) : value;
  }
  if (kids.some((k) => k.constant === undefined)) return undefined;
  const [a, b] = kids.map((k) => k.constant!) as [number, number];
  switch (op) {
    case "t":
    case "as.matrix":
      return a;
    case "neg":
      return -a;
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    default:
      return undefined;
  }
}

/**
 * diag of a constant matrix: the diagonal of a square one is constant; the
 * diagonal matrix of a column vector has zeros off the diagonal, so it is
 * constant only for 0 (or when it is 1 x 1).
 */
function diagConstant(x: LaData): number | undefined {
  const c = x.constant;
  if (c === undefined || c === 0) return c;
  const { rows, cols } = x.stats;
  if (cols !== null && cols !== 1) return c;
  return rows === 1 && cols === 1 ? c : undefined;
}

const ZERO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The sizes of one operation on its operands' stats, by the stats stage's rules (no program around it). */
export function operationStats(op: DagOp, inputs: NodeStats[], type: DagType): NodeSizeResult {
  const node: DagNode = { id: 0, op, inputs: inputs.map((_, k) => k), type, range: ZERO_RANGE };
  return nodeStats(node, inputs, NO_CONTEXT);
}

function mergeLinearAlgebra(a: LaData, b: LaData): MergeResult<LaData> {
  const stats = mergeStats(a.stats, b.stats);
  const constant = a.constant ?? b.constant;
  const invalid = a.invalid === true && b.invalid === true;
  const data: LaData = { family: "la", stats };
  if (constant !== undefined) data.constant = constant;
  if (invalid) data.invalid = true;
  // Value equality (NaN equals NaN): a merge that keeps the data must not count as a change, or rebuilding never settles.
  const same = (x: LaData) =>
    x.stats.type.dataType === stats.type.dataType &&
    x.stats.type.valueType === stats.type.valueType &&
    sameValue(x.stats.value, stats.value) &&
    sameValue(x.stats.nnz, stats.nnz) &&
    sameValue(x.stats.rows, stats.rows) &&
    sameValue(x.stats.cols, stats.cols) &&
    sameValue(x.constant, constant) &&
    (x.invalid === true) === invalid &&
    (x.stats.nnzExact === true) === (stats.nnzExact === true);
  return { data, changedA: !same(a), changedB: !same(b) };
}

/** The tighter of two estimates of one value: known dims, exact non-zeros first, else the smaller estimate. */
function mergeStats(a: NodeStats, b: NodeStats): NodeStats {
  if (a.type.dataType === "unknown") return b;
  if (b.type.dataType === "unknown") return a;
  if (a.type.dataType === "scalar") {
    // The known value, else the known value type: a class keeps the most it knows, so merging settles.
    if (a.value !== undefined) return a;
    if (b.value !== undefined) return b;
    return a.type.valueType === "unknown" ? b : a;
  }
  const rows = a.rows ?? b.rows;
  const cols = a.cols ?? b.cols;
  let nnz: number | null;
  let exact = false;
  if (a.nnzExact && a.nnz !== null) [nnz, exact] = [a.nnz, true];
  else if (b.nnzExact && b.nnz !== null) [nnz, exact] = [b.nnz, true];
  else if (a.nnz === null) nnz = b.nnz;
  else if (b.nnz === null) nnz = a.nnz;
  else nnz = Math.min(a.nnz, b.nnz);
  const base = sameValue(nnz, a.nnz) && sameValue(rows, a.rows) && sameValue(cols, a.cols) && exact === (a.nnzExact === true) ? a : undefined;
  return base ?? { ...matrixStats(rows, cols, nnz, exact), type: a.type };
}
