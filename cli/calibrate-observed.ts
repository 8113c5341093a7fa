/**
 * `dml bench calibrate --apply-observed`: folds the corrections the runs
 * observed on this machine (engine/cost/observed-file.ts, written by Run
 * Cell and `dml run --timings`) into the machine constants
 * (engine/cost/observed-fold.ts) instead of measuring them again. The
 * observations are void afterwards (they were relative to the old
 * constants). Nothing else changes the constants: the corrections alone
 * never reach the language server's estimates.
 *
 * One row per folded constant: ours_ms = the new constant's time for the
 * work the old one prices at 1 ms (the factor), baseline "previous".
 */
import { constantsKey, foldObserved, formatQuantity, loadMachineConstants, loadObservedTimes, MACHINE_CONSTANT_INFO, machineFilePath, observedFilePath, saveMachineConstants } from "../engine/cost";
import type { BenchRow } from "./bench-report";
import { err } from "./output";

export function applyObservedCalibration(file: string = machineFilePath(), log: (line: string) => void = err): BenchRow[] {
  const loaded = loadMachineConstants(file);
  const observedFile = observedFilePath(file);
  const observed = loadObservedTimes(observedFile);
  if (!observed || observed.constantsKey !== constantsKey(loaded.constants)) {
    log(`calibrate --apply-observed: no observations for the current machine constants in ${observedFile} (run scripts with Run Cell or \`dml run --timings\` first); nothing changed`);
    return [];
  }
  const fold = foldObserved(loaded.constants, observed);
  if (fold.folded.length === 0) {
    log(`calibrate --apply-observed: no operation class has enough observations to fold yet${fold.notFolded.length > 0 ? ` (only ${fold.notFolded.join(", ")}, which no single constant prices)` : ""}; nothing changed`);
    return [];
  }
  const saved = saveMachineConstants(fold.constants, file, {
    measuredBy: "dml bench calibrate --apply-observed",
    folded: fold.folded.map((f) => `${f.name} / ${f.factor.toPrecision(3)} (${f.classes.join(", ")})`).join("; "),
  });
  const unit = (name: string) => MACHINE_CONSTANT_INFO.find((i) => i.name === name)?.unit === "GFLOP/s" ? "FLOP/s" : "B/s";
  const lines = [`calibrate --apply-observed: folded the corrections observed by runs into ${file}:`];
  for (const f of fold.folded) lines.push(`  ${f.name}: ${formatQuantity(loaded.constants[f.name], unit(f.name))} -> ${formatQuantity(fold.constants[f.name], unit(f.name))} (runs took ${f.factor.toPrecision(3)}x the estimates of ${f.classes.join(", ")})`);
  if (fold.notFolded.length > 0) lines.push(`  not folded (priced from several constants): ${fold.notFolded.join(", ")}`);
  lines.push(saved.ok ? "  the observations are void now (they were relative to the old constants)" : `  ${saved.message}`);
  log(lines.join("\n"));
  return fold.folded.map((f) => ({ suite: "calibrate", case: `apply-observed ${f.name}`, ours_ms: f.factor, baseline: "previous", baseline_ms: 1, ratio: 1 / f.factor, classes: f.classes.join(", "), failed: !saved.ok }));
}
