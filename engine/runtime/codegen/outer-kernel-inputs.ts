/**
 * The data an Outer kernel reads, and the code that reads it: every array
 * and scalar is registered once per run (arrays by what they are, e.g.
 * "the CSR of input 5 transposed"), named `aK` / `sK` in the kernel's
 * header, and read by code that depends only on the inputs' formats and
 * broadcast kinds, never on their sizes or values (so equal operators
 * over other data share one compiled kernel):
 * - scalars and 1 x 1 matrices: hoisted from `s`;
 * - vectors (densified): indexed by the cell's row or column;
 * - dense matrices: by index, the row offset hoisted per row of the driver;
 * - CSR matrices of the driver's shape: walked along the driver's row
 *   (both visit a row's columns in increasing order), transposed first
 *   when read through a transpose;
 * - the factors of a low-rank product: dense rows of length k, read as a
 *   dot product with four independent accumulators.
 */
import type { Value } from "../interpreter/values";
import { num } from "../interpreter/operations";
import { transpose, transposeCsr } from "../kernels/transpose";
import { isDense, releaseIfTemporary, toDense, type Matrix } from "../matrix";
import type { CsrMatrix } from "../matrix/csr-matrix";
import type { DenseMatrix } from "../matrix/dense-matrix";
import type { KernelArray } from "./kernel-program";
import { UnsupportedOperator } from "./generated-operator";

export class OuterKernelInputs {
  readonly arrays: KernelArray[] = [];
  readonly scalars: number[] = [];
  /** Kernel-level declarations (arrays, scalars, dims). */
  readonly header: string[] = [];
  /** Statements at the start of each driver row (`i` known). */
  readonly rowPrologue: string[] = [];
  /** Statements at the start of each visited cell (`i`, `j` known), before the cell expression. */
  readonly cellPrologue: string[] = [];
  private readonly names = new Map<string, string>();
  /** Dense copies made for this run (CSR vectors and factors, transposes), released after it. */
  private readonly temporaries: [DenseMatrix, Matrix][] = [];
  private counter = 0;

  constructor(private readonly inputs: ReadonlyMap<number, Value>) {}

  /** The matrix value of input `node`. */
  matrix(node: number): Matrix {
    const v = this.inputs.get(node);
    if (!v || v.kind !== "matrix") throw new UnsupportedOperator(`input ${node} of an Outer operator is a ${v?.kind ?? "missing value"}, not a matrix`);
    return v.matrix;
  }

  /** A kernel name for array `make()`, registered once per `key`. */
  array(key: string, make: () => KernelArray): string {
    return this.once(`array ${key}`, () => {
      const name = `a${this.arrays.length}`;
      this.header.push(`const ${name} = a[${this.arrays.length}];`);
      this.arrays.push(make());
      return name;
    });
  }

  /** A kernel name for a number read from `s`, registered once per `key`. */
  scalar(key: string, value: () => number): string {
    return this.once(`scalar ${key}`, () => {
      const name = `s${this.scalars.length}`;
      this.header.push(`const ${name} = s[${this.scalars.length}];`);
      this.scalars.push(value());
      return name;
    });
  }

  /** Input `node` as a dense row-major matrix (its own rows), or transposed. */
  dense(node: number, transposed = false): DenseMatrix {
    const m = this.matrix(node);
    const oriented = transposed ? transpose(m) : m;
    const d = toDense(oriented);
    if (d !== m) this.temporaries.push([d, m]);
    return d;
  }

  /** Gives the run's dense copies back to the buffer pool. */
  release(): void {
    for (const [copy, original] of this.temporaries) releaseIfTemporary(copy, original);
    this.temporaries.length = 0;
  }

