/**
 * Checks the arguments of one call against the rules of its callee: a user
 * function (parameters from its definition, required = no default value) or
 * a builtin of the catalog (builtin-types.ts explains the binding rules of
 * each kind).
 *
 * Binding: unnamed arguments bind to the parameters in order, named ones by
 * name; then every required parameter must be bound. Native builtins that
 * SystemDS binds purely by position are checked by count only.
 */
import type { Argument, CallExpression, Diagnostic, Range, Severity } from "../syntax";
import { dmlFunctionBinding, type BuiltinSignature } from "./builtin-types";
import { didYouMean } from "./edit-distance";
import type { UserFunction } from "./function-scope";

/** The binding rules of one callee: those of a builtin signature, plus how to report. */
export interface CallRules
  extends Pick<
    BuiltinSignature,
    "params" | "minArgs" | "maxArgs" | "variadic" | "maxPositional" | "namedAllowed" | "mixing" | "unknownNames"
  > {
  /** How messages name the callee, e.g. `'lm'` or `function 'f'`. */
  display: string;
  /** Check only the number of arguments (native builtins: SystemDS ignores argument names). */
  countOnly: boolean;
  /** Severity of argument problems (warnings for DML-bodied builtins, whose signatures vary by release). */
  severity: Severity;
}

export function userFunctionRules(definition: UserFunction, callee: string): CallRules {
  const params = definition.params.map((param) => ({ name: param.name.name, required: param.defaultValue === undefined }));
  return {
    display: `function '${callee}'`,
    ...dmlFunctionBinding(params),
    unknownNames: "error",
    countOnly: false,
    severity: "error",
  };
}

export function builtinRules(signature: BuiltinSignature, callee: string): CallRules {
  return {
    display: `'${callee}'`,
    ...(signature.params ? { params: signature.params } : {}),
    minArgs: signature.minArgs,
    maxArgs: signature.maxArgs,
    variadic: signature.variadic,
    maxPositional: signature.maxPositional,
    namedAllowed: signature.namedAllowed,
    mixing: signature.mixing,
    unknownNames: signature.unknownNames,
    countOnly: signature.kind === "native" && signature.maxPositional === undefined,
    severity: signature.kind === "dml" ? "warning" : "error",
  };
}

/** An argument written `name = value`. */
type NamedArgument = Argument & { name: string };

export function argumentDiagnostics(call: CallExpression, rules: CallRules): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const add = (message: string, range: Range, code: string, severity: Severity = rules.severity) =>
    diagnostics.push({ severity, message, range, code });
  const positional = call.args.filter((arg) => arg.name === undefined);
  const named = call.args.filter((arg): arg is NamedArgument => arg.name !== undefined);

  const [firstNamed] = named;
  if (!rules.namedAllowed && firstNamed) {
    add(`${rules.display} does not take named arguments`, nameRange(firstNamed.range, firstNamed.name), "named-argument");
    return diagnostics;
  }
  if (rules.mixing === "exclusive" && positional.length > 0 && named.length > 0) {
    add(`${rules.display} is called with both named and positional arguments; SystemDS needs all arguments named or all positional`, call.callee.range, "mixed-arguments");
    return diagnostics;
  }
  const secondPositional = positional[1];
  if (rules.mixing === "first-only" && named.length > 0 && secondPositional) {
    add(`${rules.display} has named arguments, so only its first argument may be unnamed`, secondPositional.range, "mixed-arguments");
    return diagnostics;
  }

  const count = call.args.length;
  if (rules.countOnly || rules.params === undefined) {
    if (count < rules.minArgs) add(`${rules.display} needs ${atLeast(rules)} but ${given(count)}`, call.callee.range, "argument-count");
    else if (rules.maxArgs !== undefined && count > rules.maxArgs) {
      add(`${rules.display} takes ${atMost(rules)} but ${given(count)}`, spanOf(call.args.slice(rules.maxArgs).map((a) => a.range)), "argument-count");
    }
    return diagnostics;
  }

  const params = rules.params;
  const maxPositional = rules.maxPositional ?? (rules.variadic ? Infinity : params.length);
  if (positional.length > maxPositional) {
    const extra = spanOf(positional.slice(maxPositional).map((a) => a.range));
    if (maxPositional === 0) add(`${rules.display} takes only named arguments (${params.map((x) => x.name + "=").slice(0, 3).join(", ")}...)`, extra, "positional-argument");
    else add(`${rules.display} takes at most ${plural(maxPositional, "positional argument")} but ${given(positional.length)}`, extra, "argument-count");
    return diagnostics;
  }
  const bound = new Set<string>();
  for (const param of params.slice(0, positional.length)) bound.add(param.name);
  for (const arg of named) {
    const name = arg.name;
    const range = nameRange(arg.range, name);
    if (!params.some((param) => param.name === name)) {
      if (rules.unknownNames === "ignore") continue;
      const ignored = rules.unknownNames === "warning" && rules.severity === "error" ? " (SystemDS ignores it)" : "";
      const severity = rules.unknownNames === "error" ? rules.severity : "warning";
      add(`${rules.display} has no parameter '${name}'${ignored}${didYouMean(name, params.map((x) => x.name))}`, range, "unknown-argument", severity);
      continue;
    }
    if (bound.has(name)) add(`argument '${name}' of ${rules.display} is given twice`, range, "duplicate-argument");
    bound.add(name);
  }
  if (count < rules.minArgs) {
    add(`${rules.display} needs ${atLeast(rules)} but ${given(count)}`, call.callee.range, "argument-count");
    return diagnostics;
  }
  const missing = params.filter((param) => param.required && !bound.has(param.name)).map((param) => `'${param.name}'`);
  if (missing.length > 0) {
    add(`${rules.display} is missing the argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, call.callee.range, "missing-argument");
  }
  return diagnostics;
}

function atLeast(rules: CallRules): string {
  const exact = rules.maxArgs === rules.minArgs;
  return `${exact ? "" : "at least "}${plural(rules.minArgs, "argument")}`;
}

function atMost(rules: CallRules): string {
  const max = rules.maxArgs ?? 0;
  if (max === 0) return "no arguments";
  return `${max === rules.minArgs ? "" : "at most "}${plural(max, "argument")}`;
}

function given(count: number): string {
  return `${count} ${count === 1 ? "was" : "were"} given`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The range of the name in `name = value` (an argument starts with its name). */
function nameRange(argument: Range, name: string): Range {
  return { start: argument.start, end: { line: argument.start.line, character: argument.start.character + name.length } };
}

/** From the start of the first range to the end of the last (`ranges` must not be empty). */
function spanOf(ranges: readonly Range[]): Range {
  const first = ranges[0];
  const last = ranges[ranges.length - 1];
  if (!first || !last) throw new Error("spanOf needs at least one range");
  return { start: first.start, end: last.end };
}
