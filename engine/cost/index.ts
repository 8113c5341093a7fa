/** Public surface of the cost stage: per-operation FLOPs, bytes, peak memory and time; machine constants. */
export type { CostEstimate, OperationCost } from "./cost-types";
export { estimateOperationCost, operationCost } from "./operation-cost";
export { nodeCost, operandFromNodeStats } from "./node-stats-cost";
export {
  cellCount,
  csrBytes,
  denseBytes,
  matrixBytes,
  operandBytes,
  SPARSE_FORMAT_MAX_SPARSITY,
  sparsityOf,
  storageFormat,
  systemdsDenseSizeEstimate,
  systemdsSparseSizeEstimate,
  type MatrixStats,
  type OperandStats,
  type PartialOperandStats,
  type ScalarStats,
  type StorageFormat,
} from "./operand-stats";
export {
  binarySparsityClass,
  isSparseSafeUnary,
  isSparseSafeWithScalar,
  type BinarySparsityClass,
} from "./elementwise-ops";
export { estimateTime, type TimeBreakdown, type TimeInputs } from "./time";
export {
  DEFAULT_MACHINE_CONSTANTS,
  MACHINE_CONSTANT_INFO,
  isValidConstant,
  type MachineConstantName,
  type MachineConstants,
} from "./machine-constants";
export {
  loadMachineConstants,
  machineFilePath,
  MACHINE_FILE_ENV,
  saveMachineConstants,
  type LoadedMachineConstants,
  type SaveResult,
} from "./machine-file";
export { formatCost, formatCostEstimate, formatQuantity, formatSeconds } from "./format-cost";
export { formatCount, formatDims, formatFactor, formatSparsity, formatValue } from "./format-number";
export { fusedOperationClass, isOperationClass, operationClass, OPERATION_CLASSES, type OperationClass } from "./operation-class";
export {
  addObservations,
  constantsKey,
  correctedSeconds,
  correctionOf,
  corrections,
  emptyObservedTimes,
  MAX_CORRECTION,
  MIN_OBSERVATIONS,
  NO_CORRECTIONS,
  OBSERVATIONS_KEPT,
  type Corrections,
  type Observation,
  type ObservedTimes,
} from "./observed-corrections";
export { loadCorrections, loadObservedTimes, observedFilePath, recordObservations, saveObservedTimes } from "./observed-file";
export { foldObserved, type FoldResult } from "./observed-fold";
