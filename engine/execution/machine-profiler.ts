/**
 * The operation profiler of the runs (Run Cell and the other run commands,
 * `dml run --timings`), priced for this machine: the machine file's
 * constants (engine/cost/machine-file.ts, the defaults until `npx dml bench
 * calibrate` measured them) and the corrections observed by earlier runs
 * (engine/cost/observed-file.ts); and the recording of a run's own
 * observations beside the machine file, for the runs after it.
 */
import { loadCorrections, loadMachineConstants, machineFilePath, observedFilePath, recordObservations, type SaveResult } from "../cost";
import { observationsOf, OperationProfiler, type BlockOperations } from "./operation-profiler";

export function machineProfiler(machineFile: string = machineFilePath()): OperationProfiler {
  const { constants } = loadMachineConstants(machineFile);
  return new OperationProfiler({ constants, corrections: loadCorrections(constants, observedFilePath(machineFile)) });
}

/**
 * Reloads the constants and the corrections: `npx dml bench calibrate` may
 * have measured new constants and other runs added observations since the
 * profiler was made (observations recorded with stale constants would void
 * the file's others).
 */
export function refreshFromMachineFile(profiler: OperationProfiler, machineFile: string = machineFilePath()): void {
  profiler.constants = loadMachineConstants(machineFile).constants;
  profiler.corrections = loadCorrections(profiler.constants, observedFilePath(machineFile));
}

/** Adds the observations of a run's profile to the file beside the machine file; never throws. */
export function recordRunObservations(profiler: OperationProfiler, profile: readonly BlockOperations[], machineFile: string = machineFilePath()): SaveResult {
  return recordObservations(observationsOf(profile), profiler.constants, observedFilePath(machineFile));
}
