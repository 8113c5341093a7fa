/**
 * The text form of a cost, for hover, `explain` and tests:
 *   "2.00 MFLOP, 1.60 MB read, 800 kB written, peak 2.40 MB, ~300 µs"
 * Decimal (SI) prefixes: 1 MB = 10^6 bytes. `read` adds "(… from disk)".
 */
import type { CostEstimate, OperationCost } from "./cost-types";

const prefixes = ["", "k", "M", "G", "T", "P", "E"];

/** `value` with an SI prefix and three significant digits: "1.60 MB", "16.4 GFLOP", "0 B". */
export function formatQuantity(value: number, unit: string): string {
  if (!Number.isFinite(value)) return `${value} ${unit}`;
  if (value === 0) return `0 ${unit}`;
  let scaled = Math.abs(value);
  let p = 0;
  while (scaled >= 999.5 && p < prefixes.length - 1) {
    scaled /= 1000;
    p++;
  }
  const sign = value < 0 ? "-" : "";
  if (p === 0 && Number.isInteger(value)) return `${value} ${unit}`;
  return `${sign}${threeDigits(scaled)} ${prefixes[p]}${unit}`;
}

/** A duration with a fitting unit: "850 ns", "12.0 µs", "3.40 ms", "1.20 s", "2.5 min", "3.1 h". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return `${seconds} s`;
  if (seconds === 0) return "0 s";
  if (seconds < 1e-6) return `${threeDigits(seconds * 1e9)} ns`;
  if (seconds < 1e-3) return `${threeDigits(seconds * 1e6)} µs`;
  if (seconds < 1) return `${threeDigits(seconds * 1e3)} ms`;
  if (seconds < 120) return `${threeDigits(seconds)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export function formatCost(cost: OperationCost): string {
  const disk = cost.diskBytesRead > 0 ? ` (${formatQuantity(cost.diskBytesRead, "B")} from disk)` : "";
  return [
    formatQuantity(cost.flops, "FLOP"),
    `${formatQuantity(cost.bytesRead, "B")} read${disk}`,
    `${formatQuantity(cost.bytesWritten, "B")} written`,
    `peak ${formatQuantity(cost.peakMemoryBytes, "B")}`,
    `~${formatSeconds(cost.seconds)}`,
  ].join(", ");
}

export function formatCostEstimate(estimate: CostEstimate): string {
  return estimate.known ? formatCost(estimate.cost) : `cost unknown: ${estimate.reason}`;
}

function threeDigits(x: number): string {
  if (x >= 99.95) return x.toFixed(0);
  if (x >= 9.995) return x.toFixed(1);
  return x.toFixed(2);
}
