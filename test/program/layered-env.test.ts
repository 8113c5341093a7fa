// LayeredEnv (engine/program/layered-env.ts): the immutable environment of the
// type, size and definite-assignment walks. A property test compares every
// operation with plain Maps, across forks, joins and the flattening of deep
// environments.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import fc from "fast-check";
import { LayeredEnv } from "../../engine/program/layered-env";

const join = (x: number | undefined, y: number | undefined) => Math.max(x ?? -1, y ?? -1);

function mapJoin(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, join(out.get(k), v));
  return out;
}

test("updates add layers; the old environment is unchanged", () => {
  const base = LayeredEnv.of([["x", 1]]);
  const next = base.with([["y", 2], ["x", 3]]);
  assert.equal(base.get("x"), 1);
  assert.equal(base.get("y"), undefined);
  assert.deepEqual(new Map(next.entries()), new Map([["x", 3], ["y", 2]]));
  assert.equal(base.with([]), base);
});

test("a join looks only at the names set since the common ancestor", () => {
  const base = LayeredEnv.of(Array.from({ length: 1000 }, (_, i) => [`v${i}`, i] as const));
  const a = base.with([["v1", 50]]);
  const b = base.with([["v2", 60], ["new", 7]]);
  assert.deepEqual([...LayeredEnv.namesSetApart(a, b)].sort(), ["new", "v1", "v2"]);
  const joined = LayeredEnv.join(a, b, join);
  assert.equal(joined.get("v1"), 50);
  assert.equal(joined.get("v2"), 60);
  assert.equal(joined.get("new"), 7);
  assert.equal(joined.get("v999"), 999);
  assert.ok(LayeredEnv.same(a, a.with([["v1", 50]]), (x, y) => x === y));
  assert.ok(!LayeredEnv.same(a, b, (x, y) => x === y));
});

test("forks, updates and joins agree with plain maps, also past the flattening depth", () => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), entries: fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), fc.integer({ min: 0, max: 9 })), { maxLength: 3 }) }),
    fc.record({ kind: fc.constant("branch" as const), left: fc.integer({ min: 0, max: 40 }), right: fc.integer({ min: 0, max: 40 }), seed: fc.integer({ min: 0, max: 9 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      let env = LayeredEnv.of<number>();
      let map = new Map<string, number>();
      for (const s of steps) {
        if (s.kind === "set") {
          env = env.with(s.entries);
          for (const [k, v] of s.entries) map.set(k, v);
        } else {
          // Two paths of many single updates each (deeper than the flattening depth), then their join.
          let [ea, eb, ma, mb] = [env, env, new Map(map), new Map(map)];
          for (let i = 0; i < s.left; i++) [ea, ma] = [ea.with([[`k${(i + s.seed) % 7}`, i]]), ma.set(`k${(i + s.seed) % 7}`, i)];
          for (let i = 0; i < s.right; i++) [eb, mb] = [eb.with([[`k${(i * 3) % 7}`, i + 1]]), mb.set(`k${(i * 3) % 7}`, i + 1)];
          const same = [...ma].length === [...mb].length && [...ma].every(([k, v]) => mb.get(k) === v);
          assert.equal(LayeredEnv.same(ea, eb, (x, y) => x === y), same);
          env = LayeredEnv.join(ea, eb, join);
          map = mapJoin(ma, mb);
        }
        assert.deepEqual(new Map([...env.entries()].sort()), new Map([...map].sort()));
      }
    }),
  );
});
