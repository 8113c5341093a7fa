/**
 * Builds the Row kernel of a fused operator for the values of its inputs,
 * following the reference Row skeleton (engine/runtime/fused/row-skeleton.ts)
 * node by node: a value with the main input's rows is read as its row i
 * (dense: an offset into its data; CSR: its row's range of non-zeros),
 * other values are whole (scalars and 1 x 1 values hoisted from `s`, row
 * vectors and product operands as dense arrays, covered nodes that do not
 * depend on the row computed once, before the kernel runs, with the
 * runtime's operations). Per row: element-wise operations as loops over
 * the row's columns into scratch vectors (width 1: plain locals), row
 * aggregates, dot products `X_i v` with four independent accumulators,
 * `X_i B`, cbind, rowIndexMax. Results: row-wise roots into the rows of
 * `out`; column and full aggregates and `t(A) %*% B` (outer products
 * X_i^T B_i) into accumulator slots.
 *
 * Anything the skeleton cannot compute this way throws UnsupportedOperator
 * naming the node (the reference would fail, or the kernel has no code for
 * it): never a wrong answer.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { AggregateFunction, ElementwiseBinaryOp } from "../../program";
import { BUILTINS, type EvalContext, aggregateValue, binary, castValue, mat, num, unary, double, type Value } from "../interpreter";
import { cbind, matmul, rightIndex, transpose } from "../kernels";
import { allocateF64, bufferPool, toDense, isSparse, SHARED_MIN_LENGTH, type Matrix } from "../matrix";
import { callOperandOrder, columnRangeOf, nodeLabel } from "../fused";
import { columnSliceCode } from "./column-slice-code";
import { UnsupportedOperator } from "./generated-operator";
import { binaryCode, numberCode, unaryCode } from "./operation-code";
import { RowKernelText, UNROLLED_MAX_WIDTH } from "./row-kernel-text";
import type { RowRootResult } from "./row-results";
import { cellsVisited, elementAt, widthOf, type RowVectorCode } from "./row-vector-code";

/** A node's value within row i: its row (1 x width), the transpose of one, or a value that does not depend on the row. */
type RowPart = { kind: "row"; code: RowVectorCode } | { kind: "rowT"; code: RowVectorCode } | { kind: "whole"; value: Value };

type DenseOrScalar = Exclude<RowVectorCode, { kind: "sparse" }>;

export interface RowKernelPlan {
  readonly text: RowKernelText;
  readonly skipTest: string | undefined;
  readonly results: readonly RowRootResult[];
  readonly workPerRow: number;
  readonly rows: number;
}

/** A zero of the left row in `t(A) %*% B` skips B's row when it is at least this wide (a test per cell of A against that many multiply-adds). */
const ZERO_SKIP_MIN_WIDTH = 4;

/** Accumulated sums keep three slot groups: the compensated sum, its compensation and the plain sum (the result when the former is not finite). */
const SUM_FUNCTIONS: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "mean"]);
const ROW_AGGREGATE_FUNCTIONS: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "mean", "min", "max", "prod"]);

export function buildRowKernel(dag: FusionDag, op: FusedOperator, inputs: ReadonlyMap<number, Value>): RowKernelPlan {
  return new RowKernelBuilder(dag, op, inputs).build();
}

class RowKernelBuilder {
  private readonly text = new RowKernelText();
  private readonly covered: ReadonlySet<number>;
  private readonly parts = new Map<number, RowPart>();
  private readonly wholeCodes = new Map<number, DenseOrScalar>();
  private readonly denseOf = new Map<RowVectorCode, DenseOrScalar>();
  /** Per-row finiteness flags already computed (finiteRow). */
  private readonly finiteRows = new Map<DenseOrScalar, string>();
  private readonly results: RowRootResult[] = [];
  private readonly main: Matrix;
  private readonly rows: number;
  private work = 0;

  constructor(
    readonly dag: FusionDag,
    readonly op: FusedOperator,
    readonly inputs: ReadonlyMap<number, Value>,
  ) {
    this.covered = new Set(op.covered);
    const mainNode = op.binding.mainInput;
    if (mainNode === null) this.unsupported(undefined, "a Row operator needs a main input to loop over");
    const main = inputs.get(mainNode);
    if (!main || main.kind !== "matrix") this.unsupported(mainNode, "the main input is not a matrix");
    this.main = main.matrix;
    this.rows = main.matrix.rows;
    if (this.rows === 0) this.unsupported(mainNode, "the main input has no rows");
  }

  build(): RowKernelPlan {
    const skipTest = this.op.binding.sparseSafe ? this.skipTest() : undefined;
    for (const root of this.op.roots) this.root(root);
    return { text: this.text, skipTest, results: this.results, workPerRow: Math.max(1, this.work), rows: this.rows };
  }

  private unsupported(node: number | undefined, why: string): never {
    const at = node === undefined ? "" : ` at node ${node} (${nodeLabel(this.dag.nodes[node])})`;
    throw new UnsupportedOperator(`no Row kernel for operator ${this.op.id}${at}: ${why}`);
  }

  /** The condition under which row i is skipped: the main input's row is all zeros. */
  private skipTest(): string {
    const mainNode = this.op.binding.mainInput!;
    const part = this.part(mainNode);
    if (part.kind !== "row") this.unsupported(mainNode, "the main input is not read by rows");
    const code = part.code;
    if (code.kind === "scalar") return `${code.expr} === 0`;
    if (code.kind === "sparse") return `${code.start} === ${code.end}`;
    const empty = this.text.name("z");
    if (code.width <= UNROLLED_MAX_WIDTH) this.text.header.push(`const ${empty} = ${Array.from({ length: code.width }, (_, j) => `${elementAt(code, String(j))} === 0`).join(" && ")};`);
    else this.text.header.push(`let ${empty} = true;`, `for (let j = 0; j < ${code.widthName}; j++) if (${elementAt(code, "j")} !== 0) { ${empty} = false; break; }`);
    return empty;
  }

