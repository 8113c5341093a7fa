/**
 * Checks on what a script defines: two functions with the same name in one
 * file (SystemDS: "Function Name Conflict"; DML has no overloading), and
 * assignments to the builtin constants `pi`, `Inf` and `NaN`, which SystemDS
 * rejects ("Cannot assign a value to the builtin constant").
 */
import type { DataIdentifier, Diagnostic, Program } from "../syntax";
import { BUILTIN_CONSTANTS } from "./builtin-constants";
import { forEachStatement } from "./statement-walk";
import type { UserFunction } from "./function-scope";

export function duplicateFunctionDiagnostics(program: Program): Diagnostic[] {
  const first = new Map<string, UserFunction>();
  const diagnostics: Diagnostic[] = [];
  forEachStatement(program.body, (statement) => {
    if (statement.kind !== "function" && statement.kind !== "externalFunction") return;
    const name = statement.name.name;
    const earlier = first.get(name);
    if (!earlier) {
      first.set(name, statement);
      return;
    }
    const message = `Function Name Conflict: '${name}' is already defined on line ${earlier.name.range.start.line + 1}; DML has no overloading`;
    diagnostics.push({ severity: "error", message, range: statement.name.range, code: "duplicate-function" });
  });
  return diagnostics;
}

export function constantAssignmentDiagnostics(program: Program): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const check = (target: DataIdentifier) => {
    const name = target.kind === "identifier" ? target : target.kind === "index" ? target.target : undefined;
    if (name && BUILTIN_CONSTANTS.includes(name.name)) {
      const message = `cannot assign to '${name.name}': it is a builtin constant in DML`;
      diagnostics.push({ severity: "error", message, range: name.range, code: "assign-constant" });
    }
  };
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "assign") check(statement.target);
    else if (statement.kind === "multiAssign") statement.targets.forEach(check);
  });
  return diagnostics;
}
