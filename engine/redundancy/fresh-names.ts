/**
 * Readable names for shared temporaries, from the matrices of the
 * expression: `A %*% d` is `Ad`, `t(A) %*% A` is `AtA` (a transposed
 * matrix is followed by `t`), opaque operands give `tmp`. A name already
 * used in the script or by an earlier option gets a number (`Ad2`).
 */
import type { Factor } from "./chain-terms";

const MAX_BASE_LENGTH = 24;

export function baseName(factors: readonly Factor[]): string {
  const parts = factors.map((f) => `${f.atom.name ?? "tmp"}${f.transposed && !f.atom.symmetric ? "t" : ""}`);
  let name = parts.join("").replace(/[^A-Za-z0-9_]/g, "");
  if (!/^[A-Za-z]/.test(name)) name = `m${name}`;
  return name.length > MAX_BASE_LENGTH ? name.slice(0, MAX_BASE_LENGTH) : name;
}

export class FreshNames {
  private readonly taken: Set<string>;
  constructor(used: Iterable<string>) {
    this.taken = new Set(used);
  }
  take(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }
}