  // ---- roots ----

  private root(root: number): void {
    const n = this.dag.nodes[root]!;
    const o = n.op;
    if (o.kind === "aggregate" && o.direction !== "row") {
      const input = this.part(n.inputs[0]!);
      if (input.kind === "row") return this.columnAggregate(root, o.fn, o.direction, input.code);
    }
    if (o.kind === "matmul" && this.accumulatedProduct(root, n.inputs[0]!, n.inputs[1]!)) return;
    const part = this.part(root);
    if (part.kind === "whole") {
      this.results.push({ kind: "whole", root, value: part.value });
      return;
    }
    this.rowOutput(root, part.code, part.kind === "rowT");
  }

  /**
   * A row-wise root: row i of it into the rows of an output array of its
   * own (rows x width, shared so that threads write it in place); a
   * transposed row's root is transposed after the run.
   */
  private rowOutput(root: number, code: RowVectorCode, transposed: boolean): void {
    const width = widthOf(code);
    const data = rowOutputArray(this.rows * width);
    const arr = this.text.array(data);
    this.results.push({ kind: "rows", root, data, width, transposed });
    this.work += width;
    const w = this.text.width(width);
    const at = width === 1 ? "i" : this.text.name("ob");
    if (width > 1) this.text.body.push(`const ${at} = i * ${w};`);
    this.text.skipped.push(width === 1 ? `${arr}[i] = 0;` : `${arr}.fill(0, i * ${w}, i * ${w} + ${w});`);
    if (code.kind === "scalar") this.text.body.push(`${arr}[${at}] = ${code.expr};`);
    else if (code.kind === "dense") this.text.body.push(this.text.forCells(width, "j", (j) => `${arr}[${at} + ${j}] = ${elementAt(code, j)};`));
    else {
      this.text.body.push(`${arr}.fill(0, ${at}, ${at} + ${code.widthName});`, `for (let p = ${code.start}; p < ${code.end}; p++) ${arr}[${at} + ${code.idx}[p]] = ${code.vals}[p];`);
    }
  }

  /** A column or full aggregate of a row-wise value: folded into accumulator slots row by row. */
  private columnAggregate(root: number, fn: AggregateFunction, direction: "col" | "full", code: RowVectorCode): void {
    const width = widthOf(code);
    const slots = direction === "col" ? width : 1;
    const slot = (j: string) => (direction === "col" ? j : "0");
    this.work += cellsVisited(code);
    if (SUM_FUNCTIONS.has(fn)) {
      // As the runtime's kernels: a column's sum compensated in one sum; a full sum in two, by the parity of the cell's index.
      const ways = direction === "col" ? 1 : 2;
      const sum = this.text.accumulators(slots * ways, 0, "sum");
      const comp = this.text.accumulators(slots * ways, 0, "sum");
      const plain = this.text.accumulators(slots, 0, "sum");
      this.results.push({ kind: "sum", root, fn, direction, width, rows: this.rows, sum: sum.start, compensation: comp.start, plain: plain.start });
      // A full sum's five slots are local numbers of the kernel; a column sum's stay in acc (one per column).
      const full = direction === "full" ? { sums: this.text.localSlots(sum.base, 2), comps: this.text.localSlots(comp.base, 2), plain: this.text.localSlots(plain.base, 1)[0]! } : undefined;
      const add = (j: string, v: string, parity: string) => {
        const e = fn === "sumSq" ? `${v} * ${v}` : v;
        if (full) {
          const way = (w: 0 | 1) => `const y = e - ${full.comps[w]}; const t = ${full.sums[w]} + y; ${full.comps[w]} = t - ${full.sums[w]} - y; ${full.sums[w]} = t;`;
          return `{ const e = ${e}; if ((${parity}) === 0) { ${way(0)} } else { ${way(1)} } ${full.plain} += e; }`;
        }
        const k = `${sum.base} + ${j}`;
        const c = `${comp.base} + ${j}`;
        return `{ const e = ${e}; const y = e - acc[${c}]; const t = acc[${k}] + y; acc[${c}] = t - acc[${k}] - y; acc[${k}] = t; acc[${plain.base} + ${slot(j)}] += e; }`;
      };
      if (code.kind === "sparse") {
        this.text.body.push(`for (let p = ${code.start}; p < ${code.end}; p++) ${add(`${code.idx}[p]`, `${code.vals}[p]`, "(p & 1)")}`);
        return;
      }
      const dense = this.dense(code);
      if (dense.kind === "scalar") this.text.body.push(add("0", `(${dense.expr})`, "(i & 1)"));
      // Unrolled for a narrow row, so that a scratch row the cells come from becomes local numbers.
      else this.text.body.push(this.text.forCells(width, "j", (j) => add(j, elementAt(dense, j), `((i * ${dense.widthName} + ${j}) & 1)`)));
      return;
    }
    if (fn === "min" || fn === "max" || fn === "prod") {
      const init = fn === "min" ? Infinity : fn === "max" ? -Infinity : 1;
      const slotsOf = this.text.accumulators(slots, init, fn);
      this.results.push({ kind: "fold", root, direction, width, start: slotsOf.start });
      const fold = (j: string, v: string) => {
        const k = `${slotsOf.base} + ${slot(j)}`;
        return fn === "prod" ? `acc[${k}] *= ${v};` : `acc[${k}] = Math.${fn}(acc[${k}], ${v});`;
      };
      // A skipped row is a row of zeros (the reference folds its zero slice).
      this.text.skipped.push(direction === "col" ? `for (let j = 0; j < ${this.text.width(width)}; j++) ${fold("j", "0")}` : fold("0", "0"));
      this.foldElements(code, fold, true);
      return;
    }
    this.unsupported(root, `a ${direction} ${fn} cannot be accumulated row by row`);
  }

