/**
 * A kernel source's canonical form: its local names renamed in order of
 * first appearance, so that kernels that differ only in the names their
 * generator derived from DAG node ids (`d13` / `d15`, `t23` / `t25`) are one
 * source, compiled once and warmed once.
 *
 * Generators name locals as a lower-case prefix, a number and an optional
 * `_suffix` (`a0`, `d13`, `l13`, `t23`, `u0_4`, `d13_ji`). Each such name
 * becomes the prefix, the index of its number among that prefix's numbers
 * in order of first appearance, and the suffix (`d13` -> `d0`, `d13_ji` ->
 * `d0_ji`). The renaming is one-to-one (per prefix, distinct numbers get
 * distinct indexes; the suffix is kept) and covers every occurrence of
 * every such name, so it is an alpha-renaming: the function computes the
 * same. Left alone: other names (`i`, `acc`, `Math`, `Float64Array`),
 * property names after a single `.` (`Math.log2`, `H.pow2`), numeric
 * literals (`1e15`, `0x1f`), strings and comments.
 */

/** Strings and comments (kept as they are), or a name (group 1) with what precedes it. */
const TOKEN = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\/|(?<![\w$])([A-Za-z_$][\w$]*)/g;
/** A generated local: prefix, number, optional suffix. */
const LOCAL = /^([a-z]+)(\d+)(_[\w$]*)?$/;

export function canonicalKernelSource(source: string): string {
  const indexes = new Map<string, Map<string, number>>();
  return source.replace(TOKEN, (token: string, name: string | undefined, offset: number) => {
    if (name === undefined || isPropertyName(source, offset)) return token;
    const local = LOCAL.exec(name);
    if (!local) return token;
    const [, prefix = "", digits = "", suffix = ""] = local;
    let numbers = indexes.get(prefix);
    if (!numbers) indexes.set(prefix, (numbers = new Map()));
    let index = numbers.get(digits);
    if (index === undefined) numbers.set(digits, (index = numbers.size));
    return `${prefix}${index}${suffix}`;
  });
}

/** Whether the name at `offset` follows a single `.` (a property access; `...name` is a spread of the name). */
function isPropertyName(source: string, offset: number): boolean {
  return source[offset - 1] === "." && source[offset - 2] !== ".";
}
