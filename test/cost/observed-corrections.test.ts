// The calibration feedback (engine/cost/observed-corrections.ts,
// observed-file.ts, observed-fold.ts): per operation class the median of the
// last observations, clamped; stored beside the machine file; void for other
// constants; folded into the constants only by the calibration command; and
// never read by the language server's estimates and suggestions.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import {
  addObservations,
  constantsKey,
  correctedSeconds,
  correctionOf,
  corrections,
  DEFAULT_MACHINE_CONSTANTS,
  emptyObservedTimes,
  foldObserved,
  loadCorrections,
  loadObservedTimes,
  MAX_CORRECTION,
  MIN_OBSERVATIONS,
  OBSERVATIONS_KEPT,
  observedFilePath,
  recordObservations,
  saveMachineConstants,
  saveObservedTimes,
  type Observation,
} from "../../engine/cost";
import { machineProfiler } from "../../engine/execution";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { runEstimate } from "../../server/src/run-estimate";
import { applyObservedCalibration } from "../../cli/calibrate-observed";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-observed-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const matmul = (ratio: number): Observation => ({ operationClass: "dense matmul", estimatedSeconds: 0.25, measuredSeconds: 0.25 * ratio });

describe("corrections", () => {
  test("the median of the observations, only from MIN_OBSERVATIONS on", () => {
    assert.equal(MIN_OBSERVATIONS, 3);
    assert.equal(correctionOf([2, 2]), undefined);
    assert.equal(correctionOf([2, 3, 4]), 3);
    // An even count: the geometric mean of the two middle ratios.
    assert.equal(correctionOf([1, 4, 9, 100]), 6);
  });

  test("one outlier does not move a correction; the clamp bounds a consistent miss", () => {
    assert.equal(correctionOf([1.5, 1.5, 1.5, 1000]), 1.5);
    assert.equal(correctionOf([0.001, 1.2, 1.2]), 1.2);
    assert.equal(correctionOf([65, 65, 65]), MAX_CORRECTION);
    assert.equal(correctionOf([0.001, 0.001, 0.001]), 1 / MAX_CORRECTION);
  });

  test("property: the correction lies between the smallest and largest kept ratio, each clamped", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), { minLength: MIN_OBSERVATIONS, maxLength: 60 }), (ratios) => {
        const c = correctionOf(ratios)!;
        const kept = ratios.slice(-OBSERVATIONS_KEPT);
        const clamp = (x: number) => Math.min(MAX_CORRECTION, Math.max(1 / MAX_CORRECTION, x));
        const low = clamp(Math.min(...kept));
        const high = clamp(Math.max(...kept));
        return c >= low * (1 - 1e-12) && c <= high * (1 + 1e-12);
      }),
    );
  });

  test("only the last OBSERVATIONS_KEPT observations count", () => {
    let observed = emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS);
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, Array.from({ length: 40 }, () => matmul(8)));
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, Array.from({ length: OBSERVATIONS_KEPT }, () => matmul(2)));
    assert.equal(observed.ratios["dense matmul"]!.length, OBSERVATIONS_KEPT);
    assert.equal(corrections(observed, DEFAULT_MACHINE_CONSTANTS).get("dense matmul"), 2);
  });

  test("observations without an estimate or a measurement are skipped", () => {
    const observed = addObservations(emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS), DEFAULT_MACHINE_CONSTANTS, [
      { operationClass: "aggregate", estimatedSeconds: 0, measuredSeconds: 1 },
      { operationClass: "aggregate", estimatedSeconds: 1, measuredSeconds: 0 },
      { operationClass: "aggregate", estimatedSeconds: Number.NaN, measuredSeconds: 1 },
    ]);
    assert.deepEqual(observed.ratios, {});
  });

  test("applied to estimates of their class only, and void for other constants", () => {
    const observed = addObservations(emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS), DEFAULT_MACHINE_CONSTANTS, [matmul(3), matmul(4), matmul(5)]);
    const factors = corrections(observed, DEFAULT_MACHINE_CONSTANTS);
    assert.equal(correctedSeconds(0.2, "dense matmul", factors), 0.8);
    assert.equal(correctedSeconds(0.2, "aggregate", factors), 0.2);
    assert.equal(correctedSeconds(0.2, undefined, factors), 0.2);
    const calibrated = { ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: 2e9 };
    assert.equal(corrections(observed, calibrated).size, 0, "observations made with other constants do not apply");
    const restarted = addObservations(observed, calibrated, [matmul(7)]);
    assert.deepEqual(restarted.ratios, { "dense matmul": [7] }, "recording with new constants starts over");
    assert.equal(restarted.constantsKey, constantsKey(calibrated));
  });
});

describe("the observations file", () => {
  test("sits beside the machine file", () => {
    assert.equal(observedFilePath("/c/dml-lens/machine.json"), "/c/dml-lens/machine.observed.json");
    assert.equal(observedFilePath("/x/my-machine"), "/x/my-machine.observed.json");
  });

  test("round trip; a missing or malformed file is no observations; bad entries are dropped", () => {
    const file = path.join(dir, "round", "machine.observed.json");
    assert.equal(loadObservedTimes(file), undefined);
    const observed = addObservations(emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS), DEFAULT_MACHINE_CONSTANTS, [matmul(2), { operationClass: "fused row", estimatedSeconds: 1, measuredSeconds: 0.5 }]);
    assert.ok(saveObservedTimes(observed, file).ok);
    assert.deepEqual(loadObservedTimes(file), observed);
    writeFileSync(file, "{ not json");
    assert.equal(loadObservedTimes(file), undefined);
    writeFileSync(file, JSON.stringify({ constantsKey: "k", ratios: { "dense matmul": [2, "x", -1, null, 1e9], "no such class": [1], aggregate: "no" } }));
    assert.deepEqual(loadObservedTimes(file), { constantsKey: "k", ratios: { "dense matmul": [2, 1000] } });
  });

  test("runs' observations accumulate and reach the run estimates (machineProfiler)", () => {
    const machine = path.join(dir, "runs", "machine.json");
    for (const ratio of [4, 5, 6]) assert.ok(recordObservations([matmul(ratio)], DEFAULT_MACHINE_CONSTANTS, observedFilePath(machine)).ok);
    assert.deepEqual(loadObservedTimes(observedFilePath(machine))!.ratios["dense matmul"], [4, 5, 6]);
    assert.equal(loadCorrections(DEFAULT_MACHINE_CONSTANTS, observedFilePath(machine)).get("dense matmul"), 5);
    const profiler = machineProfiler(machine);
    assert.equal(profiler.corrections.get("dense matmul"), 5);
    assert.deepEqual(profiler.constants, DEFAULT_MACHINE_CONSTANTS, "no machine file: the default constants");
  });
});

