// ReMac's cost model with MNC sketches when the data is local: a matrix A
// whose non-zeros are concentrated in a few columns (98% of them in 50 of
// its 1000 columns), written as csv files with .mtd in a temp dir. The uniform
// (metadata) estimate of nnz(t(A) %*% A) is far off; MNC's is close to the
// runtime's count; on linreg_gd.dml the choice hoists t(A) %*% A with the
// data and does not without it (nor on uniformly placed data of the same
// sizes), as ReMac reports for DFP on skewed (Zipf) data (section 6.3.3).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { findRedundancy, type RedundancyReport } from "../../engine/redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { memoryFileSystem } from "../../engine/files";
import { createSession } from "../../engine/runtime/interpreter";
import { programChains } from "../../engine/redundancy/program-chains";
import { chainCost } from "../../engine/redundancy/chain-cost";
import { chainSketchSizes, sketchSizeTable } from "../../engine/redundancy/chain-sketches";
import type { Factor } from "../../engine/redundancy/chain-terms";
import { DEFAULT_MACHINE_CONSTANTS } from "../../engine/cost";
import { explainRedundancy } from "../../cli/explain-redundancy";
import { repoRoot } from "../repo-root";

const ROWS = 800;
const COLS = 1000;
const PER_ROW = 10;

/** A seeded generator (LCG), so the data is the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** PER_ROW non-zeros per row in distinct columns: each in one of the first `hot` columns with probability `p`, else in any column. */
function skewedMatrix(hot: number, p: number, seed: number): number[][] {
  const rand = generator(seed);
  const rows: number[][] = [];
  for (let i = 0; i < ROWS; i++) {
    const row = new Array<number>(COLS).fill(0);
    for (let placed = 0; placed < PER_ROW; ) {
      const j = Math.floor(rand() * (rand() < p ? hot : COLS));
      if (row[j] === 0) {
        row[j] = 1 + Math.floor(rand() * 9);
        placed++;
      }
    }
    rows.push(row);
  }
  return rows;
}

const csv = (m: number[][]) => m.map((r) => r.join(",")).join("\n") + "\n";
const mtd = (m: number[][]) => JSON.stringify({ data_type: "matrix", rows: m.length, cols: m[0]!.length, nnz: m.flat().filter((v) => v !== 0).length, format: "csv" });

const gd = readFileSync(path.join(repoRoot, "examples", "linreg_gd.dml"), "utf8");
const skewed = skewedMatrix(50, 0.98, 7);
const uniform = skewedMatrix(COLS, 1, 7);
const b = Array.from({ length: ROWS }, (_, i) => [(i % 7) + 1]);

let dir = "";
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "dml-mnc-"));
  for (const [name, m] of [["skewed", skewed], ["uniform", uniform], ["b", b]] as const) {
    writeFileSync(path.join(dir, `${name}.csv`), csv(m));
    writeFileSync(path.join(dir, `${name}.csv.mtd`), mtd(m));
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

function analysis(text: string, a: string, withData = true) {
  const parameters = new Map([["A", `${a}.csv`], ["b", "b.csv"]]);
  if (withData) return analyzeText(text, { scriptPath: path.join(dir, "s.dml"), parameters });
  // The same metadata without the data files: only rows, cols and nnz are known.
  const fs = memoryFileSystem({ "/w/skewed.csv.mtd": mtd(skewed), "/w/b.csv.mtd": mtd(b) });
  return analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs, parameters });
}

/** nnz of t(A) %*% A as the runtime computes it. */
function runtimeNnz(a: string): number {
  const lines: string[] = [];
  const result = createSession({ scriptPath: path.join(dir, "t.dml"), print: (l) => lines.push(l) }).runScript(`A = read("${a}.csv")\nprint(sum(t(A) %*% A != 0))\n`);
  assert.deepEqual(result.errors, []);
  return Number(lines[0]);
}

/** The factors t(A), A of the first chain that starts with them (in `AtA = t(A) %*% A %*% x`-like chains). */
function tAA(text: string, a: string, withData = true): Factor[] {
  const program = programChains(analysis(text, a, withData), text, { expectedIterations: 10 });
  const chain = program.chains.find((c) => c.product.factors.length >= 2 && c.product.factors[0]!.atom.name === "A" && c.product.factors[0]!.transposed && c.product.factors[1]!.atom.name === "A" && !c.product.factors[1]!.transposed);
  assert.ok(chain, "no chain t(A) %*% A ...");
  return chain.product.factors.slice(0, 2);
}

const withoutSketches = (factors: Factor[]): Factor[] =>
  factors.map((f) => {
    const { sketch: _sketch, ...atom } = f.atom;
    return { ...f, atom };
  });

const chosen = (r: RedundancyReport) => r.plans.chosen.options.map((id) => r.options.find((o) => o.id === id)!.expression);
const ata = (r: RedundancyReport) => r.options.find((o) => o.kind === "lse" && o.expression === "t(A) %*% A")!;

