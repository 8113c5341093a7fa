// `dml bench e2e` at tiny sizes: the rows of the report, their targets, and
// that our three plan modes and numpy print the same numbers (when numpy is
// installed; else its rows say why). Also the pieces: reads taken out of a
// script, printed numbers, the Matrix Market ratings file.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { benchSuites } from "../../cli/bench";
import { QUICK_E2E_SIZES, runE2eBench } from "../../cli/bench-e2e";
import { writeRatings } from "../../cli/bench-e2e-data";
import { printedNumbers, readScriptData, splitReads } from "../../cli/bench-e2e-session";
import type { BenchRow } from "../../cli/bench-report";

test("splitReads blanks `X = read($X)` lines and keeps every other line where it was", () => {
  const text = "# %% load\nX = read($X)\n  y = read( $Y )  # labels\nZ = read(\"f.csv\")\nn = nrow(X)";
  const split = splitReads(text);
  assert.deepEqual([...split.variables], [["X", "X"], ["y", "Y"]]);
  assert.equal(split.rest, "# %% load\n\n\nZ = read(\"f.csv\")\nn = nrow(X)");
  assert.equal(split.reads, "X = read($X)\n  y = read( $Y )  # labels");
});

test("printedNumbers takes the number each line ends with, in DML's print forms", () => {
  assert.deepEqual(printedNumbers(["iteration 0: loss 1.2757755808364965E7", "training accuracy: 0.5", "initial loss: -3", "x: 1.0E-4", "no number"]), [12757755.808364965, 0.5, -3, 0.0001, Number.NaN]);
});

test("the ratings file: distinct cells rated 1..5 in Matrix Market with its .mtd, read by the runtime", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-e2e-test-"));
  try {
    const file = writeRatings(dir, 30, 20, 100);
    const lines = readFileSync(file.path, "utf8").trim().split("\n");
    assert.equal(lines[1], "30 20 100");
    const cells = lines.slice(2).map((l) => l.split(" ").map(Number));
    assert.equal(new Set(cells.map(([i, j]) => `${i},${j}`)).size, 100);
    for (const [i, j, v] of cells) assert.ok(i! >= 1 && i! <= 30 && j! >= 1 && j! <= 20 && [1, 2, 3, 4, 5].includes(v!));
    assert.deepEqual(new Set(cells.map((c) => c[2])), new Set([1, 2, 3, 4, 5]));
    const { data, errors } = readScriptData("X = read($X)", path.join(dir, "s.dml"), { X: file.path });
    assert.deepEqual(errors, []);
    const X = data.get("X");
    assert.ok(X?.kind === "matrix" && X.matrix.rows === 30 && X.matrix.cols === 20 && X.matrix.nnz() === 100);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("e2e is a suite of dml bench", () => {
  assert.ok("e2e" in benchSuites);
});

test("bench e2e at tiny sizes: rows, targets, iterations, same numbers in every plan mode and in numpy", { timeout: 300_000 }, () => {
  const rows = runE2eBench({ sizes: QUICK_E2E_SIZES });
  const byCase = (prefix: string): BenchRow[] => rows.filter((r) => r.case.startsWith(prefix));
  // ALS-CG: as-written, rewritten, numpy sparse-aware and straightforward; the four others: as-written and numpy; the overhead row.
  assert.equal(rows.length, 4 + 4 * 2 + 1, rows.map((r) => r.case).join(" | "));
  for (const r of rows) {
    assert.equal(r.suite, "e2e");
    assert.ok(typeof r.ours_ms === "number" && r.ours_ms >= 0, JSON.stringify(r));
    assert.notEqual(r.failed, true, JSON.stringify(r));
  }
  const a = QUICK_E2E_SIZES.als;
  const als = byCase(`ALS-CG ${a.rows}x${a.cols} (${a.entries} ratings 1..5), rank ${a.rank}, maxi ${a.maxi}: fused vs `);
  assert.deepEqual(
    als.map((r) => [r.baseline, r.target]),
    [
      ["ours as-written", ">= 10x"],
      ["ours rewritten", "none"],
      ["numpy sparse-aware (scipy.sparse)", ">= 1.5x"],
      ["numpy straightforward (dense)", "none"],
    ],
  );
  for (const r of als) assert.equal(r.iterations, a.maxi);
  const { rows: n, cols: d } = QUICK_E2E_SIZES.dense;
  for (const algorithm of ["l2svm", "glm_logit", "mlogreg", "kmeans"] as const) {
    const found = byCase(`${algorithm} ${n}x${d} (`);
    assert.deepEqual(found.map((r) => [r.baseline, r.target]), [["ours as-written", ">= 3x"], ["numpy", "within 2x (ratio >= 0.5)"]], algorithm);
    const maxi = QUICK_E2E_SIZES.params[algorithm]["maxi"]!;
    for (const r of found) {
      // glm_logit and mlogreg always run maxi iterations; l2svm and kmeans may stop earlier.
      if (algorithm === "glm_logit" || algorithm === "mlogreg") assert.equal(r.iterations, maxi);
      else assert.ok((r.iterations as number) >= 1 && (r.iterations as number) <= maxi);
      assert.match(String(r.parameters), new RegExp(`maxi=${maxi}`));
    }
  }
  for (const r of rows.filter((r) => r.baseline !== "none")) {
    if (r.baseline_ms === null) {
      // only numpy may be missing, and then the row says why
      assert.ok(r.baseline.startsWith("numpy"), JSON.stringify(r));
      assert.match(String(r.note), /python3|numpy|scipy/);
      assert.equal(r.target_met ?? false, false);
      continue;
    }
    const ratio = (r.baseline_ms as number) / r.ours_ms;
    assert.ok(Math.abs((r.ratio as number) - ratio) <= 1e-3 * Math.max(1, ratio) + 1e-3, JSON.stringify(r));
    // The second fused run (JIT warm) printed the same numbers (else the row fails) and has its own ratio.
    assert.ok(typeof r.warm_ms === "number" && r.warm_ms > 0 && typeof r.warm_compile_ms === "number", JSON.stringify(r));
    const warmRatio = (r.baseline_ms as number) / (r.warm_ms as number);
    assert.ok(Math.abs((r.warm_ratio as number) - warmRatio) <= 1e-3 * Math.max(1, warmRatio) + 1e-3, JSON.stringify(r));
    const limit = r.baseline.startsWith("numpy") ? 1e-6 : 1e-9;
    assert.ok((r.max_relative_difference as number) <= limit, JSON.stringify(r));
    const target = /^>= ([\d.]+)x$|ratio >= ([\d.]+)\)$/.exec(String(r.target));
    if (target) assert.equal(r.target_met, (r.ratio as number) >= Number(target[1] ?? target[2]), JSON.stringify(r));
    else assert.equal(r.target, "none");
    if (r.baseline.startsWith("numpy")) assert.match(String(r.numpy_env), /numpy \d+\.\d+/);
  }
  const overhead = byCase("planning and compilation per block (fused)");
  assert.equal(overhead.length, 1);
  const o = overhead[0]!;
  assert.match(o.case, /^planning and compilation per block \(fused\), \d+ blocks of 5 runs of examples\/\*\.dml$/);
  assert.ok(Number(/, (\d+) blocks/.exec(o.case)![1]) > 0);
  assert.ok((o.median_ms as number) <= (o.max_ms as number));
  assert.equal(o.target, "median <= 50 ms");
  assert.equal(o.target_met, (o.median_ms as number) <= 50);
  assert.equal(o.scripts, "als_cg.dml, l2svm.dml, glm_logit.dml, mlogreg.dml, kmeans.dml");
});
