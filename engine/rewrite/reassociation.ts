/**
 * Which rules only re-associate or commute (a derivation folds their steps
 * into one line): both sides are trees of one and the same operator over
 * the same pattern variables, each used once, in another order or grouping
 * (`(r+ ?a ?b)` to `(r+ ?b ?a)`, `(r* ?a (r* ?b ?c))` to `(r* (r* ?a ?b) ?c)`).
 * Read from the patterns, so a new commute or associate rule of any
 * operator counts without a list of names.
 */
import { parsePattern, type PatternNode } from "../egraph";
import { RA_SUM } from "./la-ops";
import type { RuleSpec } from "./rule-spec";

export function isReassociation(spec: RuleSpec): boolean {
  if (typeof spec.rhs !== "string" || spec.when) return false;
  const lhs = parsePattern(spec.lhs);
  const rhs = parsePattern(spec.rhs);
  const left = shape(lhs.root, lhs.vars);
  const right = shape(rhs.root, rhs.vars);
  // Σ_i Σ_j = Σ_j Σ_i also has this shape, but it is the step a reader wants to see (an index is not an operand).
  if (!left || !right || left.op !== right.op || left.op === RA_SUM) return false;
  const sorted = (names: string[]) => [...names].sort().join(" ");
  return new Set(left.vars).size === left.vars.length && sorted(left.vars) === sorted(right.vars);
}

/** The one operator of a tree of binary nodes over variables, and its variables in order; undefined for anything else. */
function shape(node: PatternNode, names: readonly string[]): { op: string; vars: string[] } | undefined {
  if (node.kind === "var" || node.children.length !== 2) return undefined;
  const vars: string[] = [];
  for (const child of node.children) {
    if (child.kind === "var") {
      vars.push(names[child.index]!);
      continue;
    }
    const inner = shape(child, names);
    if (!inner || inner.op !== node.op) return undefined;
    vars.push(...inner.vars);
  }
  return { op: node.op, vars };
}
