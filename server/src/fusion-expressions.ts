/**
 * The DML of a node of a planned DAG (engine/suggest block-fusion.ts),
 * printed back from the nodes' operation labels (`%*%`, `sum`, `X`): infix
 * operators with the parentheses DML's precedence needs, functions as calls.
 * Used where the node has no source text (the block as rewritten) and for
 * the plan view's short labels, where operands that are not variables or
 * constants are abbreviated to `…`.
 */
import type { FusionView, FusionViewNode } from "../../engine/suggest";
import { binaryLevels, Level, prefixOperandLevels } from "../../engine/syntax";
import { shorten } from "./dml-labels";

/** Binding strength of DML's infix operators: SystemDS's precedence, as the parser and printer read it. */
const INFIX: Readonly<Record<string, number>> = binaryLevels;
/**
 * A prefix operation binds just below the level it parses its operand at
 * (`-x^2` is `-(x^2)`, `!a == b` is `!(a == b)`), so it is parenthesized as
 * an operand at that level or above.
 */
const PREFIX: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(prefixOperandLevels).map(([op, level]) => [op, level - 0.5]));
const ATOM: number = Level.Primary;

/** Nested operations printed out before the rest is written `…` (bounds the text of deep or shared DAGs). */
const MAX_DEPTH = 6;

interface Printed {
  text: string;
  strength: number;
}

/** What is known of a node besides its plan: its source text, the variable its value is assigned to. */
export interface NodeTexts {
  /** The DML as written (the whole expression). */
  written?(id: number): string | undefined;
  /** The variable that holds the value, used for it as an operand. */
  named?(id: number): string | undefined;
}

/** Nodes of a view by id. */
export function viewNodes(view: FusionView): Map<number, FusionViewNode> {
  return new Map(view.nodes.map((n) => [n.id, n]));
}

/**
 * The node's DML (its source text where `texts` gives it, operands named by
 * their variables), cut to `max` characters.
 */
export function nodeExpression(nodes: ReadonlyMap<number, FusionViewNode>, id: number, texts: NodeTexts = {}, max = 60): string {
  return shorten(print(nodes, id, texts, 0, MAX_DEPTH).text, max);
}

/** An operand written in at most this many characters stays written out in a short label (`t(X)`, `Y^2`). */
const SHORT_OPERAND = 12;

/**
 * A short label of the node: its operation with variables, constants and
 * short operands written out and longer operands as `…` (`X %*% …`,
 * `sum(…)`, `(…)^2`).
 */
export function nodeLabel(nodes: ReadonlyMap<number, FusionViewNode>, id: number, texts: Pick<NodeTexts, "named"> = {}): string {
  const node = nodes.get(id);
  if (!node) return "…";
  const operand = (child: number): Printed => {
    const full = print(nodes, child, texts, 1, 3);
    return full.text.length <= SHORT_OPERAND && !full.text.includes("…") ? full : { text: "…", strength: full.strength };
  };
  return shorten(combine(node, node.children.map(operand)).text);
}

function print(nodes: ReadonlyMap<number, FusionViewNode>, id: number, texts: NodeTexts, depth: number, maxDepth: number): Printed {
  const node = nodes.get(id);
  if (!node) return { text: "…", strength: ATOM };
  if (node.children.length === 0) return { text: node.label, strength: /^-/.test(node.label) ? PREFIX["-"]! : ATOM };
  const name = depth > 0 ? texts.named?.(id) : undefined;
  if (name !== undefined) return { text: name, strength: ATOM };
  const source = texts.written?.(id);
  if (source !== undefined) return { text: source, strength: sourceStrength(source) };
  if (depth >= maxDepth) return { text: "…", strength: strengthOf(node) };
  return combine(node, node.children.map((child) => print(nodes, child, texts, depth + 1, maxDepth)));
}

/** How strongly the node's operation binds its operands, as DML prints it. */
function strengthOf(node: FusionViewNode): number {
  if (node.children.length === 2 && INFIX[node.label] !== undefined) return INFIX[node.label]!;
  if (node.children.length === 1 && PREFIX[node.label] !== undefined) return PREFIX[node.label]!;
  return ATOM;
}

/** The node's operation over its printed operands. */
function combine(node: FusionViewNode, operands: Printed[]): Printed {
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
  if (node.label === "[]" && operands.length > 0) return { text: `${wrap(operands[0]!, operands[0]!.strength < ATOM)}[${operands.slice(1).map((o) => o.text).join(", ")}]`, strength: ATOM };
  return { text: `${node.label}(${operands.map((o) => o.text).join(", ")})`, strength: ATOM };
}

function wrap(printed: Printed, needed: boolean): string {
  return needed ? `(${printed.text})` : printed.text;
}

/** Source text is an atom when it is a name, or a call or parenthesis that spans it whole; otherwise it is parenthesized as an operand. */
function sourceStrength(text: string): number {
  if (/^[A-Za-z_.][\w.]*$/.test(text)) return ATOM;
  const open = /^[A-Za-z_.][\w.]*\(|^\(/.exec(text);
  return open && closingParenthesis(text, open[0].length - 1) === text.length - 1 ? ATOM : 0;
}

/** `(a + b)` → `a + b`: the parentheses around the whole text, removed. */
export function withoutEnclosingParentheses(text: string): string {
  let inner = text.trim();
  while (inner.startsWith("(") && closingParenthesis(inner, 0) === inner.length - 1) inner = inner.slice(1, -1).trim();
  return inner;
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
