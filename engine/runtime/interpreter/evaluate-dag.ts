/**
 * Evaluates one block DAG: nodes in id order with the kernels, effect sinks
 * (print, write, stop, ...) in source order among them, then the block's
 * outputs are written to the environment.
 */
import type { BlockDag, DagNode } from "../../program/dag-types";
import { typeParameterValue } from "../../stats/metadata/parameters";
import { cbind, rbind } from "../kernels/bind";
import { diag } from "../kernels/diag";
import { matmul } from "../kernels/matmul";
import { matrixKernels } from "../wasm";
import { DenseMatrix } from "../matrix/dense-matrix";
import { isDense, type Matrix } from "../matrix/matrix";
import { rand, type RandDistribution } from "../kernels/rand";
import { matrixFill, matrixFromValues, reshape } from "../kernels/reshape";
import { seq } from "../kernels/seq";
import { table } from "../kernels/table";
import { transpose } from "../kernels/transpose";
import { readDataFile } from "../io/data-file-reader";
import { matrixFromData } from "../io/matrix-adapter";
import type { ReadParameters } from "../io/read-parameters";
import { BUILTINS, type CallArgs } from "./builtins";
import { checkBudget, type EvalContext } from "./context";
import { at, DmlRuntimeError, fail } from "./errors";
import { bindDimensionsMessage, elementwiseDimensionsFit, elementwiseDimensionsMessage, matmulDimensionsMessage, missingDataFileMessage, missingParameterMessage, noValueMessage, unknownFunctionMessage } from "./messages";
import { builtinNames, lookupBuiltin } from "../../program/builtins";
import { aggregateValue, binary, castValue, indexRange, leftIndexValue, mat, num, rightIndexValue, text, truthy, unary } from "./operations";
import { bool, double, int, str, type Value } from "./values";

export class DagEvaluator {
  private readonly values: (Value | undefined)[];
  private readonly userResults = new Map<string, Value[]>();

  constructor(
    readonly dag: BlockDag,
    readonly ctx: EvalContext,
  ) {
    this.values = new Array(dag.nodes.length);
  }

  /** Runs the whole block: sinks in order, everything else before the sink that follows it; then the outputs. */
  run(): Map<string, Value> {
    const sinkNodes = new Set(this.dag.sinks.map((s) => s.node));
    let next = 0;
    for (const sink of this.dag.sinks) {
      for (; next < sink.node; next++) if (!sinkNodes.has(next)) this.node(next);
      this.node(sink.node);
    }
    for (; next < this.dag.nodes.length; next++) if (!sinkNodes.has(next)) this.node(next);
    const outputs = new Map<string, Value>();
    for (const [name, id] of this.dag.outputs) outputs.set(name, this.node(id));
    return outputs;
  }

  node(id: number): Value {
    const known = this.values[id];
    if (known) return known;
    const n = this.dag.nodes[id];
    const value = at(n.range, () => this.compute(n));
    this.values[id] = value;
    return value;
  }

  private isAll(id: number): boolean {
    const op = this.dag.nodes[id].op;
    return op.kind === "literal" && op.value === -1;
  }

  private bounds(ids: number[]): (number | undefined)[] {
    return ids.map((id) => (this.isAll(id) ? undefined : num(this.node(id), "index")));
  }

  private named(n: DagNode): CallArgs {
    return { values: n.inputs.map((i) => this.node(i)), names: n.argNames ?? n.inputs.map(() => undefined) };
  }

