/**
 * The unfused value of every node of a fusion DAG: each node computed on
 * its own by the interpreter's DAG evaluator (the runtime's operations and
 * kernels), the way the block runs without fusion. The DAG's leaves come
 * from the caller where it has them (an `input` node's value from a
 * variable map, or any leaf, e.g. a `rand` or `read`, by node id); other
 * leaves (literals, `rand` with a seed, `seq`, `matrix`) are computed.
 * Values are computed on demand and kept, so every node can be read.
 */
import type { BlockDag, DagNode } from "../../program";
import type { FusionDag } from "../../fusion";
import type { Range } from "../../syntax";
import { DEFAULT_MEMORY_BUDGET, DmlRuntimeError, DagEvaluator, MemoryMeter, type Value } from "../interpreter";

export interface UnfusedOptions {
  /** Values of `input` nodes by variable name. */
  variables?: ReadonlyMap<string, Value>;
  /** Values of leaves by node id (any node kind: they replace the node's own computation). */
  leaves?: ReadonlyMap<number, Value>;
  /** The text the DAG's ranges point into (for runtime error messages). */
  sourceText?: string;
  memoryBudget?: number;
}

/** Computes node values of one DAG without fusion. */
export class UnfusedEvaluator {
  private readonly evaluator: DagEvaluator;

  constructor(
    readonly dag: FusionDag,
    options: UnfusedOptions = {},
  ) {
    const env = new Map<string, Value>(options.variables ?? []);
    const leaves = options.leaves ?? new Map<number, Value>();
    // A given leaf becomes an `input` node of a reserved name bound to its value.
    // Literals stay literals: indexing tells an omitted bound by its `:` literal.
    const nodes: DagNode[] = dag.nodes.map((node) => {
      const given = leaves.get(node.id);
      if (given === undefined || node.op.kind === "literal") return node;
      const name = `.leaf${node.id}`;
      env.set(name, given);
      return { ...node, op: { kind: "input", name }, inputs: [] };
    });
    // Every node is an output, so the evaluator keeps every value it computes.
    const block: BlockDag = { nodes, inputs: new Map(), outputs: new Map(nodes.map((n) => [`.node${n.id}`, n.id])), sinks: [] };
    const budget = options.memoryBudget ?? DEFAULT_MEMORY_BUDGET;
    this.evaluator = new DagEvaluator(block, {
      env,
      params: new Map(),
      sourceText: options.sourceText ?? "",
      memoryBudget: budget,
      memory: new MemoryMeter(budget),
      print: () => {},
      callUser: (name: string, _args: Value[], _names: (string | undefined)[], range: Range) => {
        throw new DmlRuntimeError(`the unfused evaluator cannot call user function ${name}`, range);
      },
    });
  }

  /** The node's value (computed with its inputs on first use). */
  value(node: number): Value {
    return this.evaluator.node(node);
  }
}
