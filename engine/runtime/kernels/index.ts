/**
 * Public surface of the pure-JavaScript kernels (also the fallback of the
 * WebAssembly kernels). The matrix-level kernels take matrices in either
 * format and return a new matrix (never one of their inputs' buffers,
 * except `leftIndex` when asked to work in place) in the format SystemDS's
 * rule picks; the array-level ones (gemm, gemv, csrTimes*, denseTimesCsr)
 * write into the arrays they are given. Errors a user can cause are thrown
 * as `RuntimeError` (../matrix/runtime-error.ts) for the interpreter to
 * report with the source position.
 */
export { matmul, checkMatmulDims } from "./matmul";
export { gemm, gemv } from "./gemm";
export { csrTimesCsr, csrTimesDense, csrTimesVector, denseTimesCsr } from "./sparse-matmul";
export { tsmm } from "./tsmm";
export { transposedLeftProduct } from "./transposed-product";
export { fastMatmul, usesWasmGemm } from "./wasm-gemm";
export { elementwiseBinary, type Operand } from "./elementwise-binary";
export { elementwiseUnary } from "./elementwise-unary";
export { BINARY_OPS, isBinaryOp, scalarBinary, sparsityClass, BINARY_EXPRESSIONS } from "./binary-ops";
export { UNARY_OPS, scalarUnary, UNARY_EXPRESSIONS } from "./unary-ops";
export { broadcastShape, type Shape } from "./broadcast";
export { aggregate, aggregateCols, aggregateFull, aggregateRows } from "./aggregate";
export { kahanSum, kahanSumRanges } from "./kahan";
export { transpose, transposeCsr } from "./transpose";
export { transposedCsr } from "./sparse-transposed";
export { sharedCsr } from "./sparse-shared";
export { leftIndex, rightIndex, type LeftIndexOptions } from "./indexing";
export { resolveRange, type IndexRange } from "./index-range";
export { cbind, rbind } from "./bind";
export { diag } from "./diag";
export { seq } from "./seq";
export { cumsum } from "./cumsum";
export { rowIndexMax } from "./row-index-max";
export { table, type TableOperand } from "./table";
export { matrixFill, matrixFromValues, reshape } from "./reshape";
export { rand, type RandDistribution, type RandOptions } from "./rand";
export { SeededRandom } from "./seeded-random";
export type { DnnGeometry } from "./dnn-geometry";
export { BINARY_HELPERS } from "./binary-helpers";
export { avgPoolBackward, maxPoolBackward, poolForward } from "./pooling";
export { biasApply } from "./bias";
export { conv2dBackwardData, conv2dBackwardFilter, conv2dForward } from "./conv2d";
export { outputExtent } from "./dnn-geometry";
