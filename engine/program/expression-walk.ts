/** Pre-order walks over expressions and over the expressions of a simple statement, in source order. */
import type { Expression } from "../syntax";
import type { SimpleStatement } from "./statement-block";

/**
 * The direct sub-expressions of `expression`, left to right. An index
 * expression's indexed name and a call's callee are not sub-expressions: they
 * are names, handled by whoever needs them.
 */
export function childExpressions(expression: Expression): Expression[] {
  switch (expression.kind) {
    case "binary":
      return [expression.left, expression.right];
    case "unary":
      return [expression.operand];
    case "call":
      return expression.args.map((arg) => arg.value);
    case "index": {
      const children: Expression[] = [];
      for (const part of [expression.rows, expression.cols]) {
        if (!part) continue;
        children.push(part.lower);
        if (part.upper) children.push(part.upper);
      }
      return children;
    }
    case "list":
      return expression.items;
    case "ifdef":
      return [expression.parameter, expression.defaultValue];
    case "number":
    case "string":
    case "boolean":
    case "identifier":
    case "parameter":
    case "error":
      return [];
  }
}

/** Visits `expression` and everything below it, parents before children, left to right. */
export function walkExpression(expression: Expression, visit: (node: Expression) => void): void {
  visit(expression);
  for (const child of childExpressions(expression)) walkExpression(child, visit);
}

/**
 * The expressions a simple statement evaluates, in source order: an indexed
 * assignment target (its indices are evaluated), then the right side or the call.
 */
export function statementExpressions(statement: SimpleStatement): Expression[] {
  switch (statement.kind) {
    case "assign":
      return statement.target.kind === "index" ? [statement.target, statement.value] : [statement.value];
    case "multiAssign":
      return [...statement.targets.filter((t) => t.kind === "index"), statement.call];
    case "callStatement":
      return [statement.call];
    case "source":
    case "setwd":
      return [];
  }
}

/** True when some node of the statement's expressions satisfies `test`. */
export function statementContains(statement: SimpleStatement, test: (node: Expression) => boolean): boolean {
  let found = false;
  for (const expression of statementExpressions(statement)) {
    walkExpression(expression, (node) => {
      if (!found && test(node)) found = true;
    });
    if (found) return true;
  }
  return false;
}
