/**
 * The fusion planner's inputs for one statement block, and their plans as
 * the surfaces show them:
 * - as written: the block's DAG with its sizes and source ranges;
 * - as rewritten: the same DAG with each offered suggestion's extracted
 *   plan in place of its statement's original value (and the shared
 *   temporaries its edit adds before it). A plan's named values are the
 *   block's DAG nodes the names hold before the statement, `var:X` and
 *   `dag:ID` leaves the DAG's own nodes; equal sub-plans are one node, and
 *   what only the replaced originals used is left out.
 */
import { fusionDag, fusionDagOfBlock, planFusion, type FusionDag } from "../fusion";
import type { BlockEGraph } from "../rewrite";
import { termToDml, UnprintableTermError } from "../rewrite";
import type { BlockDag } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { textInRange } from "../syntax";
import type { FusionView } from "./block-fusion";
import { fusionView, type FusionViewSource } from "./fusion-view";
import type { BlockInput } from "./optimize-block";
import { NotADagPlan, PlanDagBuilder, type ExtractedPlan } from "./plan-dag";
import { extractedTerm, NAME_PREFIX } from "./plan-graph";
import { statementRoots, type StatementRoot } from "./statement-roots";

/** The block's DAG as written, planned. */
export function asWrittenFusion(input: BlockInput): FusionView {
  const dag = fusionDagOfBlock(input.dag, input.stats);
  const source = writtenSource(input);
  return fusionView(dag, planFusion(dag), { ...source, range: (node) => dag.nodes[node]!.range });
}

/** One offered suggestion: its statement, its extracted plan, and the temporaries its edit assigns before it. */
export interface Replacement {
  root: StatementRoot;
  plan: ExtractedPlan;
  temporaries: { name: string; plan: ExtractedPlan }[];
}

/** The block with every replacement applied, planned; undefined without replacements or when a plan cannot be a DAG. */
export function rewrittenFusion(input: BlockInput, block: BlockEGraph, replacements: readonly Replacement[]): FusionView | undefined {
  if (replacements.length === 0) return undefined;
  const built = rewrittenDag(input, block, replacements);
  if (!built) return undefined;
  const { dag, builderId, builder, temporaryOf } = built;
  const written = writtenSource(input);
  const original = input.dag.nodes.length;
  const planText = (b: number) => {
    const origin = builder.origins[b]!;
    try {
      return termToDml(extractedTerm(origin.plan.graph, origin.plan.extraction, origin.cls), (op) => leafText(input.sourceText, block, op));
    } catch (error) {
      if (error instanceof UnprintableTermError) return builder.nodes[b]!.op.kind;
      throw error;
    }
  };
  const source: FusionViewSource = {
    text: (node) => {
      const b = builderId[node]!;
      return b < original ? written.text(b) : planText(b);
    },
    inputText: (node) => {
      const b = builderId[node]!;
      return b < original ? written.inputText!(b) : (temporaryOf.get(b) ?? planText(b));
    },
    range: (node) => {
      const b = builderId[node]!;
      return b < original ? input.dag.nodes[b]!.range : undefined;
    },
  };
  return fusionView(dag, planFusion(dag), source);
}

interface RewrittenDag {
  dag: FusionDag;
  /** The builder's node of each DAG node (ids below the block DAG's length are its own nodes). */
  builderId: number[];
  builder: PlanDagBuilder;
  /** Builder node → the temporary it is assigned to. */
  temporaryOf: Map<number, string>;
}

/**
 * The block with every replacement applied, as a block DAG the runtime can
 * run: every variable the block assigns and every effect sink kept (in
 * source order), with the stats of each node; undefined without
 * replacements or when a plan cannot be a DAG.
 */
export function rewrittenBlockDag(input: BlockInput, block: BlockEGraph, replacements: readonly Replacement[]): ExecutableDag | undefined {
  if (replacements.length === 0) return undefined;
  const roots = [...input.dag.outputs.values(), ...input.dag.sinks.map((s) => s.node)];
  const built = rewrittenDag(input, block, replacements, roots);
  if (!built) return undefined;
  const { dag, newIdOf } = built;
  const inputs = new Map<string, number>();
  for (const node of dag.nodes) if (node.op.kind === "input") inputs.set(node.op.name, node.id);
  const outputs = new Map([...input.dag.outputs].map(([name, node]) => [name, newIdOf(node)]));
  const sinks = input.dag.sinks.map((s) => ({ ...s, node: newIdOf(s.node) }));
  return { dag: { nodes: [...dag.nodes], inputs, outputs, sinks, ...(input.dag.liveOut ? { liveOut: input.dag.liveOut } : {}) }, stats: dag.stats };
}

/** A block DAG to run, with the stats of its nodes. */
export interface ExecutableDag {
  dag: BlockDag;
  stats: readonly NodeStats[];
}

