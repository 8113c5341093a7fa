/**
 * The generated kernel of a Cell or MAgg operator: one loop over the rows
 * [r0, r1) of the roots' common domain and, per row, over its cells (all
 * columns, or only the main input's non-zeros when the binding is
 * sparse-safe and the main input is CSR of the domain's shape), the
 * per-cell code (cell-code.ts) and each root's fold (cell-folds.ts):
 *
 *     function (a, s, r0, r1, acc, out) {
 *       <arrays, dims, hoisted scalars and invariant code>
 *       for (let i = r0; i < r1; i++) {    -- two rows per turn for a full sum over one column (cell-folds.ts)
 *         <row offsets, CSR row buffers, per-row code>
 *         for (let j = 0; j < n; j++) { [if (main !== 0)] <cell code; folds> }
 *         -- or, walking the main input's non-zeros:
 *         for (let p = mrp[i], pe = mrp[i + 1]; p < pe; p++) { const j = mci[p]; <cell code; folds> }
 *         <row folds>
 *       }
 *       <range folds into acc>
 *     }
 *
 * With a sparse-safe binding and a dense main input, a cell where the main
 * input is 0 is not computed and counts as 0, as the reference skeleton
 * says.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import type { CsrMatrix } from "../matrix";
import type { NodeShape } from "../fused";
import { CellCode, CURRENT_CELL, positionIn, type CellPosition } from "./cell-code";
import { foldCode, foldSlots, isFullSumFold } from "./cell-folds";
import type { CellRootPlan } from "./cell-roots";
import type { Combine, KernelCall } from "./kernel-program";
import { KernelInputs } from "./kernel-inputs";

/** How the loop visits the cells of a row. */
export type CellVisit =
  /** every column */
  | { readonly kind: "all" }
  /** every column, computing only those where the main input (read at `at`) is not 0 */
  | { readonly kind: "main-non-zero"; readonly main: number; readonly mainShape: NodeShape; readonly transposed: boolean }
  /** only the non-zeros of the CSR main input (its shape is the domain's) */
  | { readonly kind: "walk"; readonly main: number; readonly matrix: CsrMatrix };

export interface CellLoop {
  readonly dag: FusionDag;
  readonly op: FusedOperator;
  readonly values: ReadonlyMap<number, Value>;
  readonly shapes: ReadonlyMap<number, NodeShape>;
  readonly roots: readonly CellRootPlan[];
  readonly domain: { readonly rows: number; readonly cols: number };
  readonly visit: CellVisit;
}

export interface CellKernel {
  readonly call: KernelCall;
  /** Per root: the first accumulator slot of its full aggregate. */
  readonly bases: readonly number[];
  /** Hands back scratch copies of inputs (after the call ran). */
  release(): void;
}

/** A kernel's source and how it binds its inputs: the reads to replay on other values of the same formats. */
export interface CellKernelSource {
  readonly source: string;
  readonly reads: readonly (readonly [number, CellPosition])[];
  /** Per-cell statements (for the work estimate). */
  readonly cellStatements: number;
}

/**
 * What a kernel's source depends on besides the operator: the sums'
 * variant, how cells are visited, and each input's kind, format and unit
 * dimensions (which decide the broadcasting positions). Equal keys give
 * equal sources.
 */
function cellKernelKey(loop: CellLoop, plain: boolean): string {
  const parts = [plain ? "plain" : "compensated", loop.visit.kind === "main-non-zero" && loop.visit.transposed ? "main-non-zero-transposed" : loop.visit.kind, singleColumn(loop) ? "one-column" : "columns"];
  for (const node of loop.op.inputs) {
    const v = loop.values.get(node);
    if (v?.kind === "matrix") parts.push(`${v.matrix.format}${v.matrix.rows === 1 ? "-row" : ""}${v.matrix.cols === 1 ? "-col" : ""}`);
    else parts.push(v?.kind === "scalar" ? v.type : String(v?.kind));
  }
  return parts.join(",");
}

/**
 * The kernel call of the loop; `plain`: sums without compensation;
 * `output`: the array cell-wise and row results are written to; `cache`:
 * sources by cellKernelKey (a hit replays the reads instead of building
 * the code again).
 */
