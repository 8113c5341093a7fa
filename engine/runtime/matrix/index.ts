/** Public surface of the runtime's matrix values: dense and CSR matrices, formats, conversions, comparison, the buffer pool, the runtime error. */
export { countNonZeros, DenseMatrix } from "./dense-matrix";
export { CsrMatrix, csrInvariantViolation, dropZeros } from "./csr-matrix";
export { CsrBuilder } from "./csr-builder";
export { isDense, isSparse, pooledDense, pooledZeros, releaseIfTemporary, releaseMatrix, type Matrix } from "./matrix";
export { csrToDense, denseToCsr, toDense } from "./convert";
export { chooseFormat, denseThreshold, settleFormat, toPreferredFormat } from "./format";
export { matricesEqual, matrixDifference, valuesClose, type Tolerance } from "./compare";
export { BufferPool, bufferPool, type BufferPoolStats } from "./buffer-pool";
export { allocateF64, allocateI32, copyF64, copyI32, csrShared, installLargeArrayAllocator, isSharedArray, SHARED_MIN_LENGTH, type LargeArrayAllocator } from "./kernel-memory";
export { dimsText, RuntimeError, type RuntimeErrorKind } from "./runtime-error";
export { allocatedInCurrentScope, untagAllocation, withAllocationScope } from "./allocation-scope";
