/**
 * The reference evaluation of a fused operator: its roots' values computed
 * the way its template's skeleton computes them (cell-skeleton.ts,
 * row-skeleton.ts, outer-skeleton.ts), from the values of its
 * materialized inputs only. Before that, the operator is checked against
 * the contract of engine/fusion/types.ts: roots covered, every covered
 * node's inputs covered or materialized inputs, the binding a partition of
 * the inputs. A violation, or a covered node the skeleton cannot compute,
 * throws a FusedOperatorError naming the operator and the node.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import { evaluateCellOperator, evaluateMultiAggregate } from "./cell-skeleton";
import { operatorFailure } from "./fused-error";
import type { OperatorContext } from "./operator-context";
import { operatorShapes } from "./operator-shapes";
import { evaluateOuterOperator } from "./outer-skeleton";
import { evaluateRowOperator } from "./row-skeleton";

/** The values of `op.roots`, by root node id; `valueOf` is asked only for `op.inputs`. */
export function evaluateFusedOperator(dag: FusionDag, op: FusedOperator, valueOf: (node: number) => Value): Map<number, Value> {
  checkOperator(dag, op);
  const inputs = new Map<number, Value>(op.inputs.map((node) => [node, valueOf(node)]));
  const ctx: OperatorContext = { dag, op, inputs, shapes: operatorShapes(dag, op, inputs) };
  switch (op.template) {
    case "cell":
      return evaluateCellOperator(ctx);
    case "magg":
      return evaluateMultiAggregate(ctx);
    case "row":
      return evaluateRowOperator(ctx);
    case "outer":
      return evaluateOuterOperator(ctx);
  }
}

/** Throws when the operator breaks the contract of a fused operator. */
export function checkOperator(dag: FusionDag, op: FusedOperator): void {
  const covered = new Set(op.covered);
  const inputs = new Set(op.inputs);
  for (const node of [...covered, ...inputs]) if (!(node >= 0 && node < dag.nodes.length)) operatorFailure(dag, op, undefined, `node ${node} is not in the DAG`);
  for (const root of op.roots) if (!covered.has(root)) operatorFailure(dag, op, root, "the root is not covered");
  for (const node of inputs) if (covered.has(node)) operatorFailure(dag, op, node, "node is both covered and a materialized input");
  for (const node of covered) {
    for (const input of dag.nodes[node]!.inputs) {
      if (!covered.has(input) && !inputs.has(input)) operatorFailure(dag, op, node, `its input ${input} is neither covered nor an input of the operator`);
    }
  }
  const { mainInput, sideInputs, scalarInputs } = op.binding;
  const bound = [...(mainInput === null ? [] : [mainInput]), ...sideInputs, ...scalarInputs];
  const missing = op.inputs.filter((i) => !bound.includes(i));
  const extra = bound.filter((i) => !inputs.has(i));
  if (missing.length > 0 || extra.length > 0 || new Set(bound).size !== bound.length) {
    operatorFailure(dag, op, undefined, `the binding (main ${mainInput}, side [${sideInputs.join(", ")}], scalars [${scalarInputs.join(", ")}]) is not a partition of the inputs [${op.inputs.join(", ")}]`);
  }
}
