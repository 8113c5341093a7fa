/**
 * Test data of the generated Cell and MAgg operator tests: dense and CSR
 * matrices (one with empty rows and columns), NaN and infinite cells,
 * vectors of both orientations, a 1 x 1 matrix, a scalar, a matrix
 * without rows; and a block's aggregate turned into another function.
 */
import { UnfusedEvaluator } from "../../engine/runtime/fused";
import type { AggregateFunction } from "../../engine/program/dag-types";
import { fusionDag, type FusionDag } from "../../engine/fusion/fusion-dag";
import { nodeOf, type CheckedBlock } from "../fusion/fused-check";

export const DATA = `
X = rand(rows=60, cols=40, min=-1, max=1, sparsity=0.05, seed=11)
S = rand(rows=60, cols=40, min=-2, max=2, sparsity=0.2, seed=14)
E = X * (rand(rows=60, cols=1, min=0, max=1, seed=15) > 0.5) * (rand(rows=1, cols=40, min=0, max=1, seed=16) > 0.5)
D = rand(rows=60, cols=40, min=-1, max=1, seed=12)
Y = rand(rows=60, cols=40, min=0, max=2, seed=13)
N = (D / (D > 0.3)) * (D > -0.5)
I = 1 / (D > 0.9)
Q = rand(rows=40, cols=40, min=-1, max=1, seed=17)
P = rand(rows=50, cols=50, min=-1, max=1, sparsity=0.05, seed=24)
r = rand(rows=1, cols=40, min=-1, max=1, seed=20)
c = rand(rows=60, cols=1, min=0, max=1, seed=18)
v = rand(rows=40, cols=1, min=-1, max=1, seed=19)
x = rand(rows=60, cols=1, min=-1, max=1, seed=21)
y = rand(rows=60, cols=1, min=-1, max=1, seed=22)
o = rand(rows=1, cols=1, min=1, max=2, seed=23)
Z0 = matrix(0, rows=0, cols=40)
lambda = 0.25
`;

/** The block with the aggregate at `text` turned into `fn` (e.g. sumSq, which DML has no builtin for), its unfused values recomputed. */
export function withAggregate(checked: CheckedBlock, text: string, fn: AggregateFunction): CheckedBlock {
  const node = nodeOf(checked.block, text);
  const dag = checked.block.dag;
  const nodes = dag.nodes.map((n) => (n.id === node && n.op.kind === "aggregate" ? { ...n, op: { ...n.op, fn } } : n));
  const changed: FusionDag = fusionDag(nodes, dag.stats, dag.roots);
  const leaves = new Map(dag.nodes.filter((n) => n.op.kind === "input").map((n) => [n.id, checked.unfused.value(n.id)]));
  return { ...checked, block: { ...checked.block, dag: changed }, unfused: new UnfusedEvaluator(changed, { leaves }) };
}