  /**
   * Emits `fold(j, value)` for the row's cells: every cell of a dense row,
   * the stored cells of a sparse one (and its zeros when `zeros`, which a
   * min, max or prod must see: the row is densified).
   */
  private foldElements(code: RowVectorCode, fold: (j: string, v: string) => string, zeros: boolean): void {
    if (code.kind === "sparse" && !zeros) {
      this.text.body.push(`for (let p = ${code.start}; p < ${code.end}; p++) ${fold(`${code.idx}[p]`, `${code.vals}[p]`)}`);
      return;
    }
    const dense = this.dense(code);
    if (dense.kind === "scalar") this.text.body.push(fold("0", `(${dense.expr})`));
    else this.text.body.push(this.text.forCells(dense.width, "j", (j) => fold(j, elementAt(dense, j))));
  }

  /**
   * `t(A) %*% B` with A and B row-wise (row i adds A_i^T B_i), or `C %*% B`
   * with C a whole matrix with the main input's rows as columns (adds
   * C[, i] B_i); false when the product is not accumulated over the rows.
   */
  private accumulatedProduct(root: number, a: number, b: number): boolean {
    const right = this.part(b);
    if (right.kind !== "row") return false;
    const left = this.part(a);
    const k = widthOf(right.code);
    if (left.kind === "rowT") {
      const m = widthOf(left.code);
      const start = this.text.accInit.length;
      this.results.push({ kind: "product", root, rows: m, cols: k, start });
      if (right.code.kind === "sparse" && left.code.kind !== "sparse") {
        this.sparseRightOuterProductAdd(left.code, right.code, this.text.localSums(m * k), k);
        return true;
      }
      const b = this.dense(right.code);
      if (left.code.kind === "dense" && b.kind === "scalar") this.columnVectorProduct(left.code, b.expr, this.text.interleavedSums(m, 4));
      else this.outerProductAdd(left.code, b, this.text.localSums(m * k), k);
      return true;
    }
    if (left.kind === "whole" && left.value.kind === "matrix" && left.value.matrix.cols === this.rows) {
      const c = toDense(left.value.matrix);
      const start = this.text.accInit.length;
      const local = this.text.localSums(c.rows * k);
      this.results.push({ kind: "product", root, rows: c.rows, cols: k, start });
      const arr = this.text.array(c.data);
      const column = this.text.name("cc");
      // Column i of C, one number per row of C (stride: the main input's rows).
      this.text.body.push(`for (let r = 0; r < ${this.text.width(c.rows)}; r++) {`, `  const ${column} = ${arr}[r * ${this.text.width(this.rows)} + i];`);
      this.text.body.push(`  ${this.axpy(this.dense(right.code), column, local, `r * ${this.text.width(k)}`)}`, "}");
      this.work += c.rows * k;
      return true;
    }
    return false;
  }

  /** g[j k + c] += A_ij B_ic over A's cells (its stored cells when sparse), g a local accumulator array. */
  private outerProductAdd(a: RowVectorCode, b: DenseOrScalar, g: string, k: number): void {
    this.work += cellsVisited(a) * k;
    // An unrolled cell's offset is a literal (so are the sums' indexes then: RowKernelText.program keeps them in locals).
    const row = (j: string) => (isLiteral(j) ? String(Number(j) * k) : k === 1 ? j : `${j} * ${this.text.width(k)}`);
    if (a.kind === "sparse") {
      this.text.body.push(`for (let p = ${a.start}; p < ${a.end}; p++) {`, `  const x = ${a.vals}[p];`, `  ${this.axpy(b, "x", g, row(`${a.idx}[p]`))}`, "}");
      return;
    }
    if (a.kind === "scalar") {
      this.text.body.push(this.axpy(b, `(${a.expr})`, g, "0"));
      return;
    }
    // A zero of A adds nothing when B's row is finite (0 * x is ±0, and a sum that starts at +0 never holds -0): its multiply-adds are skipped.
    const finite = b.kind === "dense" && b.width >= ZERO_SKIP_MIN_WIDTH ? this.finiteRow(b) : undefined;
    const add = (j: string) => (finite === undefined ? this.axpy(b, "x", g, row(j)) : `if (x !== 0 || !${finite}) { ${this.axpy(b, "x", g, row(j))} }`);
    this.text.body.push(this.text.forCells(a.width, "j", (j) => `{ const x = ${elementAt(a, j)}; ${add(j)} }`));
  }

  /** The name of a per-row flag: every cell of `b`'s row is finite (their sum is: a NaN or an infinity makes it NaN or infinite, and an overflow only withholds a skip). */
  private finiteRow(b: Extract<DenseOrScalar, { kind: "dense" }>): string {
    const known = this.finiteRows.get(b);
    if (known !== undefined) return known;
    const sum = this.text.name("fs");
    const finite = this.text.name("fin");
    if (b.width <= UNROLLED_MAX_WIDTH) this.text.body.push(`const ${sum} = ${Array.from({ length: b.width }, (_, c) => elementAt(b, String(c))).join(" + ")};`);
    else this.text.body.push(`let ${sum} = 0;`, `for (let c = 0; c < ${b.widthName}; c++) ${sum} += ${elementAt(b, "c")};`);
    this.text.body.push(`const ${finite} = ${sum} - ${sum} === 0;`);
    this.finiteRows.set(b, finite);
    return finite;
  }

