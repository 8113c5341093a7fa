// What the results view shows (client/src/results-html.ts) and the variable
// previews behind it (engine/runtime/interpreter/variable-preview.ts): the
// tile grid of the sparsity pattern and the value heatmap, the corner of
// values, escaping.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { densityGrid, previewVariable } from "../../engine/runtime/interpreter/variable-preview";
import { densitySvg, escapeHtml, resultsHtml, valuesSvg } from "../../client/src/results-html";
import { patternOpacity, pictureSize } from "../../client/src/matrix-picture";

function sessionValue(script: string, name: string) {
  const session = createSession({ print: () => undefined });
  const result = session.runCell(script);
  assert.ok(result.ok, result.errors.join("\n"));
  return session.env.get(name)!;
}

test("the density grid: one tile per cell for small matrices, shares of non-zeros per tile for large ones", () => {
  const small = sessionValue('X = matrix("1 0 0 2 0 3", rows=2, cols=3)', "X");
  assert.equal(small.kind, "matrix");
  assert.deepEqual(densityGrid(small.kind === "matrix" ? small.matrix : (undefined as never), 48), { rows: 2, cols: 3, shares: [1, 0, 0, 1, 0, 1], means: [1, 0, 0, 2, 0, 3] });
  // An identity of 100 x 100 on a 4 x 4 grid: diagonal tiles hold 25 of 625 cells, the others none.
  const eye = sessionValue("I = diag(matrix(1, rows=100, cols=1))", "I");
  const grid = densityGrid(eye.kind === "matrix" ? eye.matrix : (undefined as never), 4);
  assert.deepEqual(grid.shares, [0.04, 0, 0, 0, 0, 0.04, 0, 0, 0, 0, 0.04, 0, 0, 0, 0, 0.04]);
  assert.deepEqual(grid.means, grid.shares, "ones on the diagonal: the mean is the share");
});

test("tile means: signed values, sparse storage, uneven tiles and NaN", () => {
  // 5 x 1 on a 2 x 1 grid: rows 0-2 and 3-4; a sparse matrix (mostly zero) stored as CSR.
  const v = sessionValue('V = matrix("4 -1 0 0 -6", rows=5, cols=1)', "V");
  assert.deepEqual(densityGrid(v.kind === "matrix" ? v.matrix : (undefined as never), 2).means, [1, -3]);
  const sparse = sessionValue("S = table(seq(1, 3), seq(1, 3), seq(1, 3) * -2, 30, 30)", "S");
  const grid = densityGrid(sparse.kind === "matrix" ? sparse.matrix : (undefined as never), 3);
  assert.deepEqual(grid.means.map((x) => Math.round(x * 1000) / 1000), [-0.12, 0, 0, 0, 0, 0, 0, 0, 0]);
  const nan = sessionValue("N = matrix(0/0, rows=2, cols=2)", "N");
  assert.ok(densityGrid(nan.kind === "matrix" ? nan.matrix : (undefined as never), 2).means.every(Number.isNaN));
});

test("the value heatmap: positive tiles red, negative blue, as strong as their magnitude; NaN apart; titled, with axes and a legend", () => {
  const M = previewVariable("M", sessionValue('M = matrix("2 0 -1 0/0", rows=2, cols=2)', "M"));
  const svg = valuesSvg(M);
  assert.match(svg, /aria-label="values of M \(mean per square\)"/);
  // A 2 x 2 matrix: 24 px per cell (not a 160 px square), after the 44 px axis margin and the 34 px title.
  assert.match(svg, /<rect x="44\.00" y="34\.00" width="24\.00" height="24\.00" class="positive" fill-opacity="1\.000"\/>/);
  assert.match(svg, /<rect x="44\.00" y="58\.00" width="24\.00" height="24\.00" class="negative" fill-opacity="0\.500"\/>/);
  assert.match(svg, /class="nan"/);
  assert.equal((svg.match(/<rect x="\d+\.\d\d" y="\d+\.\d\d" width="24\.00"/g) ?? []).length, 3, "the zero tile is background");
  assert.match(svg, /class="axis cols">2 cols</);
  assert.match(svg, /class="axis rows"[^>]*>2 rows</);
  assert.match(svg, />positive, up to 2<\/text>/);
  assert.match(svg, />negative, down to -1<\/text>/);
  assert.match(svg, />holds a NaN<\/text>/);
  assert.match(svg, /<figcaption class="range">mean per square from -1 to 2<\/figcaption>/);
});

