/**
 * The data an Outer kernel reads, and the code that reads it: every array
 * and scalar is registered once per run (arrays by what they are, e.g.
 * "the CSR of input 5 transposed"), named `aK` / `sK` in the kernel's
 * header, and read by code that depends only on the inputs' formats and
 * broadcast kinds and on the rank of the low-rank product (up to
 * UNROLLED_RANK), never on other sizes or values (so equal operators over
 * other data share one compiled kernel):
 * - scalars and 1 x 1 matrices: hoisted from `s`;
 * - vectors (densified): indexed by the cell's row or column;
 * - dense matrices: by index, the row offset hoisted per row of the driver;
 * - CSR matrices of the driver's shape: walked along the driver's row
 *   (both visit a row's columns in increasing order), transposed first
 *   when read through a transpose (the transpose kept per matrix);
 * - the factors of a low-rank product: dense rows of length k. The product
 *   at the driver's cell (i, j): for a rank up to UNROLLED_RANK, the row
 *   U_i held in k locals per driver row and V_j loaded into k locals per
 *   cell (which a product with V then reuses: `productRow`), the dot
 *   product unrolled; for a larger rank, computed per row of the driver
 *   for all its visited cells at once (outer-dot-code.ts: U_i read once
 *   for eight rows of V) into a scratch array read per cell; read
 *   anywhere else (through a transpose, broadcast) one dot product per
 *   cell. Every dot product sums in order of the rank index, from 0.
 *
 * Positions are given in the driver's space: "i" its row, "j" its column.
 * When the kernel walks the driver's transpose (`transposed`: its loop
 * index i runs over the driver's columns), they are swapped into the
 * loop's indexes here, so the cell code is the same either way.
 */
import { type Value, num } from "../interpreter";
import { sharedCsr, transpose, transposedCsr } from "../kernels";
import { isDense, releaseIfTemporary, toDense, type Matrix, type CsrMatrix, type DenseMatrix } from "../matrix";
import type { KernelArray } from "./kernel-program";
import { UnsupportedOperator } from "./generated-operator";
import { DOT_FUNCTION, ROW_DOTS_FUNCTION } from "./outer-dot-code";

/** The largest rank whose dot products are unrolled into locals (the rank is then part of the kernel's source). */
export const UNROLLED_RANK = 16;

/** An index of the driver's space or of the loop: a row, a column, or 0 (broadcast). */
export type KernelIndex = "i" | "j" | "0";

/** The visited cells of the current driver row as the kernel lists them: columns `cols[from .. to)`, the current one at `q` from `from`. */
export interface DriverRowCells {
  cols: string;
  from: string;
  to: string;
  /** An upper bound of `to - from` over the rows (the row scratch arrays' length), registered when asked. */
  longest: () => string;
}

export class OuterKernelInputs {
  readonly arrays: KernelArray[] = [];
  readonly scalars: number[] = [];
  /** Kernel-level declarations (arrays, scalars, dims). */
  readonly header: string[] = [];
  /** Statements at the start of each driver row (`i` known). */
  readonly rowPrologue: string[] = [];
  /** Statements per driver row after its visited cells are listed (the row's low-rank products). */
  readonly rowDots: string[] = [];
  /** Statements at the start of each visited cell (`i`, `j`, `q` known), before the cell expression. */
  readonly cellPrologue: string[] = [];
  /** Per unrolled product, by the kernel name of its right factor: the locals holding that factor's row j in the current cell. */
  private readonly loadedRows = new Map<string, { k: number; locals: string[] }>();
  /** How the driver loop lists a row's visited cells (set by the kernel before any product is read). */
  rowCells: DriverRowCells | undefined;
  private readonly names = new Map<string, string>();
  /** Dense copies made for this run (CSR vectors and factors, transposes), released after it. */
  private readonly temporaries: [DenseMatrix, Matrix][] = [];
  private counter = 0;

  /** `transposed`: the loop walks the driver's transpose (loop row i = the driver's column). */
  constructor(
    private readonly inputs: ReadonlyMap<number, Value>,
    readonly transposed = false,
  ) {}

  /** The loop's index for an index of the driver's space. */
  loopIndex(index: KernelIndex): KernelIndex {
    if (!this.transposed || index === "0") return index;
    return index === "i" ? "j" : "i";
  }

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