  /**
   * The value of input `node` at (row, col) of its own shape: index
   * expressions "i", "j" or "0" (broadcast). `driver` reads as `x` at (i, j).
   */
  read(node: number, row: string, col: string, driver: number): string {
    const v = this.inputs.get(node);
    if (!v) throw new UnsupportedOperator(`input ${node} of an Outer operator has no value`);
    if (v.kind !== "matrix") return this.scalar(`input ${node}`, () => num(v));
    const m = v.matrix;
    if (node === driver && row === "i" && col === "j") return "x";
    if (m.rows === 1 && m.cols === 1) return this.scalar(`input ${node}`, () => m.get(0, 0));
    if (m.rows === 1) return `${this.array(`dense ${node}`, () => this.dense(node).data)}[${col}]`;
    if (m.cols === 1) return `${this.array(`dense ${node}`, () => this.dense(node).data)}[${row}]`;
    if (isDense(m)) return this.denseCell(node, m, row, col);
    if (row === "i" && col === "j") return this.walk(node, m);
    if (row === "j" && col === "i") return this.walk(node, m, true);
    throw new UnsupportedOperator(`a CSR input (${node}) read at (${row}, ${col}) of an Outer operator`);
  }

  private denseCell(node: number, m: DenseMatrix, row: string, col: string): string {
    const data = this.array(`dense ${node}`, () => m.data);
    const cols = this.scalar(`cols ${node}`, () => m.cols);
    if (row !== "i") return `${data}[${row} * ${cols} + ${col}]`;
    const base = this.once(`row base ${node}`, () => {
      const name = `rb${this.counter++}`;
      this.rowPrologue.push(`const ${name} = i * ${cols};`);
      return name;
    });
    return `${data}[${base} + ${col}]`;
  }

  /** Input `node` (CSR, the driver's shape, or its transpose when `transposed`) at (i, j), walking row i alongside j. */
  private walk(node: number, m: CsrMatrix, transposed = false): string {
    return this.once(`walk ${node} ${transposed}`, () => {
      const csr = transposed ? transposeCsr(m) : m;
      const key = `csr ${node}${transposed ? " transposed" : ""}`;
      const ptr = this.array(`${key} rowPtr`, () => csr.rowPtr);
      const idx = this.array(`${key} colIdx`, () => csr.colIdx);
      const val = this.array(`${key} values`, () => csr.values);
      const k = this.counter++;
      this.rowPrologue.push(`let wq${k} = ${ptr}[i];`, `const we${k} = ${ptr}[i + 1];`);
      this.cellPrologue.push(`while (wq${k} < we${k} && ${idx}[wq${k}] < j) wq${k}++;`, `const wv${k} = wq${k} < we${k} && ${idx}[wq${k}] === j ? ${val}[wq${k}] : 0;`);
      return `wv${k}`;
    });
  }

  /**
   * The dot product of row `row` of factor `left` and row `col` of factor
   * `right` (both dense row-major with `k` columns): a call of the
   * kernel's `dot` (four independent accumulators), declared once.
   */
  dot(left: string, right: string, k: string, row: string, col: string): string {
    this.once("dot", () => {
      this.header.push(...DOT_FUNCTION);
      return "dot";
    });
    const k4 = this.once(`k4 ${k}`, () => {
      const name = `k4_${this.counter++}`;
      this.header.push(`const ${name} = ${k} - (${k} & 3);`);
      return name;
    });
    const offset = (index: string) =>
      index !== "i"
        ? `${index} * ${k}`
        : this.once(`factor row ${k}`, () => {
            const name = `fo${this.counter++}`;
            this.rowPrologue.push(`const ${name} = i * ${k};`);
            return name;
          });
    return `dot(${left}, ${offset(row)}, ${right}, ${offset(col)}, ${k}, ${k4})`;
  }

  private once(key: string, make: () => string): string {
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const name = make();
    this.names.set(key, name);
    return name;
  }
}

/** Σ L[lo + u] · R[ro + u] for u < k, in four interleaved partial sums (k4 = k rounded down to a multiple of 4). */
const DOT_FUNCTION = [
  "function dot(L, lo, R, ro, k, k4) {",
  "  let u0 = 0, u1 = 0, u2 = 0, u3 = 0, u = 0;",
  "  for (; u < k4; u += 4) { u0 += L[lo + u] * R[ro + u]; u1 += L[lo + u + 1] * R[ro + u + 1]; u2 += L[lo + u + 2] * R[ro + u + 2]; u3 += L[lo + u + 3] * R[ro + u + 3]; }",
  "  for (; u < k; u++) u0 += L[lo + u] * R[ro + u];",
  "  return (u0 + u1) + (u2 + u3);",
  "}",
];