export function cellKernel(loop: CellLoop, plain: boolean, output: Float64Array, cache?: Map<string, CellKernelSource>): CellKernel {
  const { visit, domain } = loop;
  const walked = visit.kind === "walk" ? { node: visit.main, matrix: visit.matrix } : undefined;
  const inputs = new KernelInputs(loop.values, domain.cols, walked);
  const init: number[] = [];
  const combine: Combine[] = [];
  const bases: number[] = [];
  for (const root of loop.roots) {
    bases.push(init.length);
    const slots = foldSlots(root.fold, domain.cols);
    init.push(...slots.init);
    combine.push(...slots.combine);
  }
  const key = cache ? cellKernelKey(loop, plain) : "";
  let kernel = cache?.get(key);
  if (kernel) for (const [node, at] of kernel.reads) inputs.read(node, at);
  else {
    kernel = cellKernelSource(loop, plain, inputs, bases);
    cache?.set(key, kernel);
  }
  const cellsPerRow = visit.kind === "walk" ? visit.matrix.nnz() / Math.max(1, domain.rows) : domain.cols;
  const call: KernelCall = {
    program: { source: kernel.source },
    arrays: inputs.arrays,
    scalars: Float64Array.from(inputs.scalars),
    rows: domain.rows,
    output,
    ...(init.length > 0 ? { accumulators: { init: Float64Array.from(init), combine } } : {}),
    workPerRow: Math.ceil(cellsPerRow * (kernel.cellStatements + loop.roots.length)),
  };
  return { call, bases, release: () => inputs.release() };
}

/** Whether the loop's domain has one column (and is visited cell by cell, not by a CSR main input's non-zeros). */
function singleColumn(loop: CellLoop): boolean {
  return loop.domain.cols === 1 && loop.visit.kind !== "walk";
}

function cellKernelSource(loop: CellLoop, plain: boolean, inputs: KernelInputs, bases: readonly number[]): CellKernelSource {
  const { visit } = loop;
  const reads: [number, CellPosition][] = [];
  const read = (node: number, at: CellPosition) => {
    reads.push([node, at]);
    return inputs.read(node, at);
  };
  const code = new CellCode({ dag: loop.dag, op: loop.op, shapes: loop.shapes, read, readsOffsets: true });
  const cellValues = loop.roots.map((root) => root.cellValue(code));
  let mainTest: string | undefined;
  if (visit.kind === "main-non-zero") {
    const at = visit.transposed ? { row: "j" as const, col: "i" as const } : CURRENT_CELL;
    mainTest = read(visit.main, positionIn(visit.mainShape, at));
  }
  // Two rows per turn where a compensated full sum gains from it (one chain per row of the pair: cell-folds.ts).
  const paired = !plain && singleColumn(loop) && loop.roots.some((root) => isFullSumFold(root.fold));
  const folds = loop.roots.map((root, k) => foldCode(root.fold, k, bases[k]!, plain, visit.kind === "walk", paired));
  const zeroFolds = folds.map((f) => f.zero).join(" ");
  const lines = (xs: readonly string[], indent: string) => xs.filter((x) => x !== "").map((x) => `${indent}${x}\n`).join("");
  const cellLoop = (second: boolean): string => {
    const cellFolds = folds.map((f, k) => f.cell(cellValues[k]!, second)).join(" ");
    if (visit.kind === "walk") return `    for (let p = mrp[i], pe = mrp[i + 1]; p < pe; p++) {\n      const j = mci[p];\n${code.lines("cell", "      ")}      ${cellFolds}\n    }\n`;
    // A one-column domain (the vectors of most loops) has no loop over the columns: its cell is j = 0.
    const columns = singleColumn(loop) ? "{\n      const j = 0;" : "for (let j = 0; j < n; j++) {";
    if (mainTest === undefined) return `    ${columns}\n${code.lines("cell", "      ")}      ${cellFolds}\n    }\n`;
    const otherwise = zeroFolds.trim() === "" ? "" : ` else { ${zeroFolds} }`;
    return `    ${columns}\n      if (${mainTest} !== 0) {\n${code.lines("cell", "        ")}        ${cellFolds}\n      }${otherwise}\n    }\n`;
  };
  const row = (second: boolean): string =>
    "    const ix = i * n;\n" +
    lines(inputs.rowStart, "    ") +
    code.lines("row", "    ") +
    lines(folds.map((f) => f.rowStart), "    ") +
    cellLoop(second) +
    lines(folds.map((f) => f.rowEnd), "    ") +
    lines(inputs.rowEnd, "    ");
  // Each row's code in a block of its own, the second row's when there is one.
  const rows = paired
    ? "  for (let pair = r0; pair < r1; pair += 2) {\n" + `  {\n    const i = pair;\n${row(false)}  }\n` + `  if (pair + 1 < r1) {\n    const i = pair + 1;\n${row(true)}  }\n` + "  }\n"
    : "  for (let i = r0; i < r1; i++) {\n" + row(false) + "  }\n";
  const source =
    "function (a, s, r0, r1, acc, out) {\n" +
    lines(inputs.declarations, "  ") +
    code.lines("invariant", "  ") +
    lines(folds.map((f) => f.before), "  ") +
    rows +
    lines(folds.map((f) => f.after), "  ") +
    "}";
  return { source, reads, cellStatements: code.cell.length };
}
