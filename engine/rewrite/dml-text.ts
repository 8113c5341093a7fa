/**
 * Terms of a proof as DML for a reader: a term with relational parts has
 * no DML form; a sub-term that is the value of a script variable prints by
 * that variable's name.
 */
import type { Term } from "../egraph";
import { opFamily } from "./la-ops";
import { termToDml, type LeafText } from "./term-to-dml";

/** The DML text of a term, or undefined when it has relational parts or a leaf without text. */
export function dmlText(term: Term, leafText: LeafText): string | undefined {
  if (!isLinearAlgebra(term)) return undefined;
  try {
    return termToDml(term, leafText);
  } catch {
    return undefined;
  }
}

function isLinearAlgebra(term: Term): boolean {
  return opFamily(term.op) === "la" && term.children.every(isLinearAlgebra);
}

/** A variable's name for a term that is exactly its value (e.g. the value of `Y` in `Y = X * 2`), or undefined. */
export type TermName = (term: Term) => string | undefined;

/** The term with every sub-term that `name` names replaced by that variable. */
export function withNames(term: Term, name: TermName): Term {
  const named = name(term);
  if (named !== undefined) return { op: `var:${named}`, children: [] };
  return term.children.length === 0 ? term : { op: term.op, children: term.children.map((c) => withNames(c, name)) };
}
