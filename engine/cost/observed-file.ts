/**
 * Where the calibration feedback (observed-corrections.ts) is stored: beside
 * the machine file (machine-file.ts), with `.observed.json` in place of
 * `.json` (`~/.cache/dml-lens/machine.observed.json` by default), so runs
 * never rewrite the constants `npx dml bench calibrate` measured.
 *
 * Who writes and who reads it:
 * - the runs write it: Run Cell and the other run commands (the runtime
 *   worker) after every run, `dml run --timings` after its run;
 * - the runs read it: the per-block and per-operation estimates they report
 *   ("estimated" in the results view and in `dml run --timings`) are the
 *   cost model's with this machine's constants times the corrections;
 * - the language server never reads it: its suggestions, hovers and plans
 *   use the default constants, so they are the same on every machine and
 *   do not change with the runs made on this one;
 * - `npx dml bench calibrate --apply-observed` folds the corrections into
 *   the machine constants (observed-fold.ts), which voids them (they were
 *   relative to the old constants), as any new calibration does.
 *
 * Shape: { "version": 1, "constantsKey": "1e10,5e9,...", "ratios": { "dense matmul": [1.3, 0.9, ...], ... } }.
 * Loading never throws: a missing or malformed file is no observations.
 * The file is read and written through a FileSystem (the disk by default).
 */
import path from "node:path";
import { type FileSystem, nodeFileSystem, writeTextFile } from "../files";
import type { MachineConstants } from "./machine-constants";
import { machineFilePath, type SaveResult } from "./machine-file";
import { addObservations, corrections, emptyObservedTimes, NO_CORRECTIONS, observedFromJson, type Corrections, type Observation, type ObservedTimes } from "./observed-corrections";

const OBSERVED_FILE_VERSION = 1;

/** The observations file beside `machineFile`. */
export function observedFilePath(machineFile: string = machineFilePath()): string {
  const base = path.basename(machineFile).replace(/\.json$/i, "");
  return path.join(path.dirname(machineFile), `${base}.observed.json`);
}

/** The stored observations (undefined when there are none or the file is unreadable). */
export function loadObservedTimes(file: string, fs: FileSystem = nodeFileSystem): ObservedTimes | undefined {
  const text = fs.readFile(file);
  if (text === undefined) return undefined;
  try {
    return observedFromJson(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) return undefined; // malformed JSON: no observations
    throw error;
  }
}

/** Writes the observations atomically; never throws. */
export function saveObservedTimes(observed: ObservedTimes, file: string, fs: FileSystem = nodeFileSystem): SaveResult {
  try {
    writeTextFile(fs, file, JSON.stringify({ version: OBSERVED_FILE_VERSION, ...observed }, null, 1) + "\n", { atomic: true });
    return { ok: true, path: file };
  } catch (error) {
    return { ok: false, path: file, message: `cannot write ${file}: ${(error as Error).message}` };
  }
}

/** Adds a run's observations to the file (made with `constants`); never throws. */
export function recordObservations(observations: readonly Observation[], constants: MachineConstants, file: string, fs: FileSystem = nodeFileSystem): SaveResult {
  if (observations.length === 0) return { ok: true, path: file };
  const known = loadObservedTimes(file, fs) ?? emptyObservedTimes(constants);
  return saveObservedTimes(addObservations(known, constants, observations), file, fs);
}

/** The corrections stored in `file` for estimates made with `constants` (none when missing or made with other constants). */
export function loadCorrections(constants: MachineConstants, file: string, fs: FileSystem = nodeFileSystem): Corrections {
  const observed = loadObservedTimes(file, fs);
  return observed ? corrections(observed, constants) : NO_CORRECTIONS;
}
