/**
 * Fused operators as identities (SystemDS's wsloss and mmchain, and the
 * codegen templates they stand for): extraction weighs fusion together with
 * algebra. A fused op is an LA e-node with its own size and cost rule; it
 * prints as the DML it fuses, which SystemDS executes as one operator.
 */
import { matrixBytes, type MatrixStats, type TimeInputs } from "../cost";
import type { NodeStats } from "../stats/sizes/node-stats";
import { matrixStats, scalarStats } from "../stats/sizes/node-stats";
import { rule, type Match, type RuleSpec } from "./rule-spec";

export const WSLOSS = "fused:wsloss";
export const WSLOSS_PLUS = "fused:wsloss-plus";
export const MMCHAIN = "fused:mmchain";

export interface FusedOp {
  /** The DML the operator fuses, with $1, $2, ... for its operands. */
  template: string;
  stats(inputs: readonly NodeStats[]): NodeStats | undefined;
  /** The work on known operand sizes (the cost model turns it into time). */
  work(inputs: readonly MatrixStats[]): TimeInputs;
}

const SCALAR = { dataType: "scalar", valueType: "double" } as const;

/** sum((X ± U V')^2) over every cell of X, without the m x n intermediates. */
function wslossWork([x, u, v]: readonly MatrixStats[]): TimeInputs {
  const k = u!.cols;
  const flops = x!.rows * x!.cols * (2 * k + 3);
  const bytesRead = matrixBytes(x!) + matrixBytes(u!) + matrixBytes(v!);
  return { flops, bytesRead, diskBytesRead: 0, bytesWritten: 8, sparseKernel: false };
}

export const FUSED_OPS: ReadonlyMap<string, FusedOp> = new Map<string, FusedOp>([
  [
    WSLOSS,
    {
      // sum((X - U %*% t(V))^2) in one pass over X: no m x n intermediate.
      template: "sum(($1 - $2 %*% t($3))^2)",
      stats: () => scalarStats(SCALAR),
      work: wslossWork,
    },
  ],
  [
    WSLOSS_PLUS,
    {
      template: "sum(($1 + $2 %*% t($3))^2)",
      stats: () => scalarStats(SCALAR),
      work: wslossWork,
    },
  ],
  [
    MMCHAIN,
    {
      // t(X) %*% (w * (X %*% v)) with one pass over X per row block.
      template: "t($1) %*% ($3 * ($1 %*% $2))",
      stats: ([x]) => (x && x.cols !== null ? matrixStats(x.cols, 1, x.cols) : undefined),
      work: ([x, v, w]) => {
        const flops = 4 * x!.nnz + 2 * x!.rows;
        const bytesRead = matrixBytes(x!) + matrixBytes(v!) + matrixBytes(w!);
        return { flops, bytesRead, diskBytesRead: 0, bytesWritten: x!.cols * 8, sparseKernel: x!.nnz < x!.rows * x!.cols * 0.4 };
      },
    },
  ],
]);

export function fusedOp(op: string): FusedOp | undefined {
  return op.startsWith("fused:") ? FUSED_OPS.get(op) : undefined;
}

const columnVector = (v: string) => (m: Match) => m.data(v).family === "la" && m.la(v).stats.cols === 1;

export const FUSED_RULES: readonly RuleSpec[] = [
  rule("fuse-wsloss", "(sum (^ (- ?x (mm ?u (t ?v))) lit:2))", `(${WSLOSS} ?x ?u ?v)`),
  rule("fuse-wsloss-plus", "(sum (^ (+ ?x (mm ?u (t ?v))) lit:2))", `(${WSLOSS_PLUS} ?x ?u ?v)`),
  rule("fuse-mmchain", "(mm (t ?x) (* ?w (mm ?x ?v)))", `(${MMCHAIN} ?x ?v ?w)`, (m) => columnVector("v")(m) && columnVector("w")(m)),
];

