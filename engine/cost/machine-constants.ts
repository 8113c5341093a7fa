/**
 * The machine constants the cost model turns bytes and FLOPs into seconds
 * with, as in SystemML's codegen cost model (peak read / write bandwidth and
 * compute throughput). `npx dml bench calibrate` measures them on this
 * machine (see machine-file.ts for where they are stored); until then the
 * defaults below are used.
 *
 * The defaults are the order of magnitude one JavaScript thread reaches on a
 * 2020s laptop or server core (the embedded runtime is single-threaded JS),
 * not measurements of this machine:
 * - read 10 GB/s: a streaming sum over a Float64Array far larger than cache;
 * - write 5 GB/s: a store loop over such an array (write-allocate traffic
 *   makes writes slower than reads);
 * - dense 1 GFLOP/s: a cache-blocked GEMM in plain JS (no SIMD, no threads;
 *   BLAS reaches 10–100× more);
 * - sparse 0.3 GFLOP/s: a CSR SpMV (indirect loads of x);
 * - disk 500 MB/s: a SATA/NVMe SSD read with a cold page cache.
 */
export interface MachineConstants {
  /** Peak memory read bandwidth, bytes per second. */
  memoryBandwidthBytesPerSecond: number;
  /** Peak memory write bandwidth, bytes per second. */
  writeBandwidthBytesPerSecond: number;
  /** Dense compute throughput (a blocked GEMM), floating-point operations per second. */
  flopsPerSecond: number;
  /** Sparse compute throughput (a CSR SpMV), floating-point operations per second. */
  sparseFlopsPerSecond: number;
  /** Read bandwidth from disk, bytes per second (for `read`). */
  diskReadBytesPerSecond: number;
}

export type MachineConstantName = keyof MachineConstants;

export const DEFAULT_MACHINE_CONSTANTS: Readonly<MachineConstants> = Object.freeze({
  memoryBandwidthBytesPerSecond: 10e9,
  writeBandwidthBytesPerSecond: 5e9,
  flopsPerSecond: 1e9,
  sparseFlopsPerSecond: 0.3e9,
  diskReadBytesPerSecond: 0.5e9,
});

/** The constants in a fixed order, with a short description and a display unit. */
export const MACHINE_CONSTANT_INFO: readonly { name: MachineConstantName; description: string; unit: "GB/s" | "GFLOP/s" }[] = [
  { name: "memoryBandwidthBytesPerSecond", description: "memory read bandwidth", unit: "GB/s" },
  { name: "writeBandwidthBytesPerSecond", description: "memory write bandwidth", unit: "GB/s" },
  { name: "flopsPerSecond", description: "dense compute (GEMM)", unit: "GFLOP/s" },
  { name: "sparseFlopsPerSecond", description: "sparse compute (CSR SpMV)", unit: "GFLOP/s" },
  { name: "diskReadBytesPerSecond", description: "disk read bandwidth", unit: "GB/s" },
];

/** True for a usable constant: a finite number above zero. */
export function isValidConstant(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
