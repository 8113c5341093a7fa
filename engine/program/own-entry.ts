/**
 * The value a lookup table holds under `key` as its own entry, or undefined:
 * a name such as `toString` or `constructor` is not an entry even though
 * every object inherits one.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
