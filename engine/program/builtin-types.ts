/**
 * The shape of one entry in the catalog of DML builtin functions
 * (builtins.ts), and small constructors the family tables use.
 *
 * How SystemDS binds the arguments of each kind of builtin (research on
 * `BuiltinFunctionExpression`, `ParameterizedBuiltinFunctionExpression`,
 * `DataExpression`, `FunctionCallIdentifier`):
 * - `native`: arguments are taken by position; SystemDS ignores the names of
 *   named arguments. Only the count is checked (`minArgs`..`maxArgs`).
 * - `parameterized`: arguments are taken by name; at most `maxPositional`
 *   may be unnamed (they bind to the first parameters in order).
 * - `data`: `read`, `rand`, `matrix`, `frame`, ...: mixed positional and
 *   named arguments with per-function rules (`maxPositional`, `mixing`).
 * - `statement`: `print`, `stop`, `assert`, `write`.
 * - `dml`: a DML-bodied builtin (`scripts/builtin/<name>.dml`), called like a
 *   user function: all arguments by name or all by position. Its signature
 *   changes between SystemDS versions, so argument problems are warnings.
 */

export type BuiltinKind = "native" | "parameterized" | "data" | "statement" | "dml";

/** The data type of a builtin's (first) result; `none` for statements. */
export type BuiltinResultType = "scalar" | "matrix" | "frame" | "list" | "unknown" | "none";

export interface BuiltinParam {
  name: string;
  required: boolean;
}

/**
 * How positional and named arguments may be combined:
 * - `any`: freely (named ones bind by name, the rest by position);
 * - `exclusive`: all named or all positional (user functions, DML-bodied builtins, `sql`);
 * - `first-only`: when any argument is named, only the first may be unnamed (`matrix`, `frame`, `tensor`).
 */
export type ArgumentMixing = "any" | "exclusive" | "first-only";

/** What to do with a named argument that is not a parameter. */
export type UnknownNamePolicy = "error" | "warning" | "ignore";

export interface BuiltinSignature {
  name: string;
  aliases: readonly string[];
  kind: BuiltinKind;
  /** Parameters in order; `undefined` when the catalog does not know them (name-only entry). */
  params?: readonly BuiltinParam[];
  /** Fewest arguments accepted (all kinds). */
  minArgs: number;
  /** Most arguments accepted; `undefined` = no limit (variadic or unknown; an override may set it to lift the limit). */
  maxArgs?: number | undefined;
  /** Extra positional arguments beyond `params` are accepted (cbind, print, min, list, ...). */
  variadic: boolean;
  /** Most unnamed arguments accepted; `undefined` = as many as there are parameters (an override may set it to lift the limit). */
  maxPositional?: number | undefined;
  /** Named arguments are accepted at all (`false`: names make SystemDS pick another function or fail). */
  namedAllowed: boolean;
  mixing: ArgumentMixing;
  unknownNames: UnknownNamePolicy;
  /**
   * Accepted numbers of assignment targets: `[1]` for ordinary functions,
   * `[2]` for `eigen`, `[2, 5]` for `lstm`, `[1, 2]` for `compress`;
   * `undefined` when unknown (DML-bodied builtins without a known signature).
   */
  outputs?: readonly number[];
  /** The builtin must be called in a multi-assignment (`[a, b] = eigen(A)`). */
  multiReturnOnly: boolean;
  result: BuiltinResultType;
  /** A short note shown in messages and hovers, e.g. "deprecated". */
  note?: string;
}

/** `p("X")` is a required parameter, `p("verbose", false)` an optional one. */
export function p(name: string, required = true): BuiltinParam {
  return { name, required };
}

/** Optional parameters from a list of names. */
export function optional(...names: string[]): BuiltinParam[] {
  return names.map((name) => ({ name, required: false }));
}

/** Required parameters from a list of names. */
export function required(...names: string[]): BuiltinParam[] {
  return names.map((name) => ({ name, required: true }));
}

type Overrides = Partial<Omit<BuiltinSignature, "name" | "kind">>;

/**
 * A native builtin taking `params` by position (names ignored by SystemDS):
 * `native("log", [p("X"), p("base", false)], "matrix")`.
 */
export function native(name: string, params: readonly BuiltinParam[], result: BuiltinResultType, more: Overrides = {}): BuiltinSignature {
  const minArgs = params.filter((x) => x.required).length;
  return {
    name,
    aliases: [],
    kind: "native",
    params,
    minArgs,
    maxArgs: more.variadic ? undefined : params.length,
    variadic: false,
    namedAllowed: true,
    mixing: "any",
    unknownNames: "ignore",
    outputs: [1],
    multiReturnOnly: false,
    result,
    ...more,
  };
}

/** A parameterized builtin: named arguments, at most `maxPositional` (default 0) unnamed. */
export function parameterized(name: string, params: readonly BuiltinParam[], result: BuiltinResultType, more: Overrides = {}): BuiltinSignature {
  return {
    name,
    aliases: [],
    kind: "parameterized",
    params,
    minArgs: 0,
    maxArgs: params.length,
    variadic: false,
    maxPositional: 0,
    namedAllowed: true,
    mixing: "any",
    unknownNames: "error",
    outputs: [1],
    multiReturnOnly: false,
    result,
    ...more,
  };
}

/** The argument binding of a function with a DML body. */
export type DmlFunctionBinding = Pick<BuiltinSignature, "params" | "minArgs" | "maxArgs" | "variadic" | "namedAllowed" | "mixing">;

/**
 * How SystemDS binds the arguments of a function with a DML body (a user
 * function or a builtin script): all by position or all by name, at most one
 * per parameter.
 */
export function dmlFunctionBinding(params: readonly BuiltinParam[]): DmlFunctionBinding {
  return { params, minArgs: 0, maxArgs: params.length, variadic: false, namedAllowed: true, mixing: "exclusive" };
}

/** A DML-bodied builtin with a known signature (from `scripts/builtin/<name>.dml`). */
export function dml(name: string, params: readonly BuiltinParam[], outputs: number, result: BuiltinResultType = "matrix", more: Overrides = {}): BuiltinSignature {
  return {
    name,
    aliases: [],
    kind: "dml",
    ...dmlFunctionBinding(params),
    unknownNames: "warning",
    outputs: Array.from({ length: outputs }, (_, i) => i + 1),
    multiReturnOnly: false,
    result,
    ...more,
  };
}

/** A DML-bodied builtin known by name only: any arguments, any number of targets. */
export function dmlNameOnly(name: string): BuiltinSignature {
  return {
    name,
    aliases: [],
    kind: "dml",
    minArgs: 0,
    variadic: true,
    namedAllowed: true,
    mixing: "exclusive",
    unknownNames: "ignore",
    multiReturnOnly: false,
    result: "unknown",
    note: "parameters unknown",
  };
}

/** Adds aliases to a signature. */
export function withAliases(signature: BuiltinSignature, ...aliases: string[]): BuiltinSignature {
  return { ...signature, aliases: [...signature.aliases, ...aliases] };
}
