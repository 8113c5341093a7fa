/** Rewrite rules: a searcher pattern, an applier (a pattern or custom code) and an optional condition. */
import { parsePattern, type Pattern, type PatternNode, type Subst } from "./pattern";
import type { ClassId, EGraphApi } from "./types";

/** Code that builds the right-hand side: returns the classes to merge with the matched class. */
export type CustomApplier<D> = (egraph: EGraphApi<D>, classId: ClassId, subst: Subst) => ClassId[];

export type Condition<D> = (egraph: EGraphApi<D>, classId: ClassId, subst: Subst) => boolean;

export interface Rewrite<D> {
  name: string;
  searcher: Pattern;
  applier: Pattern | CustomApplier<D>;
  condition?: Condition<D>;
}

export function rewrite<D>(name: string, lhs: string, rhs: string | CustomApplier<D>, condition?: Condition<D>): Rewrite<D> {
  const r: Rewrite<D> = { name, searcher: parsePattern(lhs), applier: typeof rhs === "string" ? parsePattern(rhs) : rhs };
  if (condition) r.condition = condition;
  return r;
}

/** Two rules, one per direction. */
export function birewrite<D>(name: string, a: string, b: string): Rewrite<D>[] {
  return [rewrite<D>(name, a, b), rewrite<D>(`${name}-reverse`, b, a)];
}

/**
 * Adds a right-hand side pattern under the bindings (by the pattern's
 * variable index) and returns its class; compiled once per pattern: each
 * pattern node keeps a scratch array for its children's classes (addOp
 * copies it only when the node is new), so applying a match that adds
 * nothing allocates nothing.
 */
export function compileInstantiate<D>(pattern: Pattern): (egraph: EGraphApi<D>, bindings: readonly ClassId[]) => ClassId {
  const compile = (p: PatternNode): ((egraph: EGraphApi<D>, bindings: readonly ClassId[]) => ClassId) => {
    if (p.kind === "var") {
      const index = p.index;
      return (_, bindings) => {
        const id = bindings[index];
        if (id === undefined) throw new Error(`right-hand side variable is not bound by the left-hand side (${pattern.text})`);
        return id;
      };
    }
    const kids = p.children.map(compile);
    const scratch: ClassId[] = new Array<ClassId>(kids.length);
    const op = p.op;
    return (egraph, bindings) => {
      // Each pattern node has its own scratch array, and a tree never re-enters a node.
      for (let j = 0; j < kids.length; j++) scratch[j] = kids[j]!(egraph, bindings);
      return egraph.addOp(op, scratch);
    };
  };
  return compile(pattern.root);
}

/** For each variable of the applier, its index among the searcher's variables. */
export function applierVariableIndex(searcher: Pattern, applier: Pattern): number[] {
  return applier.vars.map((name) => {
    const k = searcher.vars.indexOf(name);
    if (k < 0) throw new Error(`?${name} of ${applier.text} is not in ${searcher.text}`);
    return k;
  });
}
