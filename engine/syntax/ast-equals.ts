/**
 * Structural equality of AST nodes: what a program means, not where or how
 * it was spelled. Fields named `range` (source locations) and `text` (source
 * slices: a number's spelling, a loop option's raw text) are ignored on every
 * node; a number is compared by `value` and `isInteger`, so `1e3` equals
 * `1000.0`. A field that is `undefined` counts as absent.
 */

const ignoredFields = new Set(["range", "text"]);

export function astEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => astEquals(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = comparedKeys(left);
  const otherKeys = comparedKeys(right);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && astEquals(left[key], right[key]));
}

function comparedKeys(node: Record<string, unknown>): string[] {
  return Object.keys(node).filter((key) => !ignoredFields.has(key) && node[key] !== undefined);
}

/**
 * A deep copy without the fields `astEquals` ignores (and without undefined
 * fields), so that `assert.deepStrictEqual(stripRanges(a), stripRanges(b))`
 * agrees with `astEquals(a, b)` and shows a readable difference.
 */
export function stripRanges<T>(value: T): T {
  if (Array.isArray(value)) return value.map(stripRanges) as T;
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (ignoredFields.has(key) || field === undefined) continue;
    copy[key] = stripRanges(field);
  }
  return copy as T;
}
