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
 * - the factors of a low-rank product: dense rows of length k. The product
 *   at the driver's cell (i, j) is computed per row of the driver, for all
 *   its visited cells at once (outer-dot-code.ts: U_i read once for four
 *   rows of V), into a scratch array read per cell; read anywhere else
 *   (through a transpose, broadcast) it is one dot product per cell.
 */
import { type Value, num } from "../interpreter";
import { transpose, transposeCsr } from "../kernels";
import { isDense, releaseIfTemporary, toDense, type Matrix, type CsrMatrix, type DenseMatrix } from "../matrix";
import type { KernelArray } from "./kernel-program";
import { UnsupportedOperator } from "./generated-operator";
import { DOT_FUNCTION, ROW_DOTS_FUNCTION } from "./outer-dot-code";

/** The visited cells of the current driver row as the kernel lists them: columns `cols[from .. to)`, the current one at `q` from `from`. */
export interface DriverRowCells {
  cols: string;
  from: string;
  to: string;
  /** An upper bound of `to - from` over the rows (the row scratch arrays' length). */
  longest: string;
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
  /** How the driver loop lists a row's visited cells (set by the kernel before any product is read). */
  rowCells: DriverRowCells | undefined;
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
   * The product of row `row` of factor `left` and row `col` of factor
   * `right` (both dense row-major with `k` columns): at the driver's cell
   * (i, j), from the row's scratch array filled once per row by
   * `rowDots`; elsewhere a call of the per-cell `dot`.
   */
  product(left: string, right: string, k: string, row: string, col: string): string {
    const cells = this.rowCells;
    if (row !== "i" || col !== "j" || cells === undefined) return this.dot(left, right, k, row, col);
    return this.once(`row dots ${left} ${right} ${k}`, () => {
      this.once("rowDots", () => {
        this.header.push(...ROW_DOTS_FUNCTION);
        return "rowDots";
      });
      const scratch = `rd${this.counter++}`;
      this.header.push(`const ${scratch} = new Float64Array(${cells.longest});`);
      this.rowDots.push(`rowDots(${left}, ${this.factorRow(k)}, ${right}, ${cells.cols}, ${cells.from}, ${cells.to}, ${k}, ${scratch});`);
      return `${scratch}[q]`;
    });
  }

  /** One dot product per cell (four independent accumulators). */
  private dot(left: string, right: string, k: string, row: string, col: string): string {
    this.once("dot", () => {
      this.header.push(...DOT_FUNCTION);
      return "dot";
    });
    const offset = (index: string) => (index === "i" ? this.factorRow(k) : `${index} * ${k}`);
    return `dot(${left}, ${offset(row)}, ${right}, ${offset(col)}, ${k})`;
  }

  /** The offset of row i in a factor with `k` columns, once per driver row. */
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