function rewrittenDag(input: BlockInput, block: BlockEGraph, replacements: readonly Replacement[], blockRoots: readonly number[] = fusionDagOfBlock(input.dag, input.stats).roots): (RewrittenDag & { newIdOf(node: number): number }) | undefined {
  const builder = new PlanDagBuilder(block);
  // The block's own nodes keep their ids (added unshared: two rand() calls are two values).
  for (const node of input.dag.nodes) builder.addOwnNode(node, input.stats[node.id]!);
  const replaced = new Map<number, number>();
  const temporaries = new Map<string, number>();
  const temporaryOf = new Map<number, string>();
  try {
    for (const { root, plan, temporaries: owned } of replacements) {
      const leaf = (op: string): number => {
        if (op.startsWith(NAME_PREFIX)) {
          const name = op.slice(NAME_PREFIX.length);
          const node = temporaries.get(name) ?? root.scope.nodeOf(name);
          if (node === undefined) throw new NotADagPlan(`no value for ${name}`);
          return node;
        }
        const node = block.leafNodes.get(op);
        if (!node) throw new NotADagPlan(`no DAG node for ${op}`);
        return node.id;
      };
      for (const t of owned) {
        const id = builder.addPlan(t.plan, leaf, root.range);
        temporaries.set(t.name, id);
        temporaryOf.set(id, t.name);
      }
      replaced.set(root.node, builder.addPlan(plan, leaf, root.range));
    }
  } catch (error) {
    if (error instanceof NotADagPlan) return undefined;
    throw error;
  }
  const current = (id: number): number => {
    // A replaced value may itself be read through another replaced one (a chain of statements): follow to the end.
    for (let k = 0; k <= replaced.size && replaced.has(id); k++) id = replaced.get(id)!;
    return id;
  };
  const roots = blockRoots.map(current);
  const order = topologicalOrder(roots, (id) => builder.nodes[id]!.inputs.map(current));
  if (!order) return undefined;
  const newId = new Map(order.map((b, k) => [b, k]));
  const nodes = order.map((b, k) => {
    const node = builder.nodes[b]!;
    return { ...node, id: k, inputs: node.inputs.map((i) => newId.get(current(i))!) };
  });
  const dag = fusionDag(nodes, order.map((b) => builder.stats[b]!), roots.map((r) => newId.get(r)!));
  return { dag, builderId: order, builder, temporaryOf, newIdOf: (node) => newId.get(current(node))! };
}

/** The nodes reachable from `roots`, inputs before consumers; undefined on a cycle. */
function topologicalOrder(roots: readonly number[], inputsOf: (id: number) => number[]): number[] | undefined {
  const state = new Map<number, "open" | "done">();
  const order: number[] = [];
  for (const root of roots) {
    if (state.has(root)) continue;
    const stack: { id: number; next: number; inputs: number[] }[] = [{ id: root, next: 0, inputs: inputsOf(root) }];
    state.set(root, "open");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.inputs.length) {
        const input = top.inputs[top.next++]!;
        const seen = state.get(input);
        if (seen === "open") return undefined;
        if (seen === "done") continue;
        state.set(input, "open");
        stack.push({ id: input, next: 0, inputs: inputsOf(input) });
      } else {
        state.set(top.id, "done");
        order.push(top.id);
        stack.pop();
      }
    }
  }
  return order;
}

/**
 * Nodes of the block's DAG named as written: an input by its variable, else
 * the source text; a value an operator reads by the variable its statement
 * assigns it to (the first such statement), or the variable it is left in.
 */
function writtenSource(input: BlockInput): Required<Pick<FusionViewSource, "text" | "inputText">> {
  const assigned = new Map<number, string>();
  for (const root of statementRoots(input.block, input.dag)) if (!assigned.has(root.node)) assigned.set(root.node, root.target);
  for (const [name, node] of input.dag.outputs) if (!assigned.has(node)) assigned.set(node, name);
  const text = (node: number) => {
    const n = input.dag.nodes[node]!;
    if (n.op.kind === "input") return n.op.name;
    if (n.op.kind === "literal") return String(n.op.value);
    return textInRange(input.sourceText, n.range).replace(/\s+/g, " ").trim();
  };
  return { text, inputText: (node) => (input.dag.nodes[node]!.op.kind === "input" ? text(node) : (assigned.get(node) ?? text(node))) };
}

/** A plan leaf as DML: a named value by its name, a DAG leaf as written (in parentheses). */
export function leafText(sourceText: string, block: BlockEGraph, op: string): string | undefined {
  if (op.startsWith(NAME_PREFIX)) return op.slice(NAME_PREFIX.length);
  const node = block.leafNodes.get(op);
  return node ? `(${textInRange(sourceText, node.range)})` : undefined;
}
