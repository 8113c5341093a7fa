/**
 * `eval(fname, args...)`: calls the function named by the string `fname`,
 * as SystemDS's EvalNaryCPInstruction does: a user function, or else a
 * DML-bodied builtin (its script loaded on first use, `m_`/`s_` by the
 * first argument); `ns::f` is refused (SystemDS: "call the function
 * directly"). A single list argument is expanded into the arguments (by
 * name for a fully named list, else by position). The result is the function's first; a scalar or frame result
 * becomes a matrix (SystemDS's eval returns a matrix).
 */
import type { CallArgs } from "./builtins";
import type { EvalContext } from "./context";
import { fail } from "./errors";
import { castValue, text } from "./operations";
import type { Value } from "./values";

export function evalBuiltin(a: CallArgs, ctx: EvalContext): Value {
  const [fname, ...rest] = a.values;
  if (!fname || fname.kind !== "scalar") fail("eval needs the name of a function (a string) as its first argument");
  const name = text(fname);
  if (name.includes("::")) fail(`eval of '${name}', a function outside the default namespace, is not supported by SystemDS: call the function directly`);
  if (!ctx.callByName) fail("eval is not supported here");
  const [only] = rest;
  const list = rest.length === 1 && only?.kind === "list" ? only : undefined;
  const values = list ? list.items : rest;
  const names = list ? (list.names ?? list.items.map(() => undefined)) : a.names.slice(1);
  // A partly named list binds by position; a fully named one by name.
  const allNamed = names.length > 0 && names.every((n) => n !== undefined);
  const results = ctx.callByName(name, values, allNamed ? names : values.map(() => undefined));
  const result = results[0] ?? fail(`eval: function ${name} returns no value`);
  return result.kind === "scalar" || result.kind === "frame" ? castValue("matrix", result) : result;
}
