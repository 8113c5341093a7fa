/**
 * Which simple statements SystemDS keeps in a basic block of their own
 * (`Statement.controlStatement()`, research R2), plus the cuts its hoisting
 * of nested function calls would make (R3-R6).
 *
 * - `multi-assignment`: every `[a, b] = f(...)`, whether `f` is a user
 *   function or a multi-return builtin (`qr`, `eigen`, ...).
 * - `function-call`: an assignment whose right side is directly a call to a
 *   user function (`x = f(y)`, `x += f(y)`, `X[i, ] = f(y)`), or a user
 *   function called as a statement (`f(y)`: SystemDS makes it an assignment
 *   without target). See user-functions.ts for what counts as one.
 * - `nested-function-call`: any other statement that calls a user function
 *   inside an expression (`x = f(y) + 1`, `print(f(x))`). SystemDS hoists such
 *   calls into `_funvarN = f(..)` temporaries, each in a block of its own, so
 *   the statement cannot share a block with the ones before it. We do not
 *   rewrite the AST, so the whole statement gets a block of its own (SystemDS
 *   would let the rewritten remainder merge with the statements after it).
 * - `stop`: `stop(msg)`. `print` and `assert` merge.
 * - `csv-write`: `write(X, f, format="csv")` with the literal format "csv"
 *   (any case). A format given as `$param` is unknown here and merges.
 * - `time`: any statement that calls the builtin `time()`. SystemDS means to
 *   keep timing reads out of merged DAGs; it tests this with a case-sensitive
 *   substring "TIME" on the printed right side, which also fires on names
 *   such as `TIMEOUT`. We do not copy that quirk: only real `time()` calls
 *   count, also inside `print(...)` (where the newer SystemDS hoists `time()`).
 *
 * `source(...)`, `setwd(...)`, `ifdef` assignments and `x += e` merge like
 * plain assignments.
 */
import type { Expression } from "../syntax";
import { statementContains } from "./expression-walk";
import type { BlockCut, SimpleStatement } from "./statement-block";
import { isBuiltinCall, isUserFunctionCall, type UserFunctions } from "./user-functions";

/** Why `statement` needs a block of its own, or `undefined` when it merges with its neighbours. */
export function blockCut(statement: SimpleStatement, functions: UserFunctions): BlockCut | undefined {
  const callsUserFunction = (node: Expression) => node.kind === "call" && isUserFunctionCall(node, functions);
  switch (statement.kind) {
    case "multiAssign":
      return "multi-assignment";
    case "assign":
      if (callsUserFunction(statement.value)) return "function-call";
      break;
    case "callStatement": {
      const call = statement.call;
      if (isUserFunctionCall(call, functions)) return "function-call";
      if (statement.call.callee.name === "stop") return "stop";
      if (call.callee.name === "write" && call.args.some((a) => a.name === "format" && a.value.kind === "string" && a.value.value.toLowerCase() === "csv")) {
        return "csv-write";
      }
      break;
    }
    case "source":
    case "setwd":
      return undefined;
  }
  if (statementContains(statement, callsUserFunction)) return "nested-function-call";
  if (statementContains(statement, (node) => isBuiltinCall(node, "time", functions))) return "time";
  return undefined;
}