  private compute(n: DagNode): Value {
    const op = n.op;
    const input = (k: number) => this.node(n.inputs[k]);
    switch (op.kind) {
      case "literal":
        if (typeof op.value === "string") return str(op.value);
        if (typeof op.value === "boolean") return bool(op.value);
        return n.type.valueType === "double" || !Number.isInteger(op.value) ? double(op.value) : int(op.value);
      case "input": {
        const v = this.ctx.env.get(op.name);
        if (v === undefined) fail(noValueMessage(op.name, new Set([...this.ctx.env.keys(), ...this.dag.outputs.keys()])));
        return v;
      }
      case "parameter": {
        const name = op.name.replace(/^\$/, "");
        const given = this.ctx.params.get(name);
        if (given !== undefined) {
          const c = typeParameterValue(given);
          return c.type === "int" ? int(c.value as number) : c.type === "double" ? double(c.value as number) : c.type === "boolean" ? bool(c.value as boolean) : str(String(c.value));
        }
        if (n.inputs.length > 0) return input(0);
        return fail(missingParameterMessage(name));
      }
      case "matmul": {
        const a = mat(input(0));
        const b = mat(input(1));
        if (a.cols !== b.rows) fail(matmulDimensionsMessage(a, b));
        checkBudget(this.ctx, a.rows, b.cols, n.range);
        return { kind: "matrix", matrix: fastMatmul(a, b) };
      }
      case "binary": {
        const a = input(0);
        const b = input(1);
        if (a.kind === "matrix" && b.kind === "matrix" && !elementwiseDimensionsFit(a.matrix, b.matrix)) fail(elementwiseDimensionsMessage(op.op, a.matrix, b.matrix));
        if (a.kind === "matrix" || b.kind === "matrix") {
          const rows = Math.max(a.kind === "matrix" ? a.matrix.rows : 1, b.kind === "matrix" ? b.matrix.rows : 1);
          const cols = Math.max(a.kind === "matrix" ? a.matrix.cols : 1, b.kind === "matrix" ? b.matrix.cols : 1);
          checkBudget(this.ctx, rows, cols, n.range);
        }
        return binary(op.op, a, b);
      }
      case "unary":
        return unary(op.op, input(0));
      case "aggregate":
        return aggregateValue(op.fn, op.direction, input(0));
      case "transpose":
        return { kind: "matrix", matrix: transpose(mat(input(0))) };
      case "index":
        return rightIndexValue(input(0), indexRange(this.bounds(n.inputs.slice(1, 5))));
      case "leftIndex":
        return leftIndexValue(input(0), input(1), indexRange(this.bounds(n.inputs.slice(2, 6))));
      case "cbind":
      case "rbind": {
        const parts = n.inputs.map((i) => mat(this.node(i)));
        const across = (m: Matrix) => (op.kind === "cbind" ? m.rows : m.cols);
        if (parts.some((m) => across(m) !== across(parts[0]!))) fail(bindDimensionsMessage(op.kind, parts));
        return { kind: "matrix", matrix: op.kind === "cbind" ? cbind(...parts) : rbind(...parts) };
      }
      case "diag":
        return { kind: "matrix", matrix: diag(mat(input(0))) };
      case "table":
        return this.table(n);
      case "seq": {
        const [from, to, by] = n.inputs.map((i) => num(this.node(i), "seq"));
        return { kind: "matrix", matrix: seq(from, to, by) };
      }
      case "matrix":
        return this.matrix(n);
      case "rand":
        return this.rand(n);
      case "read":
        return this.read(n);
      case "cast":
        return castValue(op.to, input(0));
      case "nrow":
      case "ncol":
      case "length": {
        const v = input(0);
        if (v.kind === "list") return int(v.items.length);
        if (v.kind === "frame") return int(op.kind === "nrow" ? v.frame.rows : op.kind === "ncol" ? v.frame.columns.length : v.frame.rows * v.frame.columns.length);
        const m = mat(v);
        return int(op.kind === "nrow" ? m.rows : op.kind === "ncol" ? m.cols : m.rows * m.cols);
      }
      case "call":
        return this.call(n, op.name, op.user, op.output);
    }
  }

  private call(n: DagNode, name: string, user: boolean, output: number): Value {
    if (user) {
      const key = `${name}(${n.inputs.join(",")})`;
      let results = this.userResults.get(key);
      if (!results) {
        const a = this.named(n);
        results = this.ctx.callUser(name, a.values, a.names, n.range);
        this.userResults.set(key, results);
      }
      return results[output] ?? fail(`function ${name} has no result ${output + 1}`);
    }
    const builtin = Object.prototype.hasOwnProperty.call(BUILTINS, name) ? BUILTINS[name] : undefined;
    if (!builtin && !lookupBuiltin(name)) throw new DmlRuntimeError(unknownFunctionMessage(name, [...(this.ctx.functionNames?.() ?? []), ...builtinNames()]), n.range);
    if (!builtin) throw new DmlRuntimeError(`builtin ${name} is not supported by the embedded runtime yet`, n.range);
    if (output > 0) throw new DmlRuntimeError(`builtin ${name} with several results is not supported by the embedded runtime yet`, n.range);
    return builtin(this.named(n), this.ctx);
  }

  private arg(n: DagNode, name: string, position: number): Value | undefined {
    const names = n.argNames ?? [];
    const i = names.indexOf(name);
    if (i >= 0) return this.node(n.inputs[i]);
    let p = 0;
    for (let k = 0; k < n.inputs.length; k++) {
      if (names[k] !== undefined) continue;
      if (p === position) return this.node(n.inputs[k]);
      p++;
    }
    return undefined;
  }

  private table(n: DagNode): Value {
    const operand = (v: Value) => (v.kind === "matrix" ? v.matrix : num(v, "table"));
    const a = operand(this.arg(n, "A", 0) ?? fail("table: missing first argument"));
    const b = operand(this.arg(n, "B", 1) ?? fail("table: missing second argument"));
    // table(A, B, odim1, odim2) takes dims in place of the weights: 4 arguments, or 5 with weights.
    const fourArgs = n.inputs.length === 4 && !(n.argNames ?? []).includes("W");
    const w = fourArgs ? undefined : this.arg(n, "W", 2);
    const rows = this.arg(n, "odim1", fourArgs ? 2 : 3);
    const cols = this.arg(n, "odim2", fourArgs ? 3 : 4);
    const dims = rows && cols ? { rows: num(rows), cols: num(cols) } : undefined;
    return { kind: "matrix", matrix: table(a, b, w ? operand(w) : 1, dims) };
  }

