/**
 * `npx dml bench calibrate --apply-observed`: folds the calibration
 * feedback's corrections (observed-corrections.ts) into the machine
 * constants, so that every estimate made with them (the language server's
 * too, once it reads the machine file) follows what the runs measured.
 *
 * A class whose time the cost model takes from one constant changes that
 * constant: an estimate c times too low means the rate is c times too high.
 * - dense matmul → dense compute (flopsPerSecond);
 * - sparse matmul → sparse compute (sparseFlopsPerSecond);
 * - matrix-vector, element-wise, aggregate, reorganize (memory-bound) → read bandwidth;
 *   element-wise and reorganize also → write bandwidth.
 * Several classes on one constant: the geometric mean of their corrections,
 * weighted by their observation counts. Data generation and the fused
 * templates are priced from several constants at once, so they are not
 * folded (listed as such); after folding every observation is void, since
 * observations hold only for the constants they were made with.
 */
import type { MachineConstantName, MachineConstants } from "./machine-constants";
import { correctionOf, type ObservedTimes } from "./observed-corrections";
import type { OperationClass } from "./operation-class";

const FOLDS: Partial<Record<OperationClass, readonly MachineConstantName[]>> = {
  "dense matmul": ["flopsPerSecond"],
  "sparse matmul": ["sparseFlopsPerSecond"],
  "matrix-vector": ["memoryBandwidthBytesPerSecond"],
  aggregate: ["memoryBandwidthBytesPerSecond"],
  "element-wise": ["memoryBandwidthBytesPerSecond", "writeBandwidthBytesPerSecond"],
  reorganize: ["memoryBandwidthBytesPerSecond", "writeBandwidthBytesPerSecond"],
};

interface FoldedConstant {
  name: MachineConstantName;
  /** The factor the rate was divided by. */
  factor: number;
  classes: OperationClass[];
}

export interface FoldResult {
  constants: MachineConstants;
  folded: FoldedConstant[];
  /** Classes with a correction that no single constant prices. */
  notFolded: OperationClass[];
}

export function foldObserved(constants: MachineConstants, observed: ObservedTimes): FoldResult {
  const logSum = new Map<MachineConstantName, { sum: number; weight: number; classes: OperationClass[] }>();
  const notFolded: OperationClass[] = [];
  for (const [cls, ratios] of Object.entries(observed.ratios) as [OperationClass, number[]][]) {
    const factor = correctionOf(ratios);
    if (factor === undefined) continue;
    const targets = FOLDS[cls];
    if (!targets) {
      notFolded.push(cls);
      continue;
    }
    for (const name of targets) {
      const entry = logSum.get(name) ?? { sum: 0, weight: 0, classes: [] };
      entry.sum += Math.log(factor) * ratios.length;
      entry.weight += ratios.length;
      entry.classes.push(cls);
      logSum.set(name, entry);
    }
  }
  const next: MachineConstants = { ...constants };
  const folded: FoldedConstant[] = [];
  for (const [name, { sum, weight, classes }] of logSum) {
    const factor = Math.exp(sum / weight);
    next[name] = constants[name] / factor;
    folded.push({ name, factor, classes });
  }
  return { constants: next, folded, notFolded };
}