  /** The kernel name of input `node` as a dense row-major array (its own rows), or of its transpose; one array per orientation. */
  denseArray(node: number, transposed: boolean): string {
    return this.array(`dense ${node}${transposed ? " transposed" : ""}`, () => this.dense(node, transposed).data);
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
   * The value of input `node` at (row, col) of its own shape, in the
   * driver's space: index expressions "i", "j" or "0" (broadcast).
   * `driver` reads as `x` at (i, j).
   */
  read(node: number, row: KernelIndex, col: KernelIndex, driver: number): string {
    const v = this.inputs.get(node);
    if (!v) throw new UnsupportedOperator(`input ${node} of an Outer operator has no value`);
    if (v.kind !== "matrix") return this.scalar(`input ${node}`, () => num(v));
    const m = v.matrix;
    if (node === driver && row === "i" && col === "j") return "x";
    if (m.rows === 1 && m.cols === 1) return this.scalar(`input ${node}`, () => m.get(0, 0));
    const r = this.loopIndex(row);
    const c = this.loopIndex(col);
    if (m.rows === 1) return `${this.denseArray(node, false)}[${c}]`;
    if (m.cols === 1) return `${this.denseArray(node, false)}[${r}]`;
    if (isDense(m)) return this.denseCell(node, m, r, c);
    if (r === "i" && c === "j") return this.walk(node, m);
    if (r === "j" && c === "i") return this.walk(node, m, true);
    throw new UnsupportedOperator(`a CSR input (${node}) read at (${row}, ${col}) of an Outer operator`);
  }

  private denseCell(node: number, m: DenseMatrix, row: string, col: string): string {
    const data = this.denseArray(node, false);
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
      const csr = transposed ? transposedCsr(m) : sharedCsr(m);
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
   * The product of row `row` of factor `left` and row `col` of factor
   * `right` (both dense row-major with `k` columns), positions in the
   * driver's space: at the driver's cell, unrolled (k up to UNROLLED_RANK)
   * or from the row's scratch array filled once per row by `rowDots`;
   * elsewhere a call of the per-cell `dot`.
   */
  product(left: string, right: string, k: number, row: KernelIndex, col: KernelIndex): string {
    let [l, r, at] = [left, right, [this.loopIndex(row), this.loopIndex(col)]];
    // Read at the loop's (j, i): the same sums with the factors' roles swapped.
    if (at[0] === "j" && at[1] === "i") [l, r, at] = [right, left, ["i", "j"]];
    const [R, C] = at as [KernelIndex, KernelIndex];
    const cells = this.rowCells;
    if (R !== "i" || C !== "j" || cells === undefined) return this.dot(l, r, this.rank(k), R, C);
    if (k <= UNROLLED_RANK) return this.unrolledProduct(l, r, k);
    return this.once(`row dots ${l} ${r} ${k}`, () => {
      this.once("rowDots", () => {
        this.header.push(...ROW_DOTS_FUNCTION);
        return "rowDots";
      });
      const scratch = `rd${this.counter++}`;
      this.header.push(`const ${scratch} = new Float64Array(${cells.longest()});`);
      const rank = this.rank(k);
      this.rowDots.push(`rowDots(${l}, ${this.factorRow(rank)}, ${r}, ${cells.cols}, ${cells.from}, ${cells.to}, ${rank}, ${scratch});`);
      return `${scratch}[q]`;
    });
  }

  /**
   * The locals holding row j of array `name` (k values) in the current
   * cell, when an unrolled product loads that row; a product with that
   * factor then reads them instead of loading the row again.
   */
  productRow(name: string, k: number): string[] | undefined {
    const loaded = this.loadedRows.get(name);
    return loaded && loaded.k === k ? loaded.locals : undefined;
  }

  /** dot(L_i, R_j) with L_i in k locals per row and R_j in k locals per cell, summed in order from 0. */
  private unrolledProduct(left: string, right: string, k: number): string {
    return this.once(`unrolled ${left} ${right} ${k}`, () => {
      const id = this.counter++;
      const base = this.factorRow(String(k));
      const u = Array.from({ length: k }, (_, c) => `u${id}_${c}`);
      const v = Array.from({ length: k }, (_, c) => `v${id}_${c}`);
      this.rowDots.push(`const ${u.map((name, c) => `${name} = ${left}[${base} + ${c}]`).join(", ")};`);
      const vb = `vb${id}`;
      const sum = u.map((name, c) => `${name} * ${v[c]!}`).join(" + ");
      this.cellPrologue.push(`const ${vb} = j * ${k};`, `const ${v.map((name, c) => `${name} = ${right}[${vb} + ${c}]`).join(", ")};`, `const d${id} = 0 + ${sum};`);
      if (!this.loadedRows.has(right)) this.loadedRows.set(right, { k, locals: v });
      return `d${id}`;
    });
  }

  /** The rank as a kernel scalar (the generic loops read it from `s`). */
  private rank(k: number): string {
    return this.scalar(`rank ${k}`, () => k);
  }

  /** One dot product per cell (four independent accumulators). */
  private dot(left: string, right: string, k: string, row: KernelIndex, col: KernelIndex): string {
    this.once("dot", () => {
      this.header.push(...DOT_FUNCTION);
      return "dot";
    });
    const offset = (index: KernelIndex) => (index === "i" ? this.factorRow(k) : `${index} * ${k}`);
    return `dot(${left}, ${offset(row)}, ${right}, ${offset(col)}, ${k})`;
  }

  /** The offset of row i in a factor with `k` columns (a kernel scalar or a literal), once per driver row. */
  private factorRow(k: string): string {
    return this.once(`factor row ${k}`, () => {
      const name = `fo${this.counter++}`;
      this.rowPrologue.push(`const ${name} = i * ${k};`);
      return name;
    });
  }

  private once(key: string, make: () => string): string {
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const name = make();
    this.names.set(key, name);
    return name;
  }
}
