/**
 * A block with a fusion plan made by hand (a Cell operator for
 * `sum(X * Y * Z)`, a Row operator for `t(X) %*% (v * (X %*% u))`) over the
 * block's real DAG, for the hover and plan view tests: their texts are exact
 * whatever the planner picks.
 */
import { strict as assert } from "node:assert";
import type { BlockDagInfo } from "../../engine/program/dag-program";
import { analyzeText } from "../../engine/analysis/program-analysis";
import type { BlockFusion, FusionOperatorView, FusionView } from "../../engine/suggest/block-fusion";
import { dmlOperationLabel } from "../../engine/suggest/fusion-view";
import type { BlockOptimization } from "../../engine/suggest";
import type { DocumentOptimizations } from "../../server/src/block-optimizations";

export const text = `X = rand(rows=2000, cols=1000, sparsity=0.1)
Y = rand(rows=2000, cols=1000)
Z = rand(rows=2000, cols=1000)
u = rand(rows=1000, cols=1)
v = rand(rows=2000, cols=1)
s = sum(X * Y * Z)
w = t(X) %*% (v * (X %*% u))
print(s + sum(w))
`;
export const lines = text.split("\n");
export const analysis = analyzeText(text);
export const info = analysis.dags.blocks[0]!;

/** The block's node with this operation label written at `line` (0-based), the `k`-th from the left. */
function nodeOf(line: number, label: string, k = 0): number {
  const found = info.dag.nodes.filter((n) => n.range.start.line === line && dmlOperationLabel(n) === label).sort((a, b) => a.range.start.character - b.range.start.character || b.range.end.character - a.range.end.character);
  assert.ok(found[k], `no ${label} on line ${line + 1}`);
  return found[k]!.id;
}

const sum = nodeOf(5, "sum");
const xyz = nodeOf(5, "*", 0);
const xy = nodeOf(5, "*", 1);
const tX = nodeOf(6, "t");
const xu = nodeOf(6, "%*%", 1);
const vxu = nodeOf(6, "*");
const w = nodeOf(6, "%*%", 0);

export const cell: FusionOperatorView = {
  template: "cell",
  variant: "full-agg",
  sparseSafe: true,
  text: "sum(X * Y * Z)",
  roots: [sum],
  covered: [xy, xyz, sum],
  inputs: ["X", "Y", "Z"],
  mainInput: "X",
  seconds: 0.0041,
  unfusedSeconds: 0.0098,
};
export const row: FusionOperatorView = {
  template: "row",
  variant: "col-agg-t",
  sparseSafe: false,
  text: "t(X) %*% (v * (X %*% u))",
  roots: [w],
  covered: [tX, xu, vxu, w].sort((a, b) => a - b),
  inputs: ["X", "v", "u"],
  mainInput: "X",
  seconds: 0.0012,
  unfusedSeconds: 0.0025,
};

/** The block's DAG as a planned view (every node, written where the block writes it) with the given operators. */
export function viewOf(operators: FusionOperatorView[], withRanges = true): FusionView {
  const sizes = analysis.sizes.blocks.get(info.block)!.nodes;
  return {
    nodes: info.dag.nodes.map((n) => {
      const s = sizes[n.id]!;
      const k = operators.findIndex((op) => op.covered.includes(n.id));
      return {
        id: n.id,
        label: dmlOperationLabel(n),
        children: [...n.inputs],
        rows: s.type.dataType === "matrix" ? s.rows : null,
        cols: s.type.dataType === "matrix" ? s.cols : null,
        nnz: s.type.dataType === "matrix" ? s.nnz : null,
        ...(withRanges ? { range: n.range } : {}),
        ...(k >= 0 ? { operator: k } : {}),
      };
    }),
    operators: withRanges ? operators.map((op) => ({ ...op, range: info.dag.nodes[op.roots[0]!]!.range })) : operators,
    cost: { fused: 0.0052, unfused: 0.0123 },
    search: { partitions: 2, interestingPoints: 3, maxInterestingPoints: 2, plansEvaluated: 5, plansWithoutPruning: 8, cacheHits: 0, approximated: 0 },
  };
}

export function optimizationsWith(fusion: BlockFusion): DocumentOptimizations {
  const result: BlockOptimization = { suggestions: [], fusion, dropped: [], stopReason: "saturated", work: { iterations: 0, applied: 0 }, nodes: 0, classes: 0, ms: 0 };
  return new Map<BlockDagInfo, BlockOptimization>([[info, result]]);
}

