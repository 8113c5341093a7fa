/**
 * The catalog of DML builtin functions: every native builtin, data function,
 * statement function, parameterized builtin and DML-bodied builtin of SystemDS
 * (docs/docs/DML_LANGUAGE.md section 6), each with its parameters, argument rules,
 * number of outputs and result type (builtin-types.ts). The families live in
 * builtins-native.ts, builtins-data.ts and builtins-dml.ts.
 *
 * A user function with the same name hides a builtin (SystemDS resolves user
 * functions first); that is the caller's business, not the catalog's.
 */
import type { BuiltinSignature } from "./builtin-types";
import { NAMED_ARGUMENT_BUILTINS } from "./builtins-data";
import { DML_BODIED_BUILTINS } from "./builtins-dml";
import { NATIVE_BUILTINS } from "./builtins-native";

export type { ArgumentMixing, BuiltinKind, BuiltinParam, BuiltinResultType, BuiltinSignature, UnknownNamePolicy } from "./builtin-types";

/** Every builtin once, in family order (native, named-argument, DML-bodied). */
export const ALL_BUILTINS: readonly BuiltinSignature[] = [...NATIVE_BUILTINS, ...NAMED_ARGUMENT_BUILTINS, ...DML_BODIED_BUILTINS];

function index(signatures: readonly BuiltinSignature[]): ReadonlyMap<string, BuiltinSignature> {
  const byName = new Map<string, BuiltinSignature>();
  for (const signature of signatures) {
    for (const name of [signature.name, ...signature.aliases]) {
      // The first family wins: a native builtin shadows a DML-bodied script of the same name.
      if (!byName.has(name)) byName.set(name, signature);
    }
  }
  return byName;
}

/** Builtins by name and by alias. */
export const BUILTINS: ReadonlyMap<string, BuiltinSignature> = index(ALL_BUILTINS);

/**
 * The builtin `name` calls, or `undefined`. SystemDS matches `rand`
 * case-insensitively (`Rand(rows=2, cols=2)` works); every other name is
 * case-sensitive.
 */
export function lookupBuiltin(name: string): BuiltinSignature | undefined {
  const found = BUILTINS.get(name);
  if (found) return found;
  return name.toLowerCase() === "rand" ? BUILTINS.get("rand") : undefined;
}

/** All names and aliases, for "did you mean" suggestions and completion. */
export function builtinNames(): string[] {
  return [...BUILTINS.keys()];
}
