// `dml bench calibrate`: the microbenchmark kernels compute the right thing,
// the suite stores the constants where DML_LENS_MACHINE says and its rows
// follow the bench contract.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { runCalibrateBench } from "../../cli/bench-calibrate";
import { blockedGemm, csrSpmv, randomCsr, randomDense, seededRandom, streamingSum } from "../../cli/calibrate-kernels";
import { DEFAULT_MACHINE_CONSTANTS, loadMachineConstants } from "../../engine/cost";
import { repoRoot } from "../repo-root";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-calibrate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("kernels", () => {
  test("blocked GEMM equals the naive triple loop, ragged blocks included", () => {
    const random = seededRandom(7);
    const [m, k, n] = [5, 7, 3];
    const a = randomDense(m * k, random);
    const b = randomDense(k * n, random);
    for (const block of [2, 64]) {
      const c = new Float64Array(m * n);
      blockedGemm(a, b, c, m, k, n, block);
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let expected = 0;
          for (let p = 0; p < k; p++) expected += a[i * k + p]! * b[p * n + j]!;
          assert.ok(Math.abs(c[i * n + j]! - expected) < 1e-12, `block ${block}, (${i}, ${j})`);
        }
      }
    }
  });

  test("random CSR rows have the asked number of sorted, distinct columns; SpMV matches a dense product", () => {
    const random = seededRandom(3);
    const a = randomCsr(20, 50, 4, random);
    const dense = new Float64Array(20 * 50);
    for (let i = 0; i < a.rows; i++) {
      assert.equal(a.rowPtr[i + 1]! - a.rowPtr[i]!, 4);
      for (let p = a.rowPtr[i]!; p < a.rowPtr[i + 1]!; p++) {
        if (p > a.rowPtr[i]!) assert.ok(a.colIdx[p]! > a.colIdx[p - 1]!);
        dense[i * 50 + a.colIdx[p]!] = a.values[p]!;
      }
    }
    const x = randomDense(50, random);
    const y = new Float64Array(20);
    csrSpmv(a, x, y);
    for (let i = 0; i < 20; i++) {
      let expected = 0;
      for (let j = 0; j < 50; j++) expected += dense[i * 50 + j]! * x[j]!;
      assert.ok(Math.abs(y[i]! - expected) < 1e-12);
    }
  });

  test("streaming sum adds every value", () => {
    assert.equal(streamingSum(new Float64Array([1, 2, 3, 4, 5, 6, 7])), 28);
  });
});

describe("the calibrate suite", () => {
  test("measures four constants, keeps the stored disk bandwidth, stores them, rows follow the contract", () => {
    const file = path.join(dir, "machine.json");
    writeFileSync(file, JSON.stringify({ constants: { ...DEFAULT_MACHINE_CONSTANTS, diskReadBytesPerSecond: 1.23e9 } }));
    const logs: string[] = [];
    const rows = runCalibrateBench({
      streamBytes: 1 << 20,
      gemmSize: 32,
      spmvRows: 1000,
      spmvPerRow: 4,
      numpy: false,
      machineFile: file,
      log: (l) => logs.push(l),
    });
    assert.equal(rows.length, 4);
    for (const row of rows) {
      assert.equal(row.suite, "calibrate");
      assert.equal(row.baseline, "defaults");
      assert.ok(row.ours_ms > 0 && row.baseline_ms !== null && row.ratio !== null);
      assert.ok(Math.abs(row.ratio - row.baseline_ms / row.ours_ms) < 1e-9);
    }
    const loaded = loadMachineConstants(file);
    assert.equal(loaded.source, "file");
    assert.equal(loaded.constants.diskReadBytesPerSecond, 1.23e9);
    const gemmRow = rows.find((r) => r.constant === "flopsPerSecond")!;
    assert.ok(Math.abs(loaded.constants.flopsPerSecond / 1e9 - (gemmRow.measured as number)) < 1e-3);
    assert.match(logs.join("\n"), /stored in .*machine\.json/);
    assert.match(logs.join("\n"), /disk read bandwidth\s+not measured, kept 1\.23 GB\/s/);
  });

  test("npx dml bench calibrate --json: rows of the contract, numpy compared or skipped with a reason", { timeout: 60_000 }, () => {
    const file = path.join(dir, "cli", "machine.json");
    const result = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "bench", "calibrate", "--json"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, DML_LENS_MACHINE: file },
    });
    assert.equal(result.status, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    assert.equal(rows.filter((r) => r.baseline === "defaults").length, 4);
    const numpyRows = rows.filter((r) => String(r.baseline).startsWith("numpy"));
    assert.equal(numpyRows.length, 2);
    for (const r of numpyRows) {
      if (r.baseline_ms === null) assert.match(String(r.note), /skipped/);
      else assert.ok((r.ratio as number) > 0);
    }
    assert.equal(loadMachineConstants(file).source, "file");
  });
});
