/**
 * An immutable map from variable names to what an analysis knows about them
 * (types, sizes), for walks over statement blocks that fork and join
 * environments at every `if` and loop.
 *
 * A copied `Map` per block makes such a walk quadratic (every block of a
 * long script copies every variable). Here an update adds a layer on top of
 * the environment it came from, and a join or comparison of two
 * environments looks only at the names set since their common ancestor:
 * what a branch or a loop body assigned. Lookups walk at most
 * MAX_DEPTH layers; a deeper environment is flattened into one layer (it
 * then shares no ancestor with older ones, and a join over it visits every
 * name once, which is correct, only slower).
 */

const MAX_DEPTH = 32;

export class LayeredEnv<V> {
  private constructor(
    private readonly parent: LayeredEnv<V> | undefined,
    private readonly own: ReadonlyMap<string, V>,
    private readonly depth: number,
  ) {}

  static of<V>(entries: Iterable<readonly [string, V]> = []): LayeredEnv<V> {
    return new LayeredEnv<V>(undefined, new Map(entries), 0);
  }

  get(name: string): V | undefined {
    for (let env: LayeredEnv<V> | undefined = this; env; env = env.parent) {
      const value = env.own.get(name);
      if (value !== undefined || env.own.has(name)) return value;
    }
    return undefined;
  }

  /** This environment with `entries` set (no new layer when there are none). */
  with(entries: Iterable<readonly [string, V]>): LayeredEnv<V> {
    const own = new Map(entries);
    if (own.size === 0) return this;
    if (this.depth + 1 < MAX_DEPTH) return new LayeredEnv(this, own, this.depth + 1);
    const flat = new Map(this.entries());
    for (const [name, value] of own) flat.set(name, value);
    return new LayeredEnv<V>(undefined, flat, 0);
  }

  /** Every name with its current value. */
  *entries(): IterableIterator<[string, V]> {
    const seen = new Set<string>();
    for (let env: LayeredEnv<V> | undefined = this; env; env = env.parent) {
      for (const [name, value] of env.own) {
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

  /** The nearest layer both environments are built on, and the names set above it on either side. */
  private static divergence<V>(a: LayeredEnv<V>, b: LayeredEnv<V>): { ancestor: LayeredEnv<V> | undefined; names: Set<string> } {
    const chainOf = (env: LayeredEnv<V>) => {
      const chain: LayeredEnv<V>[] = [];
      for (let e: LayeredEnv<V> | undefined = env; e; e = e.parent) chain.push(e);
      return chain;
    };
    const chainA = chainOf(a);
    const inA = new Set(chainA);
    const chainB = chainOf(b);
    const ancestor = chainB.find((e) => inA.has(e));
    const names = new Set<string>();
    for (const chain of [chainA, chainB]) {
      for (const env of chain) {
        if (env === ancestor) break;
        for (const name of env.own.keys()) names.add(name);
      }
    }
    return { ancestor, names };
  }
}
