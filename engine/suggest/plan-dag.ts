/**
 * Extracted plans as program DAG nodes (the fusion planner's input form):
 * each chosen e-node becomes a `DagNode` with the DAG operation its LA op
 * stands for (la-ops.ts `dagOpOf`) and the stats of its e-class; equal
 * sub-plans (same operation over the same inputs) become one node. Leaves
 * (`name:X`, `var:X`, `dag:ID`) are resolved by the caller: to nodes of
 * the block's DAG, or to input nodes of a stand-alone plan.
 */
import type { Extraction, ExtractionGraph } from "../extract";
import type { DagNode, DagOp } from "../program";
import { type BlockEGraph, dagOpOf, literalArguments, literalValue } from "../rewrite";
import { scalarStats, type NodeStats } from "../stats/sizes/node-stats";
import type { Range } from "../syntax";

/** An extracted plan: the graph, the choices, and the class to build (default: the graph's root). */
export interface ExtractedPlan {
  graph: ExtractionGraph;
  extraction: Extraction;
}

/** Where a plan node came from (to print it back as DML). */
export interface PlanOrigin {
  plan: ExtractedPlan;
  cls: string;
}

/** Thrown when a plan has an operation the program DAG cannot express (it is then not planned). */
export class NotADagPlan extends Error {}

export class PlanDagBuilder {
  readonly nodes: DagNode[] = [];
  readonly stats: NodeStats[] = [];
  /** For nodes built from a plan: the plan and class (absent for nodes given by the caller). */
  readonly origins: (PlanOrigin | undefined)[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(private readonly block: BlockEGraph) {}

  /** Adds a node of the block's DAG unshared (two `rand()` calls are two values); its inputs must be added already. */
  addOwnNode(node: DagNode, stats: NodeStats): number {
    const id = this.nodes.length;
    this.nodes.push({ ...node, id });
    this.stats.push(stats);
    this.origins.push(undefined);
    return id;
  }

  /** Adds a node as is (a node of the block's DAG, or an input), shared with equal ones. */
  addNode(op: DagOp, inputs: readonly number[], stats: NodeStats, range: Range, origin?: PlanOrigin): number {
    // Dims are part of the key: `matrix(v, rows=, cols=)` of one value differs by its size only.
    const key = `${JSON.stringify(op)}|${inputs.join(",")}|${stats.rows}x${stats.cols}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.nodes.length;
    this.nodes.push({ id, op, inputs: [...inputs], type: stats.type, range });
    this.stats.push(stats);
    this.origins.push(origin);
    this.byKey.set(key, id);
    return id;
  }

  /**
   * The node of a plan's class (its chosen e-node, children first); `leaf`
   * gives the node a leaf op stands for. Every node gets `range`.
   */
  addPlan(plan: ExtractedPlan, leaf: (op: string, stats: NodeStats) => number, range: Range, cls: string = plan.graph.roots[0]!): number {
    const built = new Map<string, number>();
    const visit = (at: string): number => {
      const known = built.get(at);
      if (known !== undefined) return known;
      const chosen = plan.extraction.choices.get(at);
      const node = chosen === undefined ? undefined : plan.graph.nodes.get(chosen);
      if (!node) throw new NotADagPlan(`no choice for class ${at}`);
      const stats = this.classStats(at);
      let id: number;
      if (node.children.length === 0) {
        const value = literalValue(node.op);
        id = value !== undefined ? this.addNode({ kind: "literal", value }, [], stats, range, { plan, cls: at }) : leaf(node.op, stats);
      } else {
        const op = dagOpOf(node.op, node.children.length);
        if (!op) throw new NotADagPlan(`${node.op} is not a DAG operation`);
        const inputs = node.children.map((child) => visit(plan.graph.nodes.get(child)!.eclass));
        // Constants the op carries in its name (outer's operator, a fill's dims) are literal inputs of the DAG operation.
        for (const value of literalArguments(node.op)) inputs.push(this.addNode({ kind: "literal", value }, [], literalStats(value), range));
        id = this.addNode(op, inputs, stats, range, { plan, cls: at });
      }
      built.set(at, id);
      return id;
    };
    return visit(cls);
  }

  private classStats(cls: string): NodeStats {
    const data = this.block.egraph.data(Number(cls));
    if (data.family !== "la") throw new NotADagPlan(`class ${cls} is not a linear-algebra value`);
    return data.stats;
  }
}

function literalStats(value: number | string): NodeStats {
  return scalarStats({ dataType: "scalar", valueType: typeof value === "string" ? "string" : Number.isInteger(value) ? "int" : "double" }, value);
}
