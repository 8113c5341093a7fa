/**
 * rand(rows, cols, min, max, sparsity, seed, pdf, lambda): a random matrix,
 * reproducible for a given seed (seeded-random.ts). Each cell is non-zero
 * with probability `sparsity` (chosen by geometric skips, so a sparse
 * result costs time in its non-zeros, not its cells); its value is uniform
 * in [min, max], standard normal (pdf "normal", min and max ignored as in
 * SystemDS) or Poisson(lambda). The cells are drawn in row-major order
 * whatever the result's format, so the format never changes the values.
 * seed -1 (SystemDS's default) or no seed draws a fresh seed.
 */
import { CsrBuilder, DenseMatrix, chooseFormat, type Matrix, RuntimeError } from "../matrix";
import { SeededRandom } from "./seeded-random";

export type RandDistribution = "uniform" | "normal" | "poisson";

/** Options left undefined take their defaults (callers pass DML's optional arguments as they are). */
export interface RandOptions {
  rows: number;
  cols: number;
  min?: number | undefined;
  max?: number | undefined;
  sparsity?: number | undefined;
  seed?: number | undefined;
  pdf?: RandDistribution | undefined;
  lambda?: number | undefined;
}

export function rand(options: RandOptions): Matrix {
  const { rows, cols, min = 0, max = 1, sparsity = 1, pdf = "uniform", lambda = 1 } = options;
  check(options, rows, cols, min, max, sparsity, pdf, lambda);
  const seed = options.seed === undefined || options.seed === -1 ? Math.floor(Math.random() * 2 ** 31) : options.seed;
  const random = new SeededRandom(seed);
  const value =
    pdf === "normal" ? () => random.nextNormal() : pdf === "poisson" ? () => random.nextPoisson(lambda) : () => min + (max - min) * random.nextDouble();
  const cells = rows * cols;
  const sparse = chooseFormat(rows, cols, Math.round(sparsity * cells)) === "sparse";
  const dense = sparse ? undefined : new DenseMatrix(rows, cols);
  const builder = sparse ? new CsrBuilder(rows, cols, Math.ceil(sparsity * cells * 1.1) + 16) : undefined;
  let row = 0;
  const logSkip = sparsity < 1 ? Math.log1p(-sparsity) : 0;
  for (let k = nextCell(random, -1, sparsity, logSkip); k < cells; k = nextCell(random, k, sparsity, logSkip)) {
    const v = value();
    if (dense !== undefined) dense.data[k] = v;
    else if (v !== 0) {
      const r = Math.floor(k / cols);
      while (row < r) {
        builder!.endRow();
        row++;
      }
      builder!.append(k - r * cols, v);
    }
  }
  return dense ?? builder!.finish();
}

/** The next non-zero cell after k: k + 1 when every cell is non-zero, else a geometric skip. */
function nextCell(random: SeededRandom, k: number, sparsity: number, logSkip: number): number {
  if (sparsity >= 1) return k + 1;
  if (sparsity <= 0) return Infinity;
  const u = random.nextDouble();
  return k + 1 + Math.floor(Math.log1p(-u) / logSkip);
}

function check(o: RandOptions, rows: number, cols: number, min: number, max: number, sparsity: number, pdf: string, lambda: number): void {
  const fail = (why: string) => {
    throw new RuntimeError("invalid-argument", `rand: ${why}`);
  };
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) fail(`dimensions must be non-negative integers, got ${rows} x ${cols}`);
  if (!(sparsity >= 0 && sparsity <= 1)) fail(`sparsity must be between 0 and 1, got ${sparsity}`);
  if (pdf !== "uniform" && pdf !== "normal" && pdf !== "poisson") fail(`unknown pdf "${pdf}" (uniform, normal or poisson)`);
  if (pdf === "uniform" && !(min <= max)) fail(`min (${min}) must not exceed max (${max})`);
  if (pdf === "poisson" && !(lambda >= 0 && Number.isFinite(lambda))) fail(`lambda must be a non-negative number, got ${lambda}`);
  if (o.seed !== undefined && !Number.isFinite(o.seed)) fail(`the seed must be a number, got ${o.seed}`);
}