describe("redundancy costs with MNC sketches of local data", () => {
  it("skewed A: nnz(t(A) %*% A) by MNC is close to the runtime's count, the uniform estimate is not", () => {
    const script = "A = read($A)\nx = matrix(1, rows=ncol(A), cols=1)\ny = t(A) %*% A %*% x\nprint(sum(y))\n";
    const factors = tAA(script, "skewed");
    assert.ok(factors.every((f) => f.atom.sketch?.origin === "data"), "A carries the sketch of its data");
    const mnc = chainCost(factors)!;
    const flat = chainCost(withoutSketches(factors))!;
    assert.equal(mnc.estimator, "mnc");
    assert.equal(flat.estimator, "uniform");
    const truth = runtimeNnz("skewed");
    assert.ok(Math.abs(mnc.size.nnz - truth) <= 0.25 * truth, `MNC ${mnc.size.nnz} vs true ${truth}`);
    assert.ok(flat.size.nnz > 10 * truth, `uniform ${flat.size.nnz} vs true ${truth}`);
    // Without the data the same chain has no sketch: the uniform estimate, as before.
    const metadataOnly = tAA(script, "skewed", false);
    assert.ok(metadataOnly.every((f) => f.atom.sketch === undefined));
    assert.equal(chainCost(metadataOnly)!.size.nnz, flat.size.nnz);
  });

  it("uniformly placed A: MNC agrees with the runtime and with the uniform estimate", () => {
    const script = "A = read($A)\nx = matrix(1, rows=ncol(A), cols=1)\ny = t(A) %*% A %*% x\nprint(sum(y))\n";
    const factors = tAA(script, "uniform");
    const mnc = chainCost(factors)!.size.nnz;
    const flat = chainCost(withoutSketches(factors))!.size.nnz;
    const truth = runtimeNnz("uniform");
    assert.ok(Math.abs(mnc - truth) <= 0.1 * truth, `MNC ${mnc} vs true ${truth}`);
    assert.ok(Math.abs(flat - truth) <= 0.1 * truth, `uniform ${flat} vs true ${truth}`);
  });

  it("linreg_gd.dml: with the skewed data the choice hoists t(A) %*% A; without the data, or on uniform data of the same sizes, it does not", () => {
    const local = findRedundancy(analysis(gd, "skewed"), gd);
    const none = findRedundancy(analysis(gd, "skewed", false), gd);
    const flat = findRedundancy(analysis(gd, "uniform"), gd);
    assert.equal(ata(local).estimator, "mnc");
    assert.equal(ata(none).estimator, "uniform");
    assert.equal(ata(flat).estimator, "mnc");
    assert.deepEqual(local.sketched, ["A", "b"]);
    assert.deepEqual(none.sketched, []);
    assert.ok(ata(local).saving > 0, `saving with MNC ${ata(local).saving}`);
    assert.ok(ata(none).saving < 0 && ata(flat).saving < 0, `savings ${ata(none).saving}, ${ata(flat).saving}`);
    assert.ok(chosen(local).includes("t(A) %*% A"), chosen(local).join(", "));
    assert.ok(!chosen(none).includes("t(A) %*% A"), chosen(none).join(", "));
    assert.ok(!chosen(flat).includes("t(A) %*% A"), chosen(flat).join(", "));
    assert.ok(local.plans.chosen.cost < local.originalCost && local.plans.chosen.cost <= local.plans.aggressive.cost);
  });

  it("dml explain says which estimate each option's costs rest on", () => {
    const withData = explainRedundancy(analysis(gd, "skewed"), gd, "linreg_gd.dml").text.split("\n");
    assert.ok(withData.includes("  nnz estimates: MNC sketches of A, b (their data or structure is known) in the products they enter; uniform elsewhere"), withData.join("\n"));
    assert.ok(withData.some((l) => /^ {2}lse AtA = t\(A\) %\*% A .*: saves \d.*, nnz: MNC$/.test(l)), withData.join("\n"));
    const without = explainRedundancy(analysis(gd, "skewed", false), gd, "linreg_gd.dml").text.split("\n");
    assert.ok(!without.some((l) => l.includes("nnz estimates")));
    assert.ok(without.some((l) => /^ {2}lse AtA = t\(A\) %\*% A .*costs more.*, nnz: uniform$/.test(l)), without.join("\n"));
  });

  it("sub-chain sketches are cached per chain; the work bound (a count) leaves the rest to the uniform formula", () => {
    const script = "A = read($A)\nx = matrix(1, rows=ncol(A), cols=1)\ny = t(A) %*% A %*% t(A) %*% A %*% x\nprint(sum(y))\n";
    const program = programChains(analysis(script, "skewed"), script, { expectedIterations: 10 });
    const factors = program.chains.find((c) => c.product.factors.length === 5)!.product.factors;
    const table = chainSketchSizes(factors)!;
    assert.equal(chainSketchSizes(factors), table, "cached for the same chain");
    // Every sub-chain: x = matrix(1, ...) has the sketch of its known structure too.
    assert.equal(table.mncProducts, 10);
    assert.equal(table.truncated, false);
    // The same sub-chain's sketch is one object wherever it occurs.
    assert.equal(table.sketch(0, 1), table.sketch(2, 3));
    const bounded = sketchSizeTable(factors, DEFAULT_MACHINE_CONSTANTS, 3 * (COLS + ROWS + COLS))!;
    assert.equal(bounded.mncProducts, 3);
    assert.equal(bounded.truncated, true);
    assert.equal(bounded.size(0, 1).nnz, table.size(0, 1).nnz);
    assert.equal(bounded.sketch(0, 3), undefined);
  });
});
