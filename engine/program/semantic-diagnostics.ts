/**
 * Semantic diagnostics of a parsed DML program (issue 3, "Semantic
 * diagnostics"), with the exact source range of each problem:
 * - a variable read before it is assigned on every path (definite-assignment.ts);
 * - an unknown function, an unknown `ns::` namespace, or a function missing
 *   from a sourced file that can be read, with a "did you mean" suggestion;
 * - wrong number, names or mix of arguments for builtins and user functions,
 *   and a number of assignment targets that does not fit the callee's outputs
 *   (call-diagnostics.ts, call-arguments.ts, builtins.ts);
 * - two functions with the same name, assignments to `pi`, `Inf`, `NaN`
 *   (definition-checks.ts).
 * Writing to a `$param` is reported by the parser already.
 *
 * Dimension checks (`%*%`, broadcasting, `as.scalar` of a non-1x1 matrix) need
 * sizes and are not done here.
 */
import type { Diagnostic, ParseResult, Program } from "../syntax";
import { formStatementBlocks } from "./blocks";
import { unboundBuiltinConstants } from "./builtin-constants";
import { callDiagnostics } from "./call-diagnostics";
import { definiteAssignmentDiagnostics } from "./definite-assignment";
import { constantAssignmentDiagnostics, duplicateFunctionDiagnostics } from "./definition-checks";
import { buildFunctionScope, type SourceReader } from "./function-scope";
import { parforDiagnostics } from "./parfor-dependencies";
import type { SimpleStatement } from "./statement-block";

export interface SemanticOptions {
  /**
   * Reads a file named in `source("path")`, given the path as written, or
   * returns `undefined` when it cannot. Without it, calls `ns::f` are checked
   * only for the namespace, not for `f`.
   */
  readFile?: SourceReader;
}

export function semanticDiagnostics(program: Program, options: SemanticOptions = {}): Diagnostic[] {
  const scope = buildFunctionScope(program, options.readFile);
  const isStop = (statement: SimpleStatement) =>
    statement.kind === "callStatement" && statement.call.callee.name === "stop" && !scope.local.has("stop");
  const diagnostics = [
    ...scope.diagnostics,
    ...duplicateFunctionDiagnostics(program),
    ...constantAssignmentDiagnostics(program),
    ...definiteAssignmentDiagnostics(formStatementBlocks(program), { constants: unboundBuiltinConstants(program), isStop }),
    ...callDiagnostics(program, scope),
    ...parforDiagnostics(program),
  ];
  return diagnostics.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/**
 * The diagnostics `dml check` and the language server show for a parsed
 * file: the parser's, plus the semantic ones when the file has no syntax
 * error (after a syntax error the recovered tree has holes, and semantic
 * findings there would mostly repeat it).
 */
export function checkDiagnostics(result: ParseResult, options: SemanticOptions = {}): Diagnostic[] {
  if (result.diagnostics.some((d) => d.severity === "error")) return [...result.diagnostics];
  return [...result.diagnostics, ...semanticDiagnostics(result.program, options)].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}
