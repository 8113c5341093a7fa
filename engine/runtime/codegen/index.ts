/**
 * Generated fused operators: per template, JavaScript kernels built from
 * the fusion planner's CPlans, compiled once per distinct source.
 */
export { generateOperator } from "./generate-operator";
export { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";
export { applyJitFlags, JIT_FLAGS } from "./jit-flags";
export { kernelCacheCounts, kernelFunction } from "./kernel-cache";
export { runKernel, kernelThreads, whenKernelThreadsReady } from "./kernel-runner";
export { binaryCode, numberCode, unaryCode } from "./operation-code";
export { combineAccumulators, type Combine, type KernelArray, type KernelCall, type KernelFunction, type KernelProgram } from "./kernel-program";
export { kernelGemv, kernelSpmm, kernelSpmv } from "./kernel-matmul";
