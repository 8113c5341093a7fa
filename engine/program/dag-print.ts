/**
 * A readable text form of a block's DAG, one line per node in id order,
 * then one line per output and per sink:
 *
 *   %0 = input[X] : matrix<double>  @1:5
 *   %1 = literal[2] : scalar<int>  @1:9
 *   %2 = binary[*](%0, %1) : matrix<double>  @1:5
 *   %3 = aggregate[sum,full](%2) : scalar<double>  [loop-constant]  @2:5
 *   %4 = call[print](%3) : unknown  @3:1
 *   Y := %2  (live-out)
 *   sink %4  @3:1
 *
 * A node reads `kind[detail](inputs)`: the detail is the literal value, the
 * variable or `$` parameter name, the operator, `fn,direction` of an
 * aggregate, the target of a cast, or a call's name (`user f` for user
 * functions, `#k` for result k > 0 of a multi-return call). Named arguments
 * print as `name=%id`. Then the type (`dataType<valueType>`, or `unknown`),
 * the text `sizes(id)` gives if any, `[loop-constant]` on non-literal nodes
 * so marked (`[constant in k inner loops]` when only the k innermost of the
 * enclosing loops leave it unchanged), and the 1-based line:column where
 * the operation is written.
 */
import type { Range } from "../syntax";
import type { BlockDag, DagNode, DagType } from "./dag-types";

export function printDag(dag: BlockDag, sizes?: (id: number) => string | undefined): string {
  const lines = dag.nodes.map((node) => printNode(node, sizes?.(node.id)));
  const liveOut = new Set(dag.liveOut ?? []);
  for (const [name, id] of dag.outputs) lines.push(`${name} := %${id}${liveOut.has(name) ? "  (live-out)" : ""}`);
  for (const sink of dag.sinks) lines.push(`sink %${sink.node}  ${position(sink.range)}`);
  return lines.join("\n");
}

/** The operation of a node as `explain` prints it: `matmul`, `binary[-]`, `aggregate[sum,full]`, `input[X]`. */
export function dagOpLabel(node: DagNode): string {
  return `${node.op.kind}${detail(node)}`;
}

function printNode(node: DagNode, size: string | undefined): string {
  const args = node.inputs.map((id, i) => {
    const name = node.argNames?.[i];
    return name === undefined ? `%${id}` : `${name}=%${id}`;
  });
  let text = `%${node.id} = ${node.op.kind}${detail(node)}`;
  if (args.length > 0) text += `(${args.join(", ")})`;
  text += ` : ${printType(node.type)}`;
  if (size) text += `  ${size}`;
  if (node.op.kind !== "literal") text += loopMark(node);
  return `${text}  ${position(node.range)}`;
}

function loopMark(node: DagNode): string {
  if (node.loopConstant) return "  [loop-constant]";
  const invariant = node.invariantLoops ?? 0;
  return invariant > 0 ? `  [constant in ${invariant} inner loop${invariant > 1 ? "s" : ""}]` : "";
}

function detail(node: DagNode): string {
  const op = node.op;
  switch (op.kind) {
    case "literal":
      return `[${printLiteral(op.value, node.type)}]`;
    case "input":
      return `[${op.name}]`;
    case "parameter":
      return `[$${op.name}]`;
    case "binary":
    case "unary":
      return `[${op.op}]`;
    case "aggregate":
      return `[${op.fn},${op.direction}]`;
    case "cast":
      return `[${op.to}]`;
    case "call":
      return `[${op.user ? "user " : ""}${op.name}${op.output > 0 ? `#${op.output}` : ""}]`;
    default:
      return "";
  }
}

function printLiteral(value: number | string | boolean, type: DagType): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value === Number.POSITIVE_INFINITY) return "Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  const text = String(value);
  return type.valueType === "double" && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

export function printType(type: DagType): string {
  if (type.dataType === "unknown" && type.valueType === "unknown") return "unknown";
  return `${type.dataType}<${type.valueType}>`;
}

function position(range: Range): string {
  return `@${range.start.line + 1}:${range.start.character + 1}`;
}
