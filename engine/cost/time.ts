/**
 * Estimated time of one operation, SystemML's codegen cost model
 * (Boehm et al., VLDB 2018, eq. 3) plus disk for `read`:
 *
 *   seconds = T_disk + T_write + max(T_read, T_compute)
 *   T_disk    = diskBytesRead / diskReadBytesPerSecond
 *   T_write   = bytesWritten / writeBandwidthBytesPerSecond
 *   T_read    = (bytesRead − diskBytesRead) / memoryBandwidthBytesPerSecond
 *   T_compute = flops / (sparseKernel ? sparseFlopsPerSecond : flopsPerSecond)
 *
 * The max lets reading and computing overlap, so an operation is either
 * memory- or compute-bound.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "./machine-constants";

export interface TimeInputs {
  flops: number;
  bytesRead: number;
  diskBytesRead: number;
  bytesWritten: number;
  sparseKernel: boolean;
}

export interface TimeBreakdown {
  diskSeconds: number;
  readSeconds: number;
  writeSeconds: number;
  computeSeconds: number;
  seconds: number;
}

export function estimateTime(w: TimeInputs, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): TimeBreakdown {
  const diskSeconds = w.diskBytesRead / constants.diskReadBytesPerSecond;
  const readSeconds = (w.bytesRead - w.diskBytesRead) / constants.memoryBandwidthBytesPerSecond;
  const writeSeconds = w.bytesWritten / constants.writeBandwidthBytesPerSecond;
  const computeSeconds = w.flops / (w.sparseKernel ? constants.sparseFlopsPerSecond : constants.flopsPerSecond);
  return {
    diskSeconds,
    readSeconds,
    writeSeconds,
    computeSeconds,
    seconds: diskSeconds + writeSeconds + Math.max(readSeconds, computeSeconds),
  };
}
