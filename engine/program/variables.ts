/**
 * The variables one expression or simple statement reads and writes, after
 * SystemDS's `variablesRead()` / `variablesUpdated()` (research R9, R10).
 * Names only, in source order, each once:
 * - an identifier reads its name; an index expression `X[i, j]` reads `X`,
 *   then the variables of its bounds;
 * - a call reads the variables of its arguments, never its callee
 *   (named-argument names are not variables either);
 * - `$params` and literals read nothing; the builtin constants `Inf`, `NaN`,
 *   `pi` read nothing unless the program binds them (builtin-constants.ts);
 * - `X[i, j] = v` reads `X, i, j, v` and writes `X`; `x += e` reads `x` and `e`;
 * - `[a, b] = f(x)` reads the arguments and writes every target;
 * - a call statement (`print`, `stop`, `assert`, `write`, a user function)
 *   reads its arguments and writes nothing; `source` and `setwd` touch no variable.
 */
import type { DataIdentifier, Expression } from "../syntax";
import { walkExpression } from "./expression-walk";
import { NameList } from "./names";
import type { SimpleStatement } from "./statement-block";

export interface VariableOptions {
  /** Names that are constants when read (default: none). */
  constants?: ReadonlySet<string>;
}

const NO_CONSTANTS: ReadonlySet<string> = new Set();

/** Adds the variables `expression` reads to `into`, in source order. */
export function collectExpressionReads(expression: Expression, into: NameList, options: VariableOptions = {}): void {
  const constants = options.constants ?? NO_CONSTANTS;
  walkExpression(expression, (node) => {
    if (node.kind === "identifier") {
      if (!constants.has(node.name)) into.add(node.name);
    } else if (node.kind === "index") {
      // SystemDS substitutes the constant for `pi[1, 1]` too (IndexedIdentifier is a DataIdentifier).
      if (!constants.has(node.target.name)) into.add(node.target.name);
    }
  });
}

export function expressionReads(expression: Expression, options: VariableOptions = {}): string[] {
  const names = new NameList();
  collectExpressionReads(expression, names, options);
  return names.toArray();
}

export function statementReads(statement: SimpleStatement, options: VariableOptions = {}): string[] {
  const names = new NameList();
  switch (statement.kind) {
    case "assign":
      if (statement.target.kind === "index") collectExpressionReads(statement.target, names, options);
      else if (statement.op === "+=" && statement.target.kind === "identifier") names.add(statement.target.name);
      collectExpressionReads(statement.value, names, options);
      break;
    case "multiAssign":
      for (const target of statement.targets) if (target.kind === "index") collectExpressionReads(target, names, options);
      collectExpressionReads(statement.call, names, options);
      break;
    case "callStatement":
      collectExpressionReads(statement.call, names, options);
      break;
    case "source":
    case "setwd":
      break;
  }
  return names.toArray();
}

export function statementWrites(statement: SimpleStatement): string[] {
  switch (statement.kind) {
    case "assign":
      return targetNames([statement.target]);
    case "multiAssign":
      return targetNames(statement.targets);
    case "callStatement":
    case "source":
    case "setwd":
      return [];
  }
}

/** The assigned names; a `$param` target (an error) assigns nothing. */
function targetNames(targets: readonly DataIdentifier[]): string[] {
  const names = new NameList();
  for (const target of targets) {
    if (target.kind === "identifier") names.add(target.name);
    else if (target.kind === "index") names.add(target.target.name);
  }
  return names.toArray();
}