describe("folding into the constants (dml bench calibrate --apply-observed)", () => {
  test("a class' correction divides the rate of its constant; unfoldable classes are listed", () => {
    let observed = emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS);
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, [matmul(2), matmul(2), matmul(2)]);
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, [1, 1, 1].map(() => ({ operationClass: "fused cell" as const, estimatedSeconds: 1, measuredSeconds: 3 })));
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, [1, 1].map(() => ({ operationClass: "aggregate" as const, estimatedSeconds: 1, measuredSeconds: 3 })));
    const fold = foldObserved(DEFAULT_MACHINE_CONSTANTS, observed);
    assert.equal(fold.constants.flopsPerSecond, DEFAULT_MACHINE_CONSTANTS.flopsPerSecond / 2);
    assert.equal(fold.constants.memoryBandwidthBytesPerSecond, DEFAULT_MACHINE_CONSTANTS.memoryBandwidthBytesPerSecond, "aggregate: too few observations to fold");
    assert.deepEqual(fold.notFolded, ["fused cell"]);
    assert.deepEqual(fold.folded, [{ name: "flopsPerSecond", factor: 2, classes: ["dense matmul"] }]);
  });

  test("several classes on one constant: the count-weighted geometric mean", () => {
    let observed = emptyObservedTimes(DEFAULT_MACHINE_CONSTANTS);
    const of = (operationClass: "aggregate" | "element-wise", ratio: number, n: number) => Array.from({ length: n }, () => ({ operationClass, estimatedSeconds: 1, measuredSeconds: ratio }));
    observed = addObservations(observed, DEFAULT_MACHINE_CONSTANTS, [...of("aggregate", 4, 3), ...of("element-wise", 1, 3)]);
    const fold = foldObserved(DEFAULT_MACHINE_CONSTANTS, observed);
    assert.ok(Math.abs(fold.constants.memoryBandwidthBytesPerSecond - DEFAULT_MACHINE_CONSTANTS.memoryBandwidthBytesPerSecond / 2) < 1);
    assert.equal(fold.constants.writeBandwidthBytesPerSecond, DEFAULT_MACHINE_CONSTANTS.writeBandwidthBytesPerSecond, "only element-wise prices writes here, at 1x");
  });

  test("the command writes the folded constants, which voids the observations", () => {
    const machine = path.join(dir, "fold", "machine.json");
    const quiet: string[] = [];
    assert.deepEqual(applyObservedCalibration(machine, (line) => quiet.push(line)), [], "no observations: nothing changes");
    assert.match(quiet[0]!, /no observations/);
    for (const ratio of [3, 3, 3]) recordObservations([matmul(ratio)], DEFAULT_MACHINE_CONSTANTS, observedFilePath(machine));
    const log: string[] = [];
    const rows = applyObservedCalibration(machine, (line) => log.push(line));
    assert.equal(rows.length, 1);
    const written = JSON.parse(readFileSync(machine, "utf8")) as { constants: typeof DEFAULT_MACHINE_CONSTANTS };
    assert.ok(Math.abs(written.constants.flopsPerSecond - 1e9 / 3) < 1);
    assert.match(log.join("\n"), /flopsPerSecond: .* -> .*runs took 3\.00x the estimates of dense matmul/);
    assert.equal(machineProfiler(machine).corrections.size, 0, "the old observations no longer apply");
  });
});

describe("the language server's estimates ignore the observations", () => {
  test("runEstimate gives the same seconds with strong corrections and new constants on file", () => {
    const text = "X = rand(rows=1000, cols=500, seed=1)\nY = t(X) %*% X\ns = sum(Y ^ 2)\n";
    const before = runEstimate(analyzeText(text), 0, 2, text);
    const machine = path.join(dir, "server", "machine.json");
    const saved = process.env.DML_LENS_MACHINE;
    process.env.DML_LENS_MACHINE = machine;
    try {
      saveMachineConstants({ ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: 1e12 }, machine);
      const strong: Observation[] = ["dense matmul", "element-wise", "aggregate", "reorganize", "data generation"].flatMap((operationClass) =>
        [1, 2, 3].map(() => ({ operationClass: operationClass as Observation["operationClass"], estimatedSeconds: 1, measuredSeconds: 10 })),
      );
      recordObservations(strong, { ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: 1e12 }, observedFilePath(machine));
      assert.equal(machineProfiler().corrections.get("dense matmul"), 10, "the runs do see them");
      const after = runEstimate(analyzeText(text), 0, 2, text);
      assert.deepEqual(after, before);
    } finally {
      if (saved === undefined) delete process.env.DML_LENS_MACHINE;
      else process.env.DML_LENS_MACHINE = saved;
    }
  });
});
