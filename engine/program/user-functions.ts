/**
 * Which calls are calls to user-defined functions. SystemDS decides this in
 * its parser (`functionCallAssignmentStatementHelper`, `buildForBuiltInFunction`):
 * a name defined as a function in the script (anywhere in the file: definitions
 * may follow their use) wins over a builtin of the same name, even over
 * `print`, `stop` and `write`; a namespaced call `ns::f` always is one.
 *
 * We decide from the program's own definitions plus every `ns::f` call.
 * SystemDS also turns calls of its DML-bodied builtins (`lm`, `kmeans`, ...)
 * into function calls; those are builtins here unless the caller names them
 * in `extraFunctions` (for instance from a builtin table).
 */
import type { CallExpression, Expression, Program } from "../syntax";
import { forEachStatement } from "./statement-walk";

export interface UserFunctions {
  /** Plain names of the functions the script defines, plus any extra names given. */
  readonly names: ReadonlySet<string>;
}

export function collectUserFunctions(program: Program, extraFunctions: Iterable<string> = []): UserFunctions {
  const names = new Set<string>(extraFunctions);
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "function" || statement.kind === "externalFunction") names.add(statement.name.name);
  });
  return { names };
}

export function isUserFunctionCall(call: CallExpression, functions: UserFunctions): boolean {
  const name = call.callee.name;
  return name.includes("::") || functions.names.has(name);
}

/** A call of the builtin `name` (not shadowed by a user function of that name). */
export function isBuiltinCall(expression: Expression, name: string, functions: UserFunctions): expression is CallExpression {
  return expression.kind === "call" && expression.callee.name === name && !isUserFunctionCall(expression, functions);
}
