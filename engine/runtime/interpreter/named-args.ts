/**
 * The arguments of a builtin call by name or by position, as the runtime's
 * builtins read them: `removeEmpty(target=X, margin="rows")` or
 * `removeEmpty(X, "rows")`. A name wins; else the `position`-th unnamed
 * argument.
 */
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import type { Value } from "./values";

export function namedArg(a: CallArgs, name: string, position: number): Value | undefined {
  const i = a.names.indexOf(name);
  if (i >= 0) return a.values[i];
  let p = 0;
  for (let k = 0; k < a.values.length; k++) {
    if (a.names[k] !== undefined) continue;
    if (p === position) return a.values[k];
    p++;
  }
  return undefined;
}

export function requiredArg(a: CallArgs, name: string, position: number, fn: string): Value {
  return namedArg(a, name, position) ?? fail(`${fn}: missing argument '${name}'`);
}

/** Fails on a named argument that `fn` does not take (SystemDS rejects them). */
export function rejectUnknownNames(a: CallArgs, known: readonly string[], fn: string): void {
  const unknown = a.names.find((n) => n !== undefined && !known.includes(n));
  if (unknown !== undefined) fail(`${fn}: unknown argument '${unknown}' (it takes ${known.join(", ")})`);
}