  private matrix(n: DagNode): Value {
    const data = this.arg(n, "data", 0) ?? fail("matrix: missing data");
    const rowsV = this.arg(n, "rows", 1);
    const colsV = this.arg(n, "cols", 2);
    const byRowV = this.arg(n, "byrow", 3);
    const byRow = byRowV ? truthy(byRowV) : true;
    if (data.kind === "matrix") {
      const cells = data.matrix.rows * data.matrix.cols;
      const rows = rowsV ? num(rowsV) : colsV ? cells / num(colsV) : data.matrix.rows;
      const cols = colsV ? num(colsV) : cells / rows;
      return { kind: "matrix", matrix: reshape(data.matrix, rows, cols, byRow) };
    }
    if (data.kind === "scalar" && data.type === "string") {
      const values = data.value.trim().split(/[\s,]+/).filter((s) => s !== "").map(Number);
      const rows = rowsV ? num(rowsV) : colsV ? values.length / num(colsV) : values.length;
      const cols = colsV ? num(colsV) : values.length / rows;
      return { kind: "matrix", matrix: matrixFromValues(values, rows, cols, byRow) };
    }
    const rows = num(rowsV ?? fail("matrix: missing rows"));
    const cols = num(colsV ?? fail("matrix: missing cols"));
    checkBudget(this.ctx, rows, cols, n.range);
    return { kind: "matrix", matrix: matrixFill(num(data), rows, cols) };
  }

  private rand(n: DagNode): Value {
    const get = (name: string) => this.arg(n, name, -1);
    const rows = num(get("rows") ?? fail("rand: missing rows"));
    const cols = num(get("cols") ?? fail("rand: missing cols"));
    const sparsity = get("sparsity");
    const s = sparsity ? num(sparsity) : 1;
    if (s > 0.4) checkBudget(this.ctx, rows, cols, n.range);
    const opt = (name: string) => {
      const v = get(name);
      return v ? num(v) : undefined;
    };
    const pdf = get("pdf");
    const options = { rows, cols, min: opt("min"), max: opt("max"), sparsity: s, seed: opt("seed"), lambda: opt("lambda"), ...(pdf ? { pdf: text(pdf) as RandDistribution } : {}) };
    return { kind: "matrix", matrix: rand(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as typeof options) };
  }

  private read(n: DagNode): Value {
    const file = text(this.arg(n, "file", 0) ?? fail("read: missing file name"));
    const params: ReadParameters = {};
    const get = (name: string) => this.arg(n, name, -1);
    const format = get("format");
    if (format) params.format = text(format) as ReadParameters["format"];
    const dataType = get("data_type");
    if (dataType) params.dataType = text(dataType) as ReadParameters["dataType"];
    const header = get("header");
    if (header) params.header = truthy(header);
    const sep = get("sep");
    if (sep) params.sep = text(sep);
    const rows = get("rows");
    if (rows) params.rows = num(rows);
    const cols = get("cols");
    if (cols) params.cols = num(cols);
    const result = readDataFile(file, {
      ...(this.ctx.scriptPath ? { scriptPath: this.ctx.scriptPath } : {}),
      ...(this.ctx.workspaceRoot ? { workspaceRoot: this.ctx.workspaceRoot } : {}),
      params,
    });
    // A missing file in the words the static checks use.
    if (!result.ok) throw new DmlRuntimeError(result.error.code === "not-found" ? missingDataFileMessage(file, result.error.candidates ?? []) : result.error.message, n.range);
    const value = result.value.value;
    if (value.kind === "matrix") return { kind: "matrix", matrix: matrixFromData(value.data) };
    if (value.kind === "frame") return { kind: "frame", frame: value.frame };
    const s = value.scalar;
    return s.type === "boolean" ? bool(s.value) : s.type === "string" ? str(s.value) : s.type === "int" ? int(s.value) : double(s.value);
  }
}

/** Products of dense operands with at least this many multiply-adds go to the WebAssembly GEMM (when it loads). */
const WASM_GEMM_MIN_FLOPS = 1e6;

function fastMatmul(a: Matrix, b: Matrix): Matrix {
  if (isDense(a) && isDense(b) && a.cols === b.rows && b.cols > 1 && a.rows * a.cols * b.cols >= WASM_GEMM_MIN_FLOPS) {
    const kernels = matrixKernels();
    if (kernels.backend === "wasm-simd") {
      const c = new DenseMatrix(a.rows, b.cols);
      kernels.gemm(a.rows, a.cols, b.cols, a.data, b.data, c.data);
      return c;
    }
  }
  return matmul(a, b);
}
