/**
 * Where a simple statement or an expression reads and writes variables, with
 * the source range of each occurrence (variables.ts gives the same names as
 * sets, without places). Reads follow variables.ts: identifiers and indexed
 * names, never callees or argument names, no `$params`, no builtin constants
 * the program does not bind. One addition: a plain name given to `exists`
 * (`exists(X)`) asks whether `X` is defined, so it is not a read.
 */
import type { DataIdentifier, Expression, Range } from "../syntax";
import { childExpressions } from "./expression-walk";
import type { SimpleStatement } from "./statement-block";

export interface NameOccurrence {
  name: string;
  range: Range;
}

export function expressionReadOccurrences(expression: Expression, constants: ReadonlySet<string>): NameOccurrence[] {
  const found: NameOccurrence[] = [];
  const visit = (node: Expression): void => {
    if (node.kind === "identifier") {
      if (!constants.has(node.name)) found.push({ name: node.name, range: node.range });
      return;
    }
    if (node.kind === "index" && !constants.has(node.target.name)) found.push({ name: node.target.name, range: node.target.range });
    if (node.kind === "call" && node.callee.name === "exists") {
      for (const arg of node.args) if (arg.value.kind !== "identifier") visit(arg.value);
      return;
    }
    for (const child of childExpressions(node)) visit(child);
  };
  visit(expression);
  return found;
}

/** Reads of a simple statement, in source order: indexed target, `+=` target, then the right side. */
export function statementReadOccurrences(statement: SimpleStatement, constants: ReadonlySet<string>): NameOccurrence[] {
  switch (statement.kind) {
    case "assign": {
      const reads: NameOccurrence[] = [];
      const target = statement.target;
      if (target.kind === "index") reads.push(...expressionReadOccurrences(target, constants));
      else if (statement.op === "+=" && target.kind === "identifier") reads.push({ name: target.name, range: target.range });
      reads.push(...expressionReadOccurrences(statement.value, constants));
      return reads;
    }
    case "multiAssign":
      return [
        ...statement.targets.flatMap((t) => (t.kind === "index" ? expressionReadOccurrences(t, constants) : [])),
        ...expressionReadOccurrences(statement.call, constants),
      ];
    case "callStatement":
      return expressionReadOccurrences(statement.call, constants);
    case "source":
    case "setwd":
      return [];
  }
}

/** The names a simple statement assigns, with the range of each target name. */
export function statementWriteOccurrences(statement: SimpleStatement): NameOccurrence[] {
  switch (statement.kind) {
    case "assign":
      return targetOccurrences([statement.target]);
    case "multiAssign":
      return targetOccurrences(statement.targets);
    case "callStatement":
    case "source":
    case "setwd":
      return [];
  }
}

function targetOccurrences(targets: readonly DataIdentifier[]): NameOccurrence[] {
  const found: NameOccurrence[] = [];
  for (const target of targets) {
    if (target.kind === "identifier") found.push({ name: target.name, range: target.range });
    else if (target.kind === "index") found.push({ name: target.target.name, range: target.target.range });
  }
  return found;
}
