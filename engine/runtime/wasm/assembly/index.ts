// @ts-nocheck — AssemblyScript entry (compiled by asc, not by tsc): the exports of the kernel module.
export { gemmTile, gemmChunkRows, gemmKc, gemmScratchBytes, gemmPackB, gemmRows, gemmShared } from "./gemm";
export { gemvRows, ewBinary, sumProduct3 } from "./dense";
export { spmvRows, spmmRows } from "./sparse";
export { mmchainRows } from "./mmchain";
