// Canonical kernel sources (engine/runtime/codegen/kernel-canonical.ts):
// names built from node ids are renamed in order of first appearance, so
// kernels that differ only in those ids are one source; property names,
// globals, numeric literals and strings stay; the renamed function computes
// the same (property test over random kernels); and two generated operators
// over different nodes share one compiled function (kernel-cache.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { kernelCacheCounts } from "../../engine/runtime/codegen";
import { canonicalKernelSource } from "../../engine/runtime/codegen/kernel-canonical";
import { handOperator, prepareBlock } from "../fusion/fused-check";
import { DATA } from "./cell-fixtures";
import { runGenerated } from "./generated-check";

describe("canonical kernel sources", () => {
  it("renames generated locals by first appearance, per prefix, keeping suffixes", () => {
    const a = "const d13 = a[0]; const w13 = s[1] | 0; const l13 = d13[i * w13]; const t23 = l13 * d13_ji; out[0] = t23 + d7;";
    const b = "const d15 = a[0]; const w15 = s[1] | 0; const l15 = d15[i * w15]; const t25 = l15 * d15_ji; out[0] = t25 + d2;";
    assert.equal(canonicalKernelSource(a), "const d0 = a[0]; const w0 = s[1] | 0; const l0 = d0[i * w0]; const t0 = l0 * d0_ji; out[0] = t0 + d1;");
    assert.equal(canonicalKernelSource(a), canonicalKernelSource(b));
  });
  it("keeps distinct names distinct: a kernel whose names are swapped is another kernel", () => {
    const x = "const d1 = a[0], d2 = a[1]; acc[0] = d1[0] - d2[0];";
    const y = "const d2 = a[0], d1 = a[1]; acc[0] = d1[0] - d2[0];";
    assert.equal(canonicalKernelSource(x), "const d0 = a[0], d1 = a[1]; acc[0] = d0[0] - d1[0];");
    assert.notEqual(canonicalKernelSource(x), canonicalKernelSource(y));
  });
  it("leaves properties, globals, other names, numeric literals, strings and comments alone; renames spreads", () => {
    const text = 'const x9 = Math.log2(H.pow2(v3)) + 1e15 + 0x1f + Float64Array.BYTES_PER_ELEMENT; f(...x9); // d13\nconst s = "t23";';
    assert.equal(canonicalKernelSource(text), 'const x0 = Math.log2(H.pow2(v0)) + 1e15 + 0x1f + Float64Array.BYTES_PER_ELEMENT; f(...x0); // d13\nconst s = "t23";');
  });
  it("a renamed kernel computes what the original does (random expressions over random node ids)", () => {
    const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom("l", "t", "d").chain((p) => fc.nat(40).map((id) => `${p}${id}`)),
        fc.double({ min: -4, max: 4, noNaN: true }).map((v) => `(${v})`),
        fc.tuple(tie("e"), fc.constantFrom("+", "-", "*"), tie("e")).map(([l, op, r]) => `(${l} ${op} ${r})`),
        tie("e").map((e) => `Math.abs(${e})`),
      ),
    })).e;
    fc.assert(
      fc.property(expression, fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 3, maxLength: 3 }), (e, xs) => {
        // every name the expression uses is declared from the inputs (by its prefix and id)
        const names = [...new Set(e.match(/\b[ltd]\d+\b/g) ?? [])];
        const declarations = names.map((n) => `const ${n} = a[${"ltd".indexOf(n[0]!)}] * ${Number(n.slice(1)) + 1};`).join(" ");
        const body = `${declarations} return ${e};`;
        const original = new Function("a", body) as (a: number[]) => number;
        const renamed = new Function("a", canonicalKernelSource(body)) as (a: number[]) => number;
        assert.ok(Object.is(renamed(xs), original(xs)), `${body}\n${canonicalKernelSource(body)}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the kernel cache shares one function between kernels that differ only in node ids", () => {
  it("sum(D^2) and sum(Y^2) are one compiled kernel", () => {
    const op = (root: string) => ({ template: "cell" as const, roots: [root], main: null, sparseSafe: false, materialized: [] });
    const first = prepareBlock(DATA, "a = sum(D^2)\nprint(a)");
    const firstRun = runGenerated(first, handOperator(first.block, op("sum(D^2)")));
    assert.equal(firstRun.difference, undefined);
    const second = prepareBlock(DATA, "b = 1 + 2\nc = sum(Y^2)\nprint(b + c)");
    const generated = handOperator(second.block, op("sum(Y^2)"));
    const before = kernelCacheCounts();
    const secondRun = runGenerated(second, generated);
    const after = kernelCacheCounts();
    assert.equal(secondRun.difference, undefined);
    const [a] = firstRun.generated.programs;
    const [b] = secondRun.generated.programs;
    assert.ok(a && b, "both ran a kernel");
    assert.notEqual(a.source, b.source, "the generated sources name different nodes");
    assert.equal(canonicalKernelSource(a.source), canonicalKernelSource(b.source));
    assert.equal(after.compiled, before.compiled, "no new function was compiled");
    assert.ok(after.hits > before.hits);
  });
});
