/**
 * A fusion plan in the form the surfaces show (block-fusion.ts): the planned
 * DAG's computed nodes labelled in DML notation, and each fused operator
 * with the DML it computes, the DML of the values it reads, and its
 * estimated seconds fused and with its covered nodes run on their own.
 */
import { nodeSeconds, reachableAscending, type FusionDag, type FusionPlan } from "../fusion";
import { shiftRange, type Range } from "../syntax";
import { aggregateBuiltinName, type DagNode } from "../program";
import type { FusionOperatorView, FusionView, FusionViewNode } from "./block-fusion";

/** How the view names the planned DAG's nodes. */
export interface FusionViewSource {
  /** The DML a node computes (a variable's name for a leaf). */
  text(node: number): string;
  /** The DML of a value an operator reads (a variable's name where it has one); `text` when absent. */
  inputText?(node: number): string;
  /** Where the node is written (as-written DAG only). */
  range?(node: number): Range | undefined;
}

export function fusionView(dag: FusionDag, plan: FusionPlan, source: FusionViewSource): FusionView {
  const operatorOf = new Map<number, number>();
  plan.operators.forEach((op, k) => {
    for (const node of op.covered) operatorOf.set(node, k);
  });
  const nodes = reachableAscending(dag).map((id): FusionViewNode => {
    const node = dag.nodes[id]!;
    const stats = dag.stats[id];
    const matrix = stats?.type.dataType === "matrix";
    const view: FusionViewNode = {
      id,
      label: dmlOperationLabel(node),
      children: [...node.inputs],
      rows: matrix ? stats.rows : null,
      cols: matrix ? stats.cols : null,
      nnz: matrix && stats.nnz !== null ? Math.round(stats.nnz) : null,
    };
    const range = source.range?.(id);
    if (range) view.range = range;
    const operator = operatorOf.get(id);
    if (operator !== undefined) view.operator = operator;
    return view;
  });
  const inputText = (node: number) => source.inputText?.(node) ?? source.text(node);
  const operators = plan.operators.map((op): FusionOperatorView => {
    const main = op.binding.mainInput;
    const inputs = main === null ? op.inputs : [main, ...op.inputs.filter((i) => i !== main)];
    const view: FusionOperatorView = {
      template: op.template,
      variant: op.binding.variant,
      sparseSafe: op.binding.sparseSafe,
      text: op.roots.map((root) => source.text(root)).join("; "),
      roots: [...op.roots],
      covered: [...op.covered],
      inputs: [...new Set(inputs)].map(inputText),
      mainInput: main === null ? null : inputText(main),
      seconds: op.seconds,
      unfusedSeconds: op.covered.reduce((sum, node) => sum + nodeSeconds(dag, node), 0),
    };
    const range = source.range?.(op.roots[0]!);
    if (range) view.range = range;
    return view;
  });
  return { nodes, operators, cost: { ...plan.cost }, search: { ...plan.search } };
}

/** The view of a block that was not planned (its optimization was stopped): no nodes, no operators. */
export function emptyFusionView(): FusionView {
  return {
    nodes: [],
    operators: [],
    cost: { fused: 0, unfused: 0 },
    search: { partitions: 0, interestingPoints: 0, maxInterestingPoints: 0, plansEvaluated: 0, plansWithoutPruning: 0, cacheHits: 0, approximated: 0 },
  };
}

/** The view with its source ranges moved by `lines` (a cached block's plan after lines were inserted or removed above it). */
export function shiftFusionView(view: FusionView, lines: number): FusionView {
  const shift = (r: Range) => shiftRange(r, lines);
  return {
    ...view,
    nodes: view.nodes.map((n) => (n.range ? { ...n, range: shift(n.range) } : n)),
    operators: view.operators.map((op) => (op.range ? { ...op, range: shift(op.range) } : op)),
  };
}

/** The operation of a DAG node in DML notation: `%*%`, `+`, `sum`, `rowSums`, `t`, a variable's name, a literal. */
export function dmlOperationLabel(node: DagNode): string {
  const op = node.op;
  switch (op.kind) {
    case "literal":
      return typeof op.value === "string" ? JSON.stringify(op.value) : String(op.value);
    case "input":
      return op.name;
    case "parameter":
      return `$${op.name}`;
    case "matmul":
      return "%*%";
    case "transpose":
      return "t";
    case "binary":
      return op.op;
    case "unary":
      return op.op;
    case "aggregate":
      return aggregateBuiltinName(op.fn, op.direction) ?? `${op.fn}:${op.direction}`;
    case "index":
      return "[]";
    case "leftIndex":
      return "[]=";
    case "cast":
      return `as.${op.to === "int" ? "integer" : op.to === "boolean" ? "logical" : op.to}`;
    case "call":
      return op.name;
    default:
      return op.kind;
  }
}
