/**
 * Short DML for the operations the plan view and the results view name: an
 * operation as it is written with its non-trivial operands abbreviated
 * (`sum(…)`, `(…)^2`, `X %*% t(…)`), the variable a statement assigns
 * (`G`), and an optimizer plan's node printed back to DML the same way
 * (`Uk %*% (…)`). Variables and constants stay written
 * out; anything longer than a short line is cut with `…`.
 */
import type { DagNode } from "../../engine/program";
import { termToDml } from "../../engine/rewrite";
import type { Term } from "../../engine/egraph";
import type { PlanNode } from "../../engine/suggest";
import { type Position, type Range, positionOffsets } from "../../engine/syntax";

export const MAX_LABEL = 32;

/** `text` cut to `max` characters with `…`, whitespace runs made one space. */
export function shorten(text: string, max = MAX_LABEL): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const within = (inner: Range, outer: Range, at: (p: Position) => number) => at(inner.start) >= at(outer.start) && at(inner.end) <= at(outer.end) && at(inner.end) - at(inner.start) < at(outer.end) - at(outer.start);

/** Leaves show as written; other operands are abbreviated to `…`. */
export const isLeaf = (node: DagNode) => node.op.kind === "input" || node.op.kind === "literal" || node.op.kind === "parameter";

/** An operand written in at most this many characters stays written out (`t(X)`, `Y ^ 2`). */
const SHORT_OPERAND = 12;

/**
 * Labels of a DAG's nodes, by node id: each operation's own text with the
 * text of its longer computed operands replaced by `…` (an operand shared from
 * elsewhere, whose text lies outside the operation, leaves the text whole).
 */
export function dagNodeLabels(text: string, nodes: readonly DagNode[]): string[] {
  const at = positionOffsets(text);
  return nodes.map((node) => {
    if (node.op.kind === "input") return node.op.name;
    if (node.op.kind === "parameter") return `$${node.op.name}`;
    const from = at(node.range.start);
    const to = at(node.range.end);
    const holes = node.inputs
      .map((id) => nodes[id]!)
      .filter((input) => !isLeaf(input) && within(input.range, node.range, at))
      .map((input) => [at(input.range.start), at(input.range.end)] as const)
      .filter(([start, end]) => end - start > SHORT_OPERAND)
      .sort((a, b) => a[0] - b[0]);
    let label = "";
    let cursor = from;
    for (const [start, end] of holes) {
      if (start < cursor) continue; // nested in an operand already cut
      const operand = text.slice(start, end);
      label += `${text.slice(cursor, start)}${enclosed(operand) ? "(…)" : "…"}`;
      cursor = end;
    }
    label += text.slice(cursor, to);
    const flat = label.replace(/\s+/g, " ").trim();
    return shorten(enclosed(flat) ? flat.slice(1, -1) : flat) || node.op.kind;
  });
}

/** `(a + b)`: the text is one parenthesized expression (its first parenthesis closes at its end). */
function enclosed(text: string): boolean {
  if (!text.startsWith("(") || !text.endsWith(")")) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i === text.length - 1;
  }
  return false;
}

/**
 * The variable each node's value is assigned to where it is written:
 * `G = (…) %*% Vk` names the `%*%` node G (indexed assignments and named
 * arguments such as `rows=` are not assignments of the node).
 */
export function assignedNames(text: string, nodes: readonly DagNode[]): (string | undefined)[] {
  const lines = text.split("\n");
  const at = positionOffsets(text);
  // Of the nodes written from one place (`(a - b) %*% c` and its `(a - b)`), the widest is the statement's value.
  const widest = new Map<number, number>();
  for (const node of nodes) widest.set(at(node.range.start), Math.max(widest.get(at(node.range.start)) ?? 0, at(node.range.end)));
  return nodes.map((node) => {
    if (isLeaf(node) || widest.get(at(node.range.start)) !== at(node.range.end)) return undefined;
    const before = (lines[node.range.start.line] ?? "").slice(0, node.range.start.character);
    return /(?:^|;)\s*([A-Za-z][A-Za-z0-9_.]*)\s*=\s*$/.exec(before)?.[1];
  });
}

const HOLE = "dmlLensHole";

/** An optimizer plan node's leaf as DML: `name:X` → X, `lit:2` → 2, a variable → its name. */
function leafLabel(op: string): string | undefined {
  if (op.startsWith("name:") || op.startsWith("var:")) return op.slice(op.indexOf(":") + 1);
  if (op.startsWith("lit:")) return op.slice(4);
  return undefined;
}

/**
 * Labels of an optimizer plan's nodes (engine/suggest's PlanNode, root
 * first): each printed as DML with its leaf operands named and its other
 * operands as `…`; an operator that
 * has no DML form keeps its name.
 */
export function planNodeLabels(plan: readonly PlanNode[]): string[] {
  return plan.map((node) => {
    if (node.children.length === 0) return leafLabel(node.op) ?? node.op.replace(/^[a-z]+:/, "");
    const operand = (child: number, k: number): Term => {
      const c = plan[child]!;
      const leaf = c.children.length === 0 ? leafLabel(c.op) : undefined;
      if (leaf !== undefined) return c.op.startsWith("lit:") ? { op: c.op, children: [] } : { op: `var:${leaf}`, children: [] };
      return { op: `var:${HOLE}${k}`, children: [] };
    };
    const operands = node.children.map(operand);
    try {
      const printed = termToDml({ op: node.op, children: operands }, () => undefined);
      return shorten(printed.replace(new RegExp(`${HOLE}\\d+`, "g"), "…"));
    } catch {
      return node.op;
    }
  });
}
