/**
 * How a generated cell loop reads an operator's materialized inputs: the
 * kernel's arrays (`a`) and scalars (`s`), the declarations that name them
 * in the kernel, and the expression of an input at a position of the loop
 * (the `read` callback of CellCode):
 * - a scalar or a 1 x 1 matrix: a slot of `s` (hoisted before the loop);
 * - a dense matrix: `d<id>[o<id> + j]` at (i, j) with the row offset
 *   `o<id> = i * w<id>` set per row, `d<id>[j * w<id> + i]` at (j, i), and
 *   a vector by its one index;
 * - a CSR matrix at (i, j): its row i scattered into a dense row buffer
 *   `rb<id>` at the start of the row and cleared at its end; elsewhere
 *   (vectors, transposed reads) a dense copy made before the kernel;
 * - the main input at the loop's cell while the loop walks its non-zeros:
 *   `mva[p]`;
 * - a matrix at a column offset (a column range of it): its dense data or
 *   CSR row buffer at the shifted column.
 * Which arrays and scalars a kernel gets depends only on the operator and
 * the inputs' formats and shapes, never on their values, so equal
 * operators over same-format inputs share one kernel source.
 */
import type { Value } from "../interpreter";
import { csrToDense, type CsrMatrix, type Matrix, releaseMatrix } from "../matrix";
import type { CellPosition } from "./cell-code";
import { UnsupportedOperator } from "./generated-operator";
import type { KernelArray } from "./kernel-program";

export class KernelInputs {
  readonly arrays: KernelArray[] = [];
  readonly scalars: number[] = [];
  /** `const` declarations at the top of the kernel. */
  readonly declarations: string[] = [];
  /** Statements at the start and the end of each row. */
  readonly rowStart: string[] = [];
  readonly rowEnd: string[] = [];
  private readonly bound = new Map<string, string>();
  /** Dense copies of CSR inputs made for this call (released by `release`). */
  private readonly copies: Matrix[] = [];

  /**
   * `cols`: the domain's columns (the kernel's `n`); `walked`: the main
   * input whose non-zeros the loop walks (CSR), if any.
   */
  constructor(
    private readonly values: ReadonlyMap<number, Value>,
    cols: number,
    private readonly walked?: { node: number; matrix: CsrMatrix },
  ) {
    this.declarations.push(`const n = ${this.scalar(cols)} | 0;`);
    if (walked) {
      const { rowPtr, colIdx, values: nz } = walked.matrix;
      this.declarations.push(`const mrp = ${this.array(rowPtr)}, mci = ${this.array(colIdx)}, mva = ${this.array(nz)};`);
    }
  }

  /** Adds a scalar slot; returns its expression `s[k]`. */
  scalar(x: number): string {
    this.scalars.push(x);
    return `s[${this.scalars.length - 1}]`;
  }

  private array(x: KernelArray): string {
    this.arrays.push(x);
    return `a[${this.arrays.length - 1}]`;
  }

  /** The expression of materialized input `node` at `at` (a position of its own shape). */
  readonly read = (node: number, at: CellPosition): string => {
    const value = this.values.get(node);
    if (value === undefined) throw new UnsupportedOperator(`node ${node} is not an input of the operator`);
    if (value.kind === "scalar") {
      if (value.type === "string") throw new UnsupportedOperator(`a string input (node ${node}) in a cell loop`);
      return this.once(`scalar:${node}`, () => this.scalar(Number(value.value)));
    }
    if (value.kind !== "matrix") throw new UnsupportedOperator(`a ${value.kind} input (node ${node}) in a cell loop`);
    const m = value.matrix;
    if (m.rows === 1 && m.cols === 1) return this.once(`scalar:${node}`, () => this.scalar(m.get(0, 0)));
    if (at.colOffset !== undefined) return this.offsetRead(node, m, at, at.colOffset);
    const atCell = at.row === "i" && at.col === "j";
    if (atCell && this.walked?.node === node) return "mva[p]";
    if (atCell && m.format === "sparse") return `${this.rowBuffer(node, m)}[j]`;
    const d = this.dense(node, m);
    if (at.row === "0" || at.col === "0") return `${d}[${at.row === "0" ? at.col : at.row}]`;
    const w = this.cols(node, m);
    if (atCell) {
      const o = this.once(`offset:${node}`, () => {
        this.rowStart.push(`const o${node} = i * ${w};`);
        return `o${node}`;
      });
      return `${d}[${o} + j]`;
    }
    return `${d}[${at.row} * ${w} + ${at.col}]`;
  };

  /**
   * A matrix read at (row, col + offset) (a column range of it): row i of a
   * CSR matrix from its row buffer, else its dense data (a CSR matrix read
   * at other rows densified).
   */
  private offsetRead(node: number, m: Matrix, at: CellPosition, offset: string): string {
    const col = at.col === "0" ? offset : `${at.col} + ${offset}`;
    if (at.row === "i" && m.format === "sparse") return `${this.rowBuffer(node, m)}[${col}]`;
    const d = this.dense(node, m);
    if (at.row === "0") return `${d}[${col}]`;
    if (at.row === "i") {
      const o = this.once(`offset:${node}`, () => {
        this.rowStart.push(`const o${node} = i * ${this.cols(node, m)};`);
        return `o${node}`;
      });
      return `${d}[${o} + ${col}]`;
    }
    return `${d}[${at.row} * ${this.cols(node, m)} + ${col}]`;
  }

  /** Hands back the dense copies made for the call. */
  release(): void {
    for (const m of this.copies) releaseMatrix(m);
    this.copies.length = 0;
  }

  private once(key: string, make: () => string): string {
    const known = this.bound.get(key);
    if (known !== undefined) return known;
    const name = make();
    this.bound.set(key, name);
    return name;
  }

  private cols(node: number, m: Matrix): string {
    return this.once(`cols:${node}`, () => {
      this.declarations.push(`const w${node} = ${this.scalar(m.cols)} | 0;`);
      return `w${node}`;
    });
  }

  private dense(node: number, m: Matrix): string {
    return this.once(`dense:${node}`, () => {
      let data: Float64Array;
      if (m.format === "dense") data = m.data;
      else {
        const copy = csrToDense(m);
        this.copies.push(copy);
        data = copy.data;
      }
      this.declarations.push(`const d${node} = ${this.array(data)};`);
      return `d${node}`;
    });
  }

  private rowBuffer(node: number, m: CsrMatrix): string {
    return this.once(`row:${node}`, () => {
      const w = this.cols(node, m);
      this.declarations.push(`const rp${node} = ${this.array(m.rowPtr)}, ci${node} = ${this.array(m.colIdx)}, va${node} = ${this.array(m.values)};`);
      this.declarations.push(`const rb${node} = new Float64Array(${w});`);
      this.rowStart.push(`for (let q = rp${node}[i], qe = rp${node}[i + 1]; q < qe; q++) rb${node}[ci${node}[q]] = va${node}[q];`);
      this.rowEnd.push(`for (let q = rp${node}[i], qe = rp${node}[i + 1]; q < qe; q++) rb${node}[ci${node}[q]] = 0;`);
      return `rb${node}`;
    });
  }
}