  /**
   * g[j k + c] += A_ij B_ic over the stored cells c of B's sparse row only
   * (`t(U) %*% X` with X sparse: never scattered into its full width), as
   * the runtime's product with a CSR operand skips its zeros.
   */
  private sparseRightOuterProductAdd(a: DenseOrScalar, b: Extract<RowVectorCode, { kind: "sparse" }>, g: string, k: number): void {
    this.work += widthOf(a) * b.nnzPerRow;
    const kName = this.text.width(k);
    const y = this.text.name("y");
    const add = a.kind === "scalar" ? `${g}[c] += ${a.expr} * ${y};` : `for (let j = 0; j < ${a.widthName}; j++) ${g}[j * ${kName} + c] += ${elementAt(a, "j")} * ${y};`;
    this.text.body.push(`for (let p = ${b.start}; p < ${b.end}; p++) {`, `  const c = ${b.idx}[p], ${y} = ${b.vals}[p];`, `  ${add}`, "}");
  }

  /**
   * `t(A) %*% r` with A's rows dense and r a column: row i adds r_i A_i to
   * one of four local sums, in turn by i mod 4 (the last n mod 4 rows to the
   * first), combined as (g0 + g1) + (g2 + g3): over one range, exactly the
   * arithmetic of the runtime's GEMV of t(A) with r. The axpy is unrolled by four.
   */
  private columnVectorProduct(a: Extract<RowVectorCode, { kind: "dense" }>, r: string, g: string[]): void {
    this.work += a.width;
    const rows = this.text.integer(this.rows - (this.rows % 4));
    const local = this.text.name("g");
    const x = this.text.name("r");
    const add = (j: string) => `${local}[${j}] += ${elementAt(a, j)} * ${x};`;
    this.text.body.push(`const ${x} = ${r};`, `const ${local} = i >= ${rows} ? ${g[0]} : (i & 3) === 0 ? ${g[0]} : (i & 3) === 1 ? ${g[1]} : (i & 3) === 2 ? ${g[2]} : ${g[3]};`);
    if (a.width <= UNROLLED_MAX_WIDTH) {
      this.text.body.push(this.text.forCells(a.width, "j", add));
      return;
    }
    this.text.body.push(
      "{",
      "  let j = 0;",
      `  for (; j + 3 < ${a.widthName}; j += 4) { ${add("j")} ${add("j + 1")} ${add("j + 2")} ${add("j + 3")} }`,
      `  for (; j < ${a.widthName}; j++) ${add("j")}`,
      "}",
    );
  }

  /** g[at + c] += x * b_c over b's cells. */
  private axpy(b: DenseOrScalar, x: string, g: string, at: string): string {
    if (b.kind === "scalar") return `${g}[${at}] += ${x} * ${b.expr};`;
    if (isLiteral(at)) return this.text.forCells(b.width, "c", (c) => `${g}[${indexSum(at, c)}] += ${x} * ${elementAt(b, c)};`);
    return `{ const q = ${at}; ${this.text.forCells(b.width, "c", (c) => `${g}[q + ${c}] += ${x} * ${elementAt(b, c)};`)} }`;
  }

  // ---- per-row values ----

  private part(node: number): RowPart {
    const known = this.parts.get(node);
    if (known) return known;
    const input = this.inputs.get(node);
    let part: RowPart;
    if (input !== undefined) part = input.kind === "matrix" && input.matrix.rows === this.rows ? { kind: "row", code: this.alignedInput(input.matrix) } : { kind: "whole", value: input };
    else if (!this.covered.has(node)) this.unsupported(node, "node is neither covered nor an input of the operator");
    else part = this.compute(node);
    this.parts.set(node, part);
    return part;
  }

  /** Row i of an input with the main input's rows. */
  private alignedInput(m: Matrix): RowVectorCode {
    const header = this.text.header;
    if (isSparse(m)) {
      const [ptr, idx, vals] = [this.text.array(m.rowPtr), this.text.array(m.colIdx), this.text.array(m.values)];
      const start = this.text.name("ps");
      const end = this.text.name("pe");
      header.push(`const ${start} = ${ptr}[i], ${end} = ${ptr}[i + 1];`);
      if (m.cols === 1) {
        const v = this.text.name("v");
        header.push(`const ${v} = ${start} < ${end} ? ${vals}[${start}] : 0;`);
        return { kind: "scalar", expr: v };
      }
      return { kind: "sparse", vals, idx, start, end, width: m.cols, widthName: this.text.width(m.cols), nnzPerRow: m.rowPtr[m.rows]! / Math.max(1, m.rows) };
    }
    const arr = this.text.array(m.data);
    if (m.cols === 1) {
      const v = this.text.name("v");
      header.push(`const ${v} = ${arr}[i];`);
      return { kind: "scalar", expr: v };
    }
    const widthName = this.text.width(m.cols);
    const off = this.text.name("o");
    header.push(`const ${off} = i * ${widthName};`);
    return { kind: "dense", arr, off, width: m.cols, widthName };
  }

  /** The whole value of an operand read whole (a product's right side): an input, or a covered node that does not depend on the row. */
  private whole(node: number, consumer: number): Value {
    const input = this.inputs.get(node);
    if (input !== undefined) return input;
    const part = this.part(node);
    if (part.kind !== "whole") this.unsupported(consumer, `reads node ${node} whole, but it is computed row by row`);
    return part.value;
  }

