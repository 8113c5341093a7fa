// Generated MAgg operators (engine/runtime/codegen/magg-operator.ts):
// several full aggregates over one domain in one generated loop, each
// equal to its unfused value to 1e-12 relative, over dense and CSR main
// inputs, sparse-safe or not, with broadcasts, NaN / Inf cells, empty
// rows and columns, a matrix without rows; planned and hand-built.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UnsupportedOperator } from "../../engine/runtime/codegen";
import { handOperator, prepareBlock, type HandOperator } from "../fusion/fused-check";
import { DATA, withAggregate } from "./cell-fixtures";
import { runGenerated } from "./generated-check";

function magg(roots: string[], main: string | null, sparseSafe = false): HandOperator {
  return { template: "magg", roots, main, sparseSafe };
}

function printed(roots: string[]): string {
  return roots.map((r, k) => `s${k} = ${r}\nprint(s${k})`).join("\n");
}

function assertMagg(roots: string[], main: string | null, sparseSafe = false): string {
  const checked = prepareBlock(DATA, printed(roots));
  const run = runGenerated(checked, handOperator(checked.block, magg(roots, main, sparseSafe)));
  assert.equal(run.difference, undefined, roots.join("; "));
  assert.equal(run.generated.programs.length >= 1, true);
  return run.generated.programs[0]!.source;
}

describe("generated MAgg operators", () => {
  it("sum(X^2), sum(X * Y), sum(Y^2) in one loop over dense inputs", () => {
    const source = assertMagg(["sum(D^2)", "sum(D * Y)", "sum(Y^2)"], "D");
    // one loop, over the flattened cells two at a time (cell-folds.ts, paired)
    assert.equal(source.match(/for \(let (?:i|pair) = r0/g)?.length, 1, "one loop");
    assert.match(source, /acc\[0\] \+= t;.*acc\[1\]/);
    assert.match(source, /acc\[4\] \+= t;.*acc\[5\]/);
  });
  it("every full aggregate function at once, each with its own slots", () => {
    const roots = ["sum(D * Y)", "mean(D + r)", "min(D - c)", "max(D * 2)", "prod(D * 0.1 + 1)"];
    const source = assertMagg(roots, "D");
    assert.match(source, /acc\[4\] = Math\.min/);
    assert.match(source, /acc\[5\] = Math\.max/);
    assert.match(source, /acc\[6\] \*=/);
  });
  it("over the non-zeros of a sparse-safe CSR main input, zeros folded into min, max and prod", () => {
    const source = assertMagg(["sum(X * Y)", "min(X * 2)", "max(X * S)", "prod(X + 0)", "mean(X * r)"], "X", true);
    assert.match(source, /mrp/);
    assertMagg(["sum(E * Y)", "min(E * 2)", "max(E)"], "E", true);
  });
  it("a CSR main input that is not sparse-safe, NaN / Inf cells, a matrix without rows", () => {
    assertMagg(["sum(X + 1)", "min(X - 1)"], "X");
    assertMagg(["sum(N * 2)", "max(N)", "min(N + 1)", "sum(I)"], "N");
    assertMagg(["sum(Z0 + 1)", "min(Z0 * r)", "prod(Z0 + 2)", "mean(Z0 + 1)"], "Z0");
  });
  it("sumSq and a dot product with other aggregates", () => {
    const roots = ["sum(D * Y)", "sum(D - 1)"];
    const checked = withAggregate(prepareBlock(DATA, printed(roots)), "sum(D - 1)", "sumSq");
    const run = runGenerated(checked, handOperator(checked.block, magg(roots, "D")));
    assert.equal(run.difference, undefined);
    assertMagg(["t(x) %*% y", "sum(x * 2)", "max(y)"], "x");
  });
  it("roots that are not full aggregates, or over different domains, are unsupported", () => {
    const rows = prepareBlock(DATA, "R = rowSums(D)\nprint(toString(R))\ns = sum(D)\nprint(s)");
    assert.throws(() => runGenerated(rows, handOperator(rows.block, magg(["rowSums(D)", "sum(D)"], "D"))), (e: unknown) => e instanceof UnsupportedOperator && /full aggregate/.test(e.message));
    const domains = prepareBlock(DATA, printed(["sum(D)", "sum(c)"]));
    assert.throws(() => runGenerated(domains, handOperator(domains.block, magg(["sum(D)", "sum(c)"], "D"))), (e: unknown) => e instanceof UnsupportedOperator && /different domains/.test(e.message));
  });
  it("the MAgg operators the planner chooses agree with the unfused values", () => {
    const blocks = [printed(["sum(D^2)", "sum(D * Y)", "sum(Y^2)"]), printed(["sum(X * Y)", "sum(X^2)", "sum(Y)"]), printed(["min(D * Y)", "max(D * Y)", "sum(D)"])];
    let generated = 0;
    for (const block of blocks) {
      const checked = prepareBlock(DATA, block);
      for (const op of checked.block.plan.operators.filter((o) => o.template === "magg")) {
        assert.equal(runGenerated(checked, op).difference, undefined, block);
        generated++;
      }
    }
    assert.ok(generated >= 2, `only ${generated} MAgg operators planned`);
  });
});
