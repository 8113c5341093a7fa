/**
 * Every call of a program, checked: does the function exist (with a "did you
 * mean" suggestion), are its arguments right (call-arguments.ts), and does
 * the number of assignment targets fit the number of values it returns.
 *
 * Targets per place: a call statement has none (`print(x)`), a call that is
 * the right side of `x = f(...)` or sits inside an expression has one, the
 * call of `[a, b] = f(...)` has as many as there are names. Multi-return
 * builtins (`eigen`, `qr`, `transformencode`, ...) need a multi-assignment;
 * a user function may be assigned fewer targets than it has outputs, not more.
 *
 * A call of a DML-bodied builtin with a SystemDS installation is checked
 * like a user function call against the script's function (its real
 * parameters, defaults and returns); a script that cannot be used is one
 * error at the call, naming the file. Without an installation the catalog's
 * table checks it (warnings), and the first such call of the document says
 * once where the bodies come from and how to point DML Lens at SystemDS.
 */
import type { CallExpression, Diagnostic, Expression, Program, Statement } from "../syntax";
import { syntacticDataType } from "./builtin-script-scope";
import { builtinNames } from "./builtins";
import { argumentDiagnostics, builtinRules, userFunctionRules } from "./call-arguments";
import { didYouMean } from "./edit-distance";
import { isUnaryOperatorCall } from "./dag-calls";
import { childExpressions } from "./expression-walk";
import { resolveCall, type FunctionScope, type Resolution, type UserFunction } from "./function-scope";
import { needsInstallationMessage, notInInstallationMessage } from "./installation-messages";
import { forEachStatement } from "./statement-walk";

/** What checking the calls of one document carries from call to call. */
interface CallCheck {
  scope: FunctionScope;
  /** The "no SystemDS installation" notice was given (once per document). */
  installationNoticeGiven: boolean;
}

export function callDiagnostics(program: Program, scope: FunctionScope): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const check: CallCheck = { scope, installationNoticeGiven: false };
  forEachStatement(program.body, (statement, place) => {
    const found: Diagnostic[] = [];
    for (const [expression, targets, used] of statementCalls(statement)) visitCalls(expression, targets, used, check, found);
    diagnostics.push(...(place.inBranchOrLoop ? found.map(mayNotRun) : found));
  });
  return diagnostics;
}

const ONLY_WARNS_IN_BRANCH = " (SystemDS only warns about this inside an if, while or for body)";

/**
 * SystemDS validates the bodies of ifs and loops as "conditional": there its
 * checks of a user-function call (FunctionCallIdentifier: arguments all named
 * or all positional, not more arguments than parameters) only warn.
 */
function mayNotRun(d: Diagnostic): Diagnostic {
  if (d.severity !== "error" || !d.message.startsWith("function '")) return d;
  const mixed = d.code === "mixed-arguments" && d.message.includes("both named and positional");
  const tooMany = d.code === "argument-count" && d.message.includes(" takes at most ");
  if (!mixed && !tooMany) return d;
  return { ...d, severity: "warning", message: d.message + ONLY_WARNS_IN_BRANCH };
}

/**
 * The expressions of one statement (not of its nested bodies), each with the
 * number of targets its top-level call gets, and whether its value is used
 * in an expression (a condition, a bound) rather than bound to targets.
 */
function statementCalls(statement: Statement): [Expression, number, boolean][] {
  switch (statement.kind) {
    case "assign":
      return [...(statement.target.kind === "index" ? [[statement.target, 1, true] as [Expression, number, boolean]] : []), [statement.value, 1, false]];
    case "multiAssign":
      return [[statement.call, statement.targets.length, false]];
    case "callStatement":
      return [[statement.call, 0, false]];
    case "if":
    case "while":
      return [[statement.condition, 1, true]];
    case "for": {
      const iterable = statement.iterable;
      const bounds = [iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])];
      return bounds.map((bound) => [bound, 1, true]);
    }
    case "function":
    case "externalFunction":
      return statement.params.flatMap((param) => (param.defaultValue ? [[param.defaultValue, 1, true] as [Expression, number, boolean]] : []));
    case "source":
    case "setwd":
      return [];
  }
}

function visitCalls(expression: Expression, targets: number, used: boolean, check: CallCheck, diagnostics: Diagnostic[]): void {
  if (expression.kind === "call") checkCall(expression, targets, used, check, diagnostics);
  for (const child of childExpressions(expression)) visitCalls(child, 1, true, check, diagnostics);
}