  /** A whole value broadcast along the row: a scalar or 1 x 1 (bound scalar) or a row vector (bound dense array). */
  private wholeCode(node: number, value: Value, consumer: number): DenseOrScalar {
    const known = this.wholeCodes.get(node);
    if (known) return known;
    let code: DenseOrScalar;
    if (value.kind === "scalar") {
      const x = this.wholeNumber(consumer, () => num(value));
      const literal = this.dag.nodes[node]?.op.kind === "literal";
      code = { kind: "scalar", expr: literal ? numberCode(x) : this.text.scalar(x) };
    } else if (value.kind === "matrix" && value.matrix.rows === 1) {
      const m = value.matrix;
      code = m.cols === 1 ? { kind: "scalar", expr: this.text.scalar(m.get(0, 0)) } : { kind: "dense", arr: this.text.array(toDense(m).data), off: "0", width: m.cols, widthName: this.text.width(m.cols) };
    } else {
      const shape = value.kind === "matrix" ? `a whole ${value.matrix.rows} x ${value.matrix.cols} matrix` : `a ${value.kind}`;
      return this.unsupported(consumer, `operand ${node} is ${shape}, not a row`);
    }
    this.wholeCodes.set(node, code);
    return code;
  }

  /** A whole value computed before the kernel runs (runtime errors there leave the operator to the unfused operations, which report them). */
  private wholeNumber(node: number, f: () => number): number {
    try {
      return f();
    } catch (error) {
      return this.unsupported(node, `its whole value fails: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private wholeValue(node: number, f: () => Value): RowPart {
    try {
      return { kind: "whole", value: f() };
    } catch (error) {
      if (error instanceof UnsupportedOperator) throw error;
      return this.unsupported(node, `its whole value fails: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The dense (or scalar) form of a row: a sparse row scattered into a scratch vector (once per row). */
  private dense(code: RowVectorCode): DenseOrScalar {
    if (code.kind !== "sparse") return code;
    const known = this.denseOf.get(code);
    if (known) return known;
    const t = this.text.scratch(code.width);
    this.text.body.push(`${t}.fill(0);`, `for (let p = ${code.start}; p < ${code.end}; p++) ${t}[${code.idx}[p]] = ${code.vals}[p];`);
    this.work += code.width;
    const dense: DenseOrScalar = { kind: "dense", arr: t, off: "0", width: code.width, widthName: code.widthName };
    this.denseOf.set(code, dense);
    return dense;
  }

  private compute(node: number): RowPart {
    const n = this.dag.nodes[node]!;
    const o = n.op;
    switch (o.kind) {
      case "literal":
        if (typeof o.value !== "number") this.unsupported(node, "a non-numeric literal");
        return { kind: "whole", value: double(o.value) };
      case "binary": {
        const op = o.op;
        return this.elementwise(node, n.inputs, ([a, b]) => binaryCode(op, a!, b!), (v) => binary(op, v[0]!, v[1]!));
      }
      case "unary": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "whole") return this.wholeValue(node, () => unary(o.op, a.value));
        if (a.kind === "rowT") this.unsupported(node, "an element-wise operation on a transposed row");
        return { kind: "row", code: this.map(node, [a.code], ([x]) => unaryCode(o.op, x!)) };
      }
      case "aggregate": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "whole") return this.wholeValue(node, () => aggregateValue(o.fn, o.direction, a.value));
        if (a.kind === "row" && o.direction === "row") return { kind: "row", code: this.rowAggregate(node, o.fn, a.code) };
        return this.unsupported(node, `a ${o.direction} aggregate over the rows is read inside the operator before all rows are seen`);
      }
      case "matmul":
        return this.matmul(node, n.inputs[0]!, n.inputs[1]!);
      case "transpose": {
        const a = this.part(n.inputs[0]!);
        if (a.kind === "whole") return this.wholeValue(node, () => ({ kind: "matrix", matrix: transpose(mat(a.value)) }));
        return { kind: a.kind === "row" ? "rowT" : "row", code: a.code };
      }
      case "call":
        return this.call(node, o.name);
      case "cbind":
        return this.cbind(node, n.inputs);
      case "index":
        return this.columnRange(node, n.inputs[0]!);
      case "cast": {
        const a = this.part(n.inputs[0]!);
        if (a.kind !== "whole") this.unsupported(node, `as.${o.to} of a row`);
        return this.wholeValue(node, () => castValue(o.to, a.value));
      }
      default:
        return this.unsupported(node, `a ${o.kind} node cannot be computed row by row`);
    }
  }

  /** `X[, a:b]` of X's row i, read in place (column-slice-code.ts). */
  private columnRange(node: number, x: number): RowPart {
    const range = columnRangeOf(this.dag, node, this.inputs);
    if (typeof range === "string") return this.unsupported(node, range);
    const a = this.part(x);
    if (a.kind === "whole") return this.wholeValue(node, () => ({ kind: "matrix", matrix: rightIndex(mat(a.value), { colLower: range.lower + 1, colUpper: range.upper }) }));
    const code = a.kind === "row" ? columnSliceCode(a.code, range, this.text) : undefined;
    return code ? { kind: "row", code } : this.unsupported(node, "a column range of a value not read as a dense row");
  }

  /**
   * An element-wise operation in row i: on whole values when no operand
   * depends on the row, else over the row's cells with the whole operands
   * broadcast (scalars, 1 x 1, row vectors).
   */
  private elementwise(node: number, inputs: readonly number[], code: (operands: string[]) => string, whole: (values: Value[]) => Value): RowPart {
    const parts = inputs.map((i) => this.part(i));
    if (parts.every((p) => p.kind === "whole")) return this.wholeValue(node, () => whole(parts.map((p) => (p as { value: Value }).value)));
    const codes = parts.map((p, k): RowVectorCode => {
      if (p.kind === "rowT") return this.unsupported(node, "an element-wise operation on a transposed row");
      return p.kind === "row" ? p.code : this.wholeCode(inputs[k]!, p.value, node);
    });
    return { kind: "row", code: this.map(node, codes, code) };
  }

  /** The row of an element-wise function of rows of width 1 or w (broadcast): a local (width 1) or a scratch vector filled by one loop. */
  private map(node: number, operands: readonly RowVectorCode[], code: (names: string[]) => string): RowVectorCode {
    const width = Math.max(...operands.map(widthOf));
    for (const operand of operands) {
      const w = widthOf(operand);
      if (w !== 1 && w !== width) this.unsupported(node, `operands of widths ${operands.map(widthOf).join(", ")} do not combine`);
    }
    if (width === 1) {
      const v = this.text.name("v");
      const names = operands.map((c) => this.local(c as Extract<RowVectorCode, { kind: "scalar" }>));
      this.text.body.push(`const ${v} = ${code(names)};`);
      this.work += 1;
      return { kind: "scalar", expr: v };
    }
    const dense = operands.map((c) => this.dense(c));
    const t = this.text.scratch(width);
    const names = dense.map((_, k) => `e${k}`);
    const operandNames = dense.map((c, k) => (c.kind === "scalar" ? c.expr : names[k]!));
    // Scalars broadcast: their names are loop-invariant locals.
    const loadsAt = (j: string) => dense.map((c, k) => (c.kind === "scalar" ? "" : `const e${k} = ${elementAt(c, j)}; `)).join("");
    this.text.body.push(this.text.forCells(width, "j", (j) => `{ ${loadsAt(j)}${t}[${j}] = ${code(operandNames)}; }`));
    this.work += width;
    return { kind: "dense", arr: t, off: "0", width, widthName: this.text.width(width) };
  }

  /** A scalar code as a plain name (operation code pastes its operands). */
  private local(code: Extract<RowVectorCode, { kind: "scalar" }>): string {
    if (/^[A-Za-z_$][\w$]*$/.test(code.expr) || /^\(?-?[\d.e+-]+\)?$|^NaN$|^Infinity$|^\(-Infinity\)$/.test(code.expr)) return code.expr;
    const v = this.text.name("v");
    this.text.body.push(`const ${v} = ${code.expr};`);
    return v;
  }

  /** A row aggregate of row i: sums compensated as the runtime's kernels (plain sum when not finite); min, max, prod see a sparse row's zeros. */
  private rowAggregate(node: number, fn: AggregateFunction, code: RowVectorCode): RowVectorCode {
    if (!ROW_AGGREGATE_FUNCTIONS.has(fn)) this.unsupported(node, `a row ${fn} is not computed row by row`);
    const v = this.text.name("v");
    this.work += cellsVisited(code);
    if (code.kind === "scalar") {
      this.text.body.push(`const ${v} = ${fn === "sumSq" ? `${code.expr} * ${code.expr}` : `+${code.expr}`};`);
      return { kind: "scalar", expr: v };
    }
    const body = this.text.body;
    if (SUM_FUNCTIONS.has(fn)) {
      // As the runtime's kahanSum: cells dealt to two compensated sums in turn, combined with one more compensated step; the plain sum when not finite.
      const [s0, c0, s1, c1, p] = [this.text.name("ks"), this.text.name("kc"), this.text.name("ks"), this.text.name("kc"), this.text.name("kp")];
      const add = (x: string, s: string, c: string) => `{ const e = ${fn === "sumSq" ? `${x} * ${x}` : x}; const y = e - ${c}; const t = ${s} + y; ${c} = t - ${s} - y; ${s} = t; ${p} += e; }`;
      body.push(`let ${s0} = 0, ${c0} = 0, ${s1} = 0, ${c1} = 0, ${p} = 0;`);
      const [first, end, at] = code.kind === "sparse" ? [code.start, code.end, (k: string) => `${code.vals}[${k}]`] : ["0", code.widthName, (k: string) => elementAt(code, k)];
      if (code.kind === "dense" && code.width <= UNROLLED_MAX_WIDTH) {
        // The loop below unrolled: even cells into (s0, c0), odd ones into (s1, c1), in the same order.
        body.push(Array.from({ length: code.width }, (_, j) => (j % 2 === 0 ? add(at(String(j)), s0, c0) : add(at(String(j)), s1, c1))).join(" "));
      } else {
        body.push(
          "{",
          `  let k = ${first};`,
          `  for (; k + 1 < ${end}; k += 2) { ${add(at("k"), s0, c0)} ${add(at("k + 1"), s1, c1)} }`,
          `  if (k < ${end}) ${add(at("k"), s0, c0)}`,
          "}",
        );
      }
      // (s0 - c0) + (s1 - c1) with one more compensated step, as kahan.ts combines its two sums.
      const [y, t, total] = [this.text.name("ky"), this.text.name("kt"), this.text.name("kt")];
      body.push(`const ${y} = ${s1} - ${c1} - ${c0};`, `const ${t} = ${s0} + ${y};`, `const ${total} = ${t} - (${t} - ${s0} - ${y});`);
      const sum = `(${total} - ${total} === 0 ? ${total} : ${p})`;
      body.push(`const ${v} = ${fn === "mean" ? `${sum} / ${code.widthName}` : sum};`);
      return { kind: "scalar", expr: v };
    }
    const init = fn === "min" ? "Infinity" : fn === "max" ? "(-Infinity)" : "1";
    const fold = (x: string) => (fn === "prod" ? `${v} *= ${x};` : `${v} = Math.${fn}(${v}, ${x});`);
    body.push(`let ${v} = ${init};`);
    if (code.kind === "sparse") body.push(`for (let p = ${code.start}; p < ${code.end}; p++) ${fold(`${code.vals}[p]`)}`, `if (${code.end} - ${code.start} < ${code.widthName}) ${fold("0")}`);
    else body.push(this.text.forCells(code.width, "j", (j) => fold(elementAt(code, j))));
    return { kind: "scalar", expr: v };
  }

  /** `A %*% B` in row i: A's row times a whole B (a dot product when B is a column), or whole times whole. */
  private matmul(node: number, a: number, b: number): RowPart {
    const left = this.part(a);
    if (left.kind === "row") {
      const value = this.whole(b, node);
      if (value.kind !== "matrix") this.unsupported(node, "a row times a scalar");
      const m = widthOf(left.code);
      if (m !== value.matrix.rows) this.unsupported(node, `row slice 1 x ${m} times a ${value.matrix.rows} x ${value.matrix.cols} matrix`);
      return { kind: "row", code: this.rowTimesMatrix(toDense(value.matrix), left.code) };
    }
    const right = this.part(b);
    if (left.kind === "whole" && right.kind === "whole") return this.wholeValue(node, () => ({ kind: "matrix", matrix: matmul(mat(left.value), mat(right.value)) }));
    return this.unsupported(node, "a product accumulated over the rows is read inside the operator before all rows are seen");
  }

  /** Row i of `A %*% B` (B dense m x k): a scalar (k = 1: the dot product, four independent sums for a dense row) or a scratch vector of k. */
  private rowTimesMatrix(b: { rows: number; cols: number; data: Float64Array }, a: RowVectorCode): RowVectorCode {
    const k = b.cols;
    const bArr = this.text.array(b.data);
    const body = this.text.body;
    this.work += cellsVisited(a) * k;
    if (k === 1) {
      const v = this.text.name("v");
      if (a.kind === "scalar") body.push(`const ${v} = ${a.expr} * ${bArr}[0];`);
      else if (a.kind === "sparse") body.push(`let ${v} = 0;`, `for (let p = ${a.start}; p < ${a.end}; p++) ${v} += ${a.vals}[p] * ${bArr}[${a.idx}[p]];`);
      else if (a.width <= UNROLLED_MAX_WIDTH) {
        // The loop below unrolled: cell j into d(j mod 4), the last width mod 4 cells into d0, in the same order.
        const main = a.width - (a.width % 4);
        const adds = Array.from({ length: a.width }, (_, j) => `d${j < main ? j % 4 : 0} += ${elementAt(a, String(j))} * ${bArr}[${j}];`);
        body.push(`let ${v};`, "{", "  let d0 = 0, d1 = 0, d2 = 0, d3 = 0;", `  ${adds.join(" ")}`, `  ${v} = d0 + d1 + (d2 + d3);`, "}");
      } else {
        const at = (j: string) => elementAt(a, j);
        body.push(
          `let ${v};`,
          "{",
          "  let d0 = 0, d1 = 0, d2 = 0, d3 = 0, j = 0;",
          `  for (; j + 3 < ${a.widthName}; j += 4) { d0 += ${at("j")} * ${bArr}[j]; d1 += ${at("j + 1")} * ${bArr}[j + 1]; d2 += ${at("j + 2")} * ${bArr}[j + 2]; d3 += ${at("j + 3")} * ${bArr}[j + 3]; }`,
          `  for (; j < ${a.widthName}; j++) d0 += ${at("j")} * ${bArr}[j];`,
          `  ${v} = d0 + d1 + (d2 + d3);`,
          "}",
        );
      }
      return { kind: "scalar", expr: v };
    }
    const t = this.text.scratch(k);
    const kName = this.text.width(k);
    body.push(this.text.forCells(k, "c", (c) => `${t}[${c}] = 0;`));
    // An unrolled cell's row of B is at a literal offset (RowKernelText.program then reads B's cells once, before the loop).
    const addRow = (x: string, j: string) =>
      isLiteral(j)
        ? `{ const x = ${x}; ${this.text.forCells(k, "c", (c) => `${t}[${c}] += x * ${bArr}[${indexSum(String(Number(j) * k), c)}];`)} }`
        : `{ const x = ${x}; const q = ${j} * ${kName}; ${this.text.forCells(k, "c", (c) => `${t}[${c}] += x * ${bArr}[q + ${c}];`)} }`;
    if (a.kind === "scalar") body.push(addRow(a.expr, "0"));
    else if (a.kind === "sparse") body.push(`for (let p = ${a.start}; p < ${a.end}; p++) ${addRow(`${a.vals}[p]`, `${a.idx}[p]`)}`);
    else body.push(this.text.forCells(a.width, "j", (j) => addRow(elementAt(a, j), j)));
    return { kind: "dense", arr: t, off: "0", width: k, widthName: kName };
  }

  private call(node: number, name: string): RowPart {
    const n = this.dag.nodes[node]!;
    if (name === "rowIndexMax" && n.inputs.length === 1) {
      const a = this.part(n.inputs[0]!);
      if (a.kind === "whole") return this.wholeValue(node, () => BUILTINS.rowIndexMax!({ values: [a.value], names: [undefined] }, NO_CONTEXT));
      if (a.kind === "rowT") this.unsupported(node, "rowIndexMax of a transposed row");
      return { kind: "row", code: this.rowIndexMax(a.code) };
    }
    const order = callOperandOrder(n, name) ?? this.unsupported(node, `the call ${name} cannot be computed row by row`);
    const builtin = BUILTINS[name] ?? this.unsupported(node, `no builtin ${name}`);
    const ordered = order.map((k) => n.inputs[k]!);
    const whole = (values: Value[]) => {
      // The builtins take same-shaped matrices or scalars: a 1 x 1 operand beside a longer row is a scalar (as the reference).
      const width = Math.max(...values.map((v) => (v.kind === "matrix" ? v.matrix.cols : 1)));
      const operands = values.map((v) => (v.kind === "matrix" && v.matrix.rows * v.matrix.cols === 1 && width > 1 ? double(v.matrix.get(0, 0)) : v));
      return builtin({ values: operands, names: operands.map(() => undefined) }, NO_CONTEXT);
    };
    return this.elementwise(node, ordered, (x) => callCode(name, x), whole);
  }

  /** rowIndexMax of row i: the last column of the largest value (NaN passed over), 1-based; 0 when none compares. */
  private rowIndexMax(code: RowVectorCode): RowVectorCode {
    const v = this.text.name("v");
    const dense = this.dense(code);
    this.work += widthOf(code);
    if (dense.kind === "scalar") {
      this.text.body.push(`const ${v} = ${dense.expr} >= -Infinity ? 1 : 0;`);
      return { kind: "scalar", expr: v };
    }
    const best = this.text.name("b");
    this.text.body.push(
      `let ${best} = -Infinity, ${v} = 0;`,
      this.text.forCells(dense.width, "j", (j) => `{ const e = ${elementAt(dense, j)}; if (e >= ${best}) { ${best} = e; ${v} = ${isLiteral(j) ? Number(j) + 1 : `${j} + 1`}; } }`),
    );
    return { kind: "scalar", expr: v };
  }

  /** `cbind` in row i: the operands' rows side by side (every operand has the main input's rows), else whole. */
  private cbind(node: number, inputs: readonly number[]): RowPart {
    const parts = inputs.map((i) => this.part(i));
    if (parts.every((p) => p.kind === "whole")) return this.wholeValue(node, () => ({ kind: "matrix", matrix: cbind(...parts.map((p) => mat((p as { value: Value }).value))) }));
    const codes = parts.map((p, k) => (p.kind === "row" ? p.code : this.unsupported(node, `operand ${inputs[k]} of cbind is not a row of the main input's rows`)));
    const width = codes.reduce((sum, c) => sum + widthOf(c), 0);
    if (codes.length === 1) return { kind: "row", code: codes[0]! };
    const t = this.text.scratch(width);
    let offset = 0;
    // A narrow row's cells at literal indexes (the scratch row can then be locals: RowKernelText.program); a wide one's offsets bound as scalars.
    const literal = width <= UNROLLED_MAX_WIDTH;
    for (const c of codes) {
      const base = literal ? String(offset) : offset === 0 ? "0" : this.text.integer(offset);
      const at = base === "0" ? "" : `${base} + `;
      if (c.kind === "scalar") this.text.body.push(`${t}[${base}] = ${c.expr};`);
      else if (c.kind === "dense") this.text.body.push(this.text.forCells(c.width, "j", (j) => `${t}[${indexSum(base, j)}] = ${elementAt(c, j)};`));
      else this.text.body.push(`${t}.fill(0, ${at}0, ${at}${c.widthName});`, `for (let p = ${c.start}; p < ${c.end}; p++) ${t}[${at}${c.idx}[p]] = ${c.vals}[p];`);
      offset += widthOf(c);
    }
    this.work += width;
    return { kind: "row", code: { kind: "dense", arr: t, off: "0", width, widthName: this.text.width(width) } };
  }
}

