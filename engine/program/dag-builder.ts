/**
 * The mutable state of building one DAG: the node list, the hash-consing
 * table (key = operation + input ids + argument names), the variables'
 * current nodes, and the block's inputs, outputs, sinks and diagnostics.
 *
 * A node is added only after its inputs, so ids are a topological order.
 * Volatile nodes (dag-purity.ts) always get a fresh node.
 */
import type { Diagnostic, Range } from "../syntax";
import type { DagContext } from "./dag-context";
import { UNKNOWN_TYPE } from "./dag-context";
import { isVolatile } from "./dag-purity";
import { dagNode } from "./dag-node";
import type { BlockDag, DagNode, DagOp, DagSink, DagType } from "./dag-types";
import type { TypeResult } from "./dag-typing";

export class DagBuilder {
  readonly nodes: DagNode[] = [];
  readonly inputs = new Map<string, number>();
  readonly outputs = new Map<string, number>();
  readonly sinks: DagSink[] = [];
  readonly diagnostics: Diagnostic[] = [];
  /** The node holding each variable's current value within the block. */
  private readonly variables = new Map<string, number>();
  private readonly table = new Map<string, number>();

  constructor(readonly context: DagContext) {}

  /**
   * The node for `op(inputs)`: an existing equal node, or a new one. The
   * type and its error come with each occurrence, so a type error is
   * reported at every place it is written, even when the node is shared.
   */
  add(op: DagOp, inputs: number[], typed: TypeResult | DagType, range: Range, argNames?: (string | undefined)[]): number {
    const { type, error } = "type" in typed ? typed : { type: typed, error: undefined };
    if (error) this.diagnostics.push({ severity: "error", message: error.message, range, code: error.code });
    const names = argNames && argNames.some((n) => n !== undefined) ? argNames : undefined;
    const volatile = isVolatile(op, names, inputs.map((id) => this.node(id)));
    const key = volatile ? undefined : nodeKey(op, inputs, names, type);
    if (key !== undefined) {
      const existing = this.table.get(key);
      if (existing !== undefined) return existing;
    }
    const id = this.nodes.length;
    const node: DagNode = { id, op, inputs, type, range };
    if (names) node.argNames = names;
    this.nodes.push(node);
    if (key !== undefined) this.table.set(key, id);
    return id;
  }

  typeOf(id: number): DagType {
    return this.node(id).type;
  }

  /** The node `id`, which `add` returned. */
  node(id: number): DagNode {
    return dagNode(this, id);
  }

  /** The current value of `name`: its latest assignment in the block, else its `input` node (live-in). */
  read(name: string, range: Range): number {
    const current = this.variables.get(name);
    if (current !== undefined) return current;
    let input = this.inputs.get(name);
    if (input === undefined) {
      input = this.add({ kind: "input", name }, [], this.context.variableTypes?.get(name) ?? UNKNOWN_TYPE, range);
      this.inputs.set(name, input);
    }
    return input;
  }

  assign(name: string, id: number): void {
    this.variables.set(name, id);
    this.outputs.set(name, id);
  }

  sink(id: number, range: Range, discarded = false): void {
    this.sinks.push(discarded ? { node: id, range, discarded } : { node: id, range });
  }

  finish(): BlockDag {
    return { nodes: this.nodes, inputs: this.inputs, outputs: this.outputs, sinks: this.sinks, diagnostics: this.diagnostics };
  }
}

/** Equal keys mean equal values: op and its data, input ids, argument names, and for literals their type (1 vs 1.0). */
function nodeKey(op: DagOp, inputs: readonly number[], argNames: readonly (string | undefined)[] | undefined, type: DagType): string {
  const parts: string[] = [op.kind];
  switch (op.kind) {
    case "literal":
      parts.push(typeof op.value, String(op.value), type.valueType);
      break;
    case "input":
    case "parameter":
      parts.push(op.name);
      break;
    case "binary":
    case "unary":
      parts.push(op.op);
      break;
    case "aggregate":
      parts.push(op.fn, op.direction);
      break;
    case "cast":
      parts.push(op.to);
      break;
    case "call":
      parts.push(op.name, String(op.user), String(op.output));
      break;
    default:
      break;
  }
  parts.push(inputs.join(","));
  if (argNames) parts.push(argNames.map((n) => n ?? "").join(","));
  return JSON.stringify(parts);
}
