/**
 * The names a program calls: every call expression anywhere in it (the main
 * program, function bodies, conditions, loop bounds, parameter defaults).
 * SystemDS loads the builtin script of each DML-bodied builtin a script
 * calls when it parses the script; this is how DML Lens finds them.
 */
import type { Expression, Program, Statement } from "../syntax";
import { childExpressions } from "./expression-walk";
import { forEachStatement } from "./statement-walk";

/** The callee names of every call in `program`, as written (`f`, `ns::f`). */
export function calledNames(program: Program): Set<string> {
  const names = new Set<string>();
  const visit = (expression: Expression) => {
    if (expression.kind === "call") names.add(expression.callee.name);
    for (const child of childExpressions(expression)) visit(child);
  };
  forEachStatement(program.body, (statement) => {
    for (const expression of statementExpressions(statement)) visit(expression);
  });
  return names;
}

/** The expressions a statement holds itself (not those of nested bodies, which the statement walk visits). */
function statementExpressions(statement: Statement): Expression[] {
  switch (statement.kind) {
    case "assign":
      return [statement.target, statement.value];
    case "multiAssign":
      return [statement.call];
    case "callStatement":
      return [statement.call];
    case "if":
    case "while":
      return [statement.condition];
    case "for":
      return [statement.iterable.from, statement.iterable.to, ...(statement.iterable.kind === "seq" && statement.iterable.by ? [statement.iterable.by] : [])];
    case "function":
    case "externalFunction":
      return statement.params.flatMap((p) => (p.defaultValue ? [p.defaultValue] : []));
    case "source":
    case "setwd":
      return [];
  }
}