function checkCall(call: CallExpression, targets: number, used: boolean, check: CallCheck, diagnostics: Diagnostic[]): void {
  const callee = call.callee.name;
  const scope = check.scope;
  const resolution = resolveCall(callee, scope, syntacticDataType(call.args[0]?.value));
  switch (resolution.kind) {
    case "unchecked":
      return;
    case "unknown-namespace": {
      const known = [...scope.namespaces.keys()];
      const message = `namespace '${resolution.namespace}' is not defined: no source(...) as ${resolution.namespace}${didYouMean(resolution.namespace, known)}`;
      diagnostics.push({ severity: "error", message, range: call.callee.range, code: "unknown-namespace" });
      return;
    }
    case "unknown-in-namespace": {
      const names = [...(resolution.file.functions?.keys() ?? [])];
      const message = `'${resolution.name}' is not defined in '${resolution.file.path}' (namespace ${resolution.namespace})${didYouMean(resolution.name, names)}`;
      diagnostics.push({ severity: "error", message, range: call.callee.range, code: "unknown-function" });
      return;
    }
    case "unknown": {
      const candidates = [...scope.local.keys(), ...builtinNames(), ...(scope.builtinScripts?.names() ?? [])];
      const suggestion = didYouMean(callee, candidates);
      if (resolution.maybeFrom) {
        const message = `'${callee}' is not a builtin or a function of this script; it may come from '${resolution.maybeFrom.path}', which could not be read${suggestion}`;
        diagnostics.push({ severity: "warning", message, range: call.callee.range, code: "unknown-function" });
      } else {
        diagnostics.push({ severity: "error", message: `unknown function '${callee}'${suggestion}`, range: call.callee.range, code: "unknown-function" });
      }
      return;
    }
    case "user":
      diagnostics.push(...userCallDiagnostics(call, resolution.definition, targets, used));
      return;
    case "builtin-script": {
      // With the first argument's type unknown, the call may run any of the script's functions: the first it fits.
      const checked = resolution.candidates.map((definition) => userCallDiagnostics(call, definition, targets, used));
      diagnostics.push(...(checked.find((found) => found.length === 0) ?? checked[0] ?? userCallDiagnostics(call, resolution.definition, targets, used)));
      return;
    }
    case "builtin-script-problem":
      diagnostics.push({ severity: "error", message: resolution.message, range: call.callee.range, code: "builtin-script" });
      return;
    case "builtin":
      // `sigmoid(X)` runs as an operator of its own: its script is not needed.
      if (resolution.body === "no-installation" && !check.installationNoticeGiven && !isUnaryOperatorCall(callee, call.args.length)) {
        check.installationNoticeGiven = true;
        diagnostics.push({ severity: "information", message: needsInstallationMessage(callee), range: call.callee.range, code: "systemds-installation" });
      }
      if (resolution.body === "not-shipped" && scope.builtinScripts) {
        diagnostics.push({ severity: "warning", message: notInInstallationMessage(callee, scope.builtinScripts.installation), range: call.callee.range, code: "systemds-installation" });
      }
      diagnostics.push(...argumentDiagnostics(call, builtinRules(resolution.signature, callee)));
      diagnostics.push(...printfDiagnostics(call, resolution.signature.name));
      diagnostics.push(...outputDiagnostics(call, resolution, targets, used));
      return;
  }
}

/** A call of a user function, or of a builtin script's function (SystemDS checks both alike). */
function userCallDiagnostics(call: CallExpression, definition: UserFunction, targets: number, used: boolean): Diagnostic[] {
  return [...argumentDiagnostics(call, userFunctionRules(definition, call.callee.name)), ...outputDiagnostics(call, { kind: "user", definition }, targets, used)];
}

function outputDiagnostics(call: CallExpression, resolution: Resolution & { kind: "user" | "builtin" }, targets: number, used: boolean): Diagnostic[] {
  const callee = call.callee.name;
  const range = call.callee.range;
  const problem = (message: string, severity: Diagnostic["severity"] = "error"): Diagnostic[] => [{ severity, message, range, code: "output-count" }];
  if (resolution.kind === "user") {
    const outputs = resolution.definition.returns.length;
    // SystemDS binds min(#targets, #outputs) results of a single assignment: `x = f()` of a function without results runs.
    if (targets >= 1 && outputs === 0 && (used || targets >= 2)) return problem(`function '${callee}' returns no value`);
    if (targets === 1 && outputs === 0) return problem(`function '${callee}' returns no value: the call runs, but assigns nothing`, "warning");
    if (targets > outputs) return problem(`function '${callee}' returns ${values(outputs)}, but ${targets} targets are assigned`);
    return [];
  }
  const signature = resolution.signature;
  const multiTargets = targets >= 2;
  if (signature.multiReturnOnly && !(signature.outputs ?? []).includes(targets)) {
    const counts = (signature.outputs ?? []).join(" or ");
    if (targets < 2) return problem(`'${callee}' returns ${counts} values and must be called as a multi-assignment [a, b, ...] = ${callee}(...)`);
    return problem(`'${callee}' returns ${counts} values, but ${targets} targets are assigned`);
  }
  if (targets >= 1 && signature.result === "none") return problem(`'${callee}' is a statement and returns no value`);
  if (multiTargets && signature.outputs !== undefined && !signature.outputs.includes(targets)) {
    const most = Math.max(...signature.outputs);
    const severity = signature.kind === "dml" ? "warning" : "error";
    return problem(`'${callee}' returns ${most === 1 ? "a single value" : values(most)}, but ${targets} targets are assigned`, severity);
  }
  return [];
}

/** `print` with more than one argument is printf-style: SystemDS wants a string literal first. */
function printfDiagnostics(call: CallExpression, builtin: string): Diagnostic[] {
  const first = call.args[0];
  if (builtin !== "print" || call.args.length < 2 || !first || first.value.kind === "string") return [];
  const message = "print with more than one argument is printf-style: its first argument must be a string literal (the format)";
  return [{ severity: "error", message, range: first.range, code: "print-format" }];
}

function values(n: number): string {
  return `${n} value${n === 1 ? "" : "s"}`;
}
