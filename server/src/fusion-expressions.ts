/**
 * The DML of a node of a planned DAG (engine/suggest block-fusion.ts),
 * printed back from the nodes' operation labels (`%*%`, `sum`, `X`): infix
 * operators with the parentheses DML's precedence needs, functions as calls.
 * Used where the node has no source text (the block as rewritten) and for
 * the plan view's short labels, where operands that are not variables or
 * constants are abbreviated to `…`.
 */
import type { FusionView, FusionViewNode } from "../../engine/suggest/block-fusion";
import { shorten } from "./dml-labels";

/** Binding strength of DML's infix operators (R's order: `^` binds tightest, `|` loosest). */
const INFIX: Record<string, number> = {
  "|": 1,
  "&": 2,
  "<": 4, "<=": 4, ">": 4, ">=": 4, "==": 4, "!=": 4,
  "+": 5, "-": 5,
  "*": 6, "/": 6,
  "%*%": 7, "%%": 7, "%/%": 7,
  "^": 9,
};
const PREFIX: Record<string, number> = { "!": 3, "-": 8 };
const ATOM = 10;

/** Nested operations printed out before the rest is written `…` (bounds the text of deep or shared DAGs). */
const MAX_DEPTH = 6;

interface Printed {
  text: string;
  strength: number;
}

/** Nodes of a view by id. */
export function viewNodes(view: FusionView): Map<number, FusionViewNode> {
  return new Map(view.nodes.map((n) => [n.id, n]));
}

/**
 * The node's DML, `written(id)` first where it gives the source text, cut
 * to `max` characters.
 */
export function nodeExpression(nodes: ReadonlyMap<number, FusionViewNode>, id: number, written: (id: number) => string | undefined = () => undefined, max = 60): string {
  return shorten(print(nodes, id, written, 0, MAX_DEPTH).text, max);
}

/**
 * A short label of the node: its operation with variables and constants
 * named and other operands as `…` (`X %*% …`, `sum(…)`, `(…)^2`).
 */
export function nodeLabel(nodes: ReadonlyMap<number, FusionViewNode>, id: number): string {
  return shorten(print(nodes, id, () => undefined, 0, 1).text);
}

function print(nodes: ReadonlyMap<number, FusionViewNode>, id: number, written: (id: number) => string | undefined, depth: number, maxDepth: number): Printed {
  const node = nodes.get(id);
  if (!node) return { text: "…", strength: ATOM };
  if (node.children.length === 0) return { text: node.label, strength: /^-/.test(node.label) ? PREFIX["-"]! : ATOM };
  const source = written(id);
  if (source !== undefined) return { text: source, strength: sourceStrength(source) };
  if (depth >= maxDepth) return { text: "…", strength: ATOM };
  const operands = node.children.map((child) => print(nodes, child, written, depth + 1, maxDepth));
  const infix = INFIX[node.label];
  if (infix !== undefined && operands.length === 2) {
    const [left, right] = operands as [Printed, Printed];
    // `^` groups to the right, the others to the left.
    const leftNeeds = node.label === "^" ? left.strength <= infix : left.strength < infix;
    const rightNeeds = node.label === "^" ? right.strength < infix : right.strength <= infix;
    const spaced = node.label === "^" ? "^" : ` ${node.label} `;
    return { text: `${wrap(left, leftNeeds)}${spaced}${wrap(right, rightNeeds)}`, strength: infix };
  }
  const prefix = PREFIX[node.label];
  if (prefix !== undefined && operands.length === 1) return { text: `${node.label}${wrap(operands[0]!, operands[0]!.strength < prefix)}`, strength: prefix };
  if (node.label === "[]") return { text: `${wrap(operands[0]!, operands[0]!.strength < ATOM)}[${operands.slice(1).map((o) => o.text).join(", ")}]`, strength: ATOM };
  return { text: `${node.label}(${operands.map((o) => o.text).join(", ")})`, strength: ATOM };
}

function wrap(printed: Printed, needed: boolean): string {
  return needed && printed.text !== "…" ? `(${printed.text})` : printed.text;
}

/** Source text is an atom when it is a name, or a call or parenthesis that spans it whole; otherwise it is parenthesized as an operand. */
function sourceStrength(text: string): number {
  if (/^[A-Za-z_.][\w.]*$/.test(text)) return ATOM;
  const open = /^[A-Za-z_.][\w.]*\(|^\(/.exec(text);
  return open && closingParenthesis(text, open[0].length - 1) === text.length - 1 ? ATOM : 0;
}

/** Index of the parenthesis that closes the one at `at`, or -1. */
function closingParenthesis(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}
