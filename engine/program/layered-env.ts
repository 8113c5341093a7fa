/**
 * An immutable map from variable names to what an analysis knows about them
 * (types, sizes), for walks over statement blocks that fork and join
 * environments at every `if` and loop.
 *
 * A copied `Map` per block makes such a walk quadratic (every block of a
 * long script copies every variable). Here an update adds a layer on top of
 * the environment it came from, and a join or comparison of two
 * environments looks only at the names set on the two paths from their
 * common ancestor (found by depth, like a lowest common ancestor in a
 * tree): what a branch or a loop body assigned, not every variable.
 *
 * Every SNAPSHOT_EVERY layers an environment also keeps a snapshot of all
 * its names, so a lookup reads at most that many layers and one map.
 */

const SNAPSHOT_EVERY = 64;

export class LayeredEnv<V> {
  /** All names and values, on every SNAPSHOT_EVERY-th layer and the root. */
  private readonly snapshot: ReadonlyMap<string, V> | undefined;

  private constructor(
    private readonly parent: LayeredEnv<V> | undefined,
    private readonly own: ReadonlyMap<string, V>,
    /** Layers below this one (0 for a root). */
    private readonly depth: number,
  ) {
    if (!parent) this.snapshot = own;
    else if (depth % SNAPSHOT_EVERY === 0) this.snapshot = new Map([...parent.entries(), ...own]);
  }

  static of<V>(entries: Iterable<readonly [string, V]> = []): LayeredEnv<V> {
    return new LayeredEnv<V>(undefined, new Map(entries), 0);
  }

  get(name: string): V | undefined {
    for (let env: LayeredEnv<V> | undefined = this; env; env = env.parent) {
      const layer = env.snapshot ?? env.own;
      const value = layer.get(name);
      if (value !== undefined || layer.has(name) || env.snapshot) return value;
    }
    return undefined;
  }

  /** This environment with `entries` set (no new layer when there are none). */
  with(entries: Iterable<readonly [string, V]>): LayeredEnv<V> {
    const own = new Map(entries);
    return own.size === 0 ? this : new LayeredEnv(this, own, this.depth + 1);
  }

  /** Every name with its current value. */
  *entries(): IterableIterator<[string, V]> {
    const layers: ReadonlyMap<string, V>[] = [];
    for (let env: LayeredEnv<V> | undefined = this; env; env = env.parent) {
      layers.push(env.snapshot ?? env.own);
      if (env.snapshot) break;
    }
    const seen = new Set<string>();
    for (const layer of layers) {
      for (const [name, value] of layer) {
        if (seen.has(name)) continue;
        seen.add(name);
        yield [name, value];
      }
    }
  }

  /**
   * The environment after two paths from a common past: each name set on
   * either path since then gets `join` of its two values (undefined where
   * one side does not have it).
   */
  static join<V>(a: LayeredEnv<V>, b: LayeredEnv<V>, join: (x: V | undefined, y: V | undefined) => V): LayeredEnv<V> {
    const { ancestor, names } = LayeredEnv.divergence(a, b);
    const joined: [string, V][] = [];
    for (const name of names) {
      const x = a.get(name);
      const y = b.get(name);
      joined.push([name, x === y ? x! : join(x, y)]);
    }
    return (ancestor ?? LayeredEnv.of<V>()).with(joined);
  }

  /** Whether both have the same names with equal values (`same`), looking only at names set since their common ancestor. */
  static same<V>(a: LayeredEnv<V>, b: LayeredEnv<V>, same: (x: V, y: V) => boolean): boolean {
    for (const name of LayeredEnv.namesSetApart(a, b)) {
      const x = a.get(name);
      const y = b.get(name);
      if (x === y) continue;
      if (x === undefined || y === undefined || !same(x, y)) return false;
    }
    return true;
  }

  /** The names set since the two environments' common past, on either side: a superset of the names where they differ. */
  static namesSetApart<V>(a: LayeredEnv<V>, b: LayeredEnv<V>): ReadonlySet<string> {
    return LayeredEnv.divergence(a, b).names;
  }

  /**
   * The nearest layer both environments are built on, and the names set
   * above it on either side; without one (different roots), every name of
   * both.
   */
  private static divergence<V>(a: LayeredEnv<V>, b: LayeredEnv<V>): { ancestor: LayeredEnv<V> | undefined; names: Set<string> } {
    const names = new Set<string>();
    const climb = (env: LayeredEnv<V>) => {
      for (const name of env.own.keys()) names.add(name);
      return env.parent;
    };
    let [x, y]: (LayeredEnv<V> | undefined)[] = [a, b];
    while (x && y && x.depth > y.depth) x = climb(x);
    while (x && y && y.depth > x.depth) y = climb(y);
    while (x && y && x !== y) [x, y] = [climb(x), climb(y)];
    if (x && x === y) return { ancestor: x, names };
    for (const env of [a, b]) for (const [name] of env.entries()) names.add(name);
    return { ancestor: undefined, names };
  }
}
