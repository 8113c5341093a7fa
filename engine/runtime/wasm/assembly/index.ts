// @ts-nocheck — AssemblyScript entry (compiled by asc, not by tsc): the exports of the kernel module.
export { gemmTile, gemmMr, gemmKc, gemmScratchBytes, gemmPackB, gemmRows } from "./gemm";
export { gemvRows, ewBinary, sumProduct3 } from "./dense";
export { spmvRows, spmmRows } from "./sparse";