/**
 * A row-wise root's output in shared memory, so a threaded call writes it
 * in place (a small one is not pooled: the pool hands out ordinary arrays
 * below SHARED_MIN_LENGTH, which a threaded call would write into a copy).
 * A pooled one is not cleared first: the kernel writes every cell of every
 * row (a sparse row's zeros and a skipped row included).
 */
function rowOutputArray(length: number): Float64Array {
  return length >= SHARED_MIN_LENGTH ? bufferPool.acquire(length) : allocateF64(length, true);
}

/** An element-wise builtin call's code over plain operand names (parameter order), as the reference's cell expression computes it. */
function callCode(name: string, x: readonly string[]): string {
  switch (name) {
    case "ifelse":
      return `(${x[0]} !== 0 ? ${x[1]} : ${x[2]})`;
    case "replace":
      return `(${x[0]} === ${x[1]} || (${x[1]} !== ${x[1]} && ${x[0]} !== ${x[0]}) ? ${x[2]} : ${x[0]})`;
    default: {
      let r = x[0]!;
      for (let k = 1; k < x.length; k++) r = binaryCode(name as ElementwiseBinaryOp & ("min" | "max"), r, x[k]!);
      return r;
    }
  }
}

/** The builtins used here (ifelse, replace, min, max, rowIndexMax) read nothing from the context. */
const NO_CONTEXT = {} as EvalContext;

/** Whether generated index text is a literal (an unrolled cell's index). */
function isLiteral(index: string): boolean {
  return /^\d+$/.test(index);
}

/** `base + c` as index text, one literal when both are. */
function indexSum(base: string, c: string): string {
  if (base === "0") return c;
  return isLiteral(base) && isLiteral(c) ? String(Number(base) + Number(c)) : `${base} + ${c}`;
}
