/**
 * Readable names for shared temporaries, from the matrices of the
 * expression: `A %*% d` is `Ad`, `t(A) %*% A` is `AtA` (a transposed
 * matrix is followed by `t`), opaque operands give `tmp`. A name already
 * used in the script, by a builtin or by an earlier option gets a number
 * (`Ad_2`): the same rule for the search's names and for applying options.
 */
import { lookupBuiltin } from "../program";
import type { Factor } from "./chain-terms";

const MAX_BASE_LENGTH = 24;

export function baseName(factors: readonly Factor[]): string {
  const parts = factors.map((f) => `${f.atom.name ?? "tmp"}${f.transposed && !f.atom.symmetric ? "t" : ""}`);
  let name = parts.join("").replace(/[^A-Za-z0-9_]/g, "");
  if (!/^[A-Za-z]/.test(name)) name = `m${name}`;
  return name.length > MAX_BASE_LENGTH ? name.slice(0, MAX_BASE_LENGTH) : name;
}

/** `name` when no one uses it, else `name_2`, `name_3`, ... (an invalid name becomes `tmp`). */
export function freshName(name: string, taken: ReadonlySet<string>): string {
  const base = /^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? name : "tmp";
  const free = (candidate: string) => !taken.has(candidate) && lookupBuiltin(candidate) === undefined;
  if (free(base)) return base;
  for (let k = 2; ; k++) if (free(`${base}_${k}`)) return `${base}_${k}`;
}

/** Fresh names for one script's options: each name taken is no longer free. */
export class FreshNames {
  private readonly taken: Set<string>;
  constructor(used: Iterable<string>) {
    this.taken = new Set(used);
  }
  take(base: string): string {
    const name = freshName(base, this.taken);
    this.taken.add(name);
    return name;
  }
}