test("picture geometry: the matrix's aspect ratio, small matrices small, vectors a strip, at most 180 px", () => {
  const grid = (rows: number, cols: number) => ({ rows: Math.min(48, rows), cols: Math.min(48, cols) });
  assert.deepEqual(pictureSize(2, 2, grid(2, 2)), { width: 48, height: 48 });
  assert.deepEqual(pictureSize(2, 3, grid(2, 3)), { width: 72, height: 48 });
  assert.deepEqual(pictureSize(10000, 5000, grid(10000, 5000)), { width: 90, height: 180 });
  // A column vector: 180 px long, 14 px thick (not 1 px).
  assert.deepEqual(pictureSize(10000, 1, grid(10000, 1)), { width: 14, height: 180 });
  assert.deepEqual(pictureSize(1, 5000, grid(1, 5000)), { width: 180, height: 14 });
  // 10000 x 50: 48 tile columns at least 1.5 px each.
  assert.deepEqual(pictureSize(10000, 50, grid(10000, 50)), { width: 72, height: 180 });
  assert.deepEqual(pictureSize(1, 1, grid(1, 1)), { width: 24, height: 24 });
  // A row vector's rows label sits beside the strip, in the singular.
  const r = previewVariable("r", sessionValue("r = rand(rows=1, cols=5000, seed=5)", "r"));
  assert.match(densitySvg(r), /<text x="[\d.]+" y="[\d.]+" class="axis rows">1 row<\/text>/);
  assert.match(densitySvg(r), /class="axis cols">5,000 cols</);
});

test("the sparsity pattern: a tile with any non-zero is coloured, darker the denser (log scale)", () => {
  assert.equal(patternOpacity(0), 0);
  assert.equal(patternOpacity(1), 1);
  assert.equal(patternOpacity(1e-6), 0.3);
  assert.ok(Math.abs(patternOpacity(0.001) - 0.475) < 1e-9);
  assert.ok(patternOpacity(0.001) < patternOpacity(0.01) && patternOpacity(0.01) < patternOpacity(0.5));
  // A 0.1 % random matrix: every tile holds a non-zero and none is near-blank.
  const X = previewVariable("X", sessionValue("X = rand(rows=4000, cols=2000, sparsity=0.001, seed=1)", "X"));
  const svg = densitySvg(X);
  const opacities = [...svg.matchAll(/class="nonzero" fill-opacity="([\d.]+)"/g)].map((m) => Number(m[1]));
  assert.ok(opacities.length >= 48 * 48 * 0.9, `${opacities.length} coloured tiles`);
  assert.ok(opacities.every((o) => o >= 0.3), "visible at low density");
  assert.match(svg, /class="axis rows"[^>]*>4,000 rows</);
  assert.match(svg, /class="axis cols">2,000 cols</);
  assert.match(svg, />some non-zeros \(at least one\)<\/text>/);
  assert.match(svg, />each square: up to 84 × 42 cells<\/text>/);
});

test("previews: a scalar's printed value, a matrix's corner and pattern", () => {
  const s = previewVariable("s", sessionValue("s = 1 / 4", "s"));
  assert.deepEqual([s.kind, s.valueType, s.value], ["scalar", "double", "0.25"]);
  const big = previewVariable("B", sessionValue("B = matrix(seq(1, 200), rows=20, cols=10)", "B"));
  assert.equal(big.corner!.length, 8);
  assert.deepEqual(big.corner![1]!.slice(0, 3), [11, 12, 13]);
  assert.equal(big.density!.shares.every((x) => x === 1), true);
});

test("the page: status, elapsed next to the estimate, output escaped, a pattern per matrix", () => {
  const X = previewVariable("X", sessionValue('X = matrix("1 0 0 2", rows=2, cols=2)', "X"));
  const html = resultsHtml(
    {
      title: "cells.dml: cell 2",
      reply: { id: 1, ok: true, interrupted: false, output: ["a < b & c"], errors: [], variables: [X], ms: 12.5 },
      estimate: { seconds: 0.004, unknown: 1 },
    },
    "vscode-resource:",
  );
  assert.match(html, /done in 12\.5 ms · estimated 4\.00 ms \(\+1 operations of unknown size\)/);
  assert.match(html, /<pre id="output">a &lt; b &amp; c<\/pre>/);
  assert.match(html, /<td class="name">X<\/td><td>matrix<\/td><td>2 × 2, nnz 2, sparsity 0\.500<\/td>/);
  assert.equal((densitySvg(X).match(/class="nonzero" fill-opacity="1\.000"/g) ?? []).length, 3, "two non-zeros and the legend's swatch");
  assert.match(html, /aria-label="sparsity pattern of X"/);
  assert.match(html, /aria-label="values of X \(mean per square\)"/);
  assert.match(html, /<figcaption class="note">all 2 × 2 values<\/figcaption>/);
  assert.doesNotMatch(html, /id="estimate-note"/, "12.5 ms against 4 ms: too close to explain");
  assert.equal(escapeHtml(`"<'&>"`), "&quot;&lt;&#39;&amp;&gt;&quot;");
});
