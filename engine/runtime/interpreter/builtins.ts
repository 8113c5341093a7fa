/**
 * The builtin calls the embedded runtime supports (those the DAG keeps as
 * opaque `call` nodes): print, stop, assert, write, toString, ifelse,
 * solve, min/max, sample, order, rev, cumsum, rowIndexMax, removeEmpty,
 * list, time, ...; with their own files the decompositions (several
 * results), the descriptive statistics, the distribution functions,
 * removeEmpty, the grouped aggregate, unique and cumsumprod/rowcumsum.
 * Anything else is a clear runtime error.
 */
import { cbind, rbind, cumsum, rowIndexMax, SeededRandom, transpose } from "../kernels";
import { dataFromMatrix, writeDataFile } from "../io";
import type { FileFormatName } from "../../metadata";
import { DenseMatrix, toDense } from "../matrix";
import type { EvalContext } from "./context";
import { DmlRuntimeError, fail } from "./errors";
import { LINALG_BUILTINS } from "./builtins-linalg";
import { DECOMPOSITION_BUILTINS } from "./builtins-decompositions";
import { STATISTICS_BUILTINS } from "./builtins-statistics";
import { DISTRIBUTION_BUILTINS } from "./distributions";
import { solve } from "./linear-solve";
import { DNN_BUILTINS } from "./builtins-dnn";
import { LIST_BUILTINS, LIST_MULTI_BUILTINS } from "./builtins-lists";
import { contains } from "./builtins-contains";
import { removeEmpty } from "./builtins-remove-empty";
import { groupedAggregate } from "./builtins-grouped-aggregate";
import { MORE_CUMULATIVE_BUILTINS } from "./builtins-more-cumulative";
import { unique } from "./builtins-unique";
import { evalBuiltin } from "./eval-builtin";
import { namedArg } from "./named-args";
import { aggregateValue, binary, mat, num, text, truthy } from "./operations";
import { bool, double, int, matrixText, str, valueText, type Value } from "./values";

export interface CallArgs {
  values: Value[];
  names: (string | undefined)[];
}

function arg(a: CallArgs, position: number, name: string): Value | undefined {
  return namedArg(a, name, position);
}

function need(a: CallArgs, position: number, name: string, fn: string): Value {
  return arg(a, position, name) ?? fail(`${fn}: missing argument '${name}'`);
}

type Builtin = (a: CallArgs, ctx: EvalContext) => Value;

const dense = (rows: number, cols: number, data: Float64Array): Value => ({ kind: "matrix", matrix: new DenseMatrix(rows, cols, data) });

/**
 * `append`/`cbind`/`rbind` where the DAG could not tell matrices apart (the
 * first argument is a string, a list or of unknown type), as SystemDS runs
 * them: two strings are joined with a newline, a list gets the further
 * arguments as items (a one-item list adds its item, a longer list is one
 * nested item), a list alone is bound
 * item by item into one matrix, matrices are bound.
 */
function appendBuiltin(kind: "cbind" | "rbind") {
  return (a: CallArgs): Value => {
    const [first, ...rest] = a.values;
    if (!first) fail(`${kind}: missing arguments`);
    if (first.kind === "scalar") {
      const [second] = rest;
      if (rest.length !== 1 || second?.kind !== "scalar") fail("append of a string needs exactly two strings");
      return str(`${text(first)}\n${text(second)}`);
    }
    if (first.kind === "list") {
      if (rest.length === 0) return { kind: "matrix", matrix: (kind === "cbind" ? cbind : rbind)(...first.items.map((v) => mat(v, kind))) };
      // A one-item list is unfolded (its item, with its name, is added); anything else is one item.
      const added = rest.map(unfoldedItem);
      return { kind: "list", items: [...first.items, ...added.map(([v]) => v)], names: [...(first.names ?? first.items.map(() => undefined)), ...added.map(([, n]) => n)] };
    }
    return { kind: "matrix", matrix: (kind === "cbind" ? cbind : rbind)(...a.values.map((v) => mat(v, kind))) };
  };
}

/** A one-item list's item with its name, or `v` itself (unnamed): what append adds to a list. */
function unfoldedItem(v: Value): [Value, string | undefined] {
  if (v.kind === "list") {
    const [item, ...others] = v.items;
    if (item !== undefined && others.length === 0) return [item, v.names?.[0]];
  }
  return [v, undefined];
}

function foldMinMax(op: "min" | "max") {
  return (a: CallArgs): Value => {
    const [only, ...others] = a.values;
    if (only !== undefined && others.length === 0) return aggregateValue(op, "full", only);
    return a.values.reduce((x, y) => binary(op, x, y));
  };
}

function order(a: CallArgs): Value {
  const x = toDense(mat(need(a, 0, "target", "order"), "order"));
  const by = Math.trunc(num(arg(a, 1, "by") ?? int(1), "order by")) - 1;
  const decreasing = truthy(arg(a, 2, "decreasing") ?? bool(false), "decreasing");
  const indexReturn = truthy(arg(a, 3, "index.return") ?? bool(false), "index.return");
  if (by < 0 || by >= x.cols) fail(`order: by=${by + 1} is outside the ${x.cols} columns`);
  const idx = Array.from({ length: x.rows }, (_, i) => i);
  idx.sort((i, j) => {
    const d = x.get(i, by) - x.get(j, by);
    return (decreasing ? -d : d) || i - j;
  });
  if (indexReturn) return dense(x.rows, 1, Float64Array.from(idx, (i) => i + 1));
  const out = new Float64Array(x.rows * x.cols);
  idx.forEach((i, r) => out.set(x.data.subarray(i * x.cols, (i + 1) * x.cols), r * x.cols));
  return dense(x.rows, x.cols, out);
}

function rev(a: CallArgs): Value {
  const x = toDense(mat(need(a, 0, "target", "rev"), "rev"));
  const out = new Float64Array(x.data.length);
  for (let i = 0; i < x.rows; i++) out.set(x.data.subarray(i * x.cols, (i + 1) * x.cols), (x.rows - 1 - i) * x.cols);
  return dense(x.rows, x.cols, out);
}

function sample(a: CallArgs): Value {
  const range = Math.trunc(num(need(a, 0, "range", "sample")));
  const size = Math.trunc(num(need(a, 1, "size", "sample")));
  const replace = truthy(arg(a, 2, "replace") ?? bool(false), "replace");
  const seedValue = arg(a, 3, "seed");
  const seed = seedValue === undefined || num(seedValue) === -1 ? Math.floor(Math.random() * 2 ** 31) : num(seedValue);
  if (!replace && size > range) fail(`sample: size ${size} exceeds range ${range} without replacement`);
  const random = new SeededRandom(seed);
  const out = new Float64Array(size);
  if (replace) {
    for (let i = 0; i < size; i++) out[i] = Math.floor(random.nextDouble() * range) + 1;
  } else {
    // A Fisher-Yates shuffle of 1..range stopped after `size` swaps. Only the moved positions are kept
    // (position p holds p + 1 until a swap moves it), so k of a million values cost k steps, not a million.
    const moved = new Map<number, number>();
    const at = (p: number) => moved.get(p) ?? p + 1;
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(random.nextDouble() * (range - i));
      const picked = at(j);
      moved.set(j, at(i));
      // Position i is never drawn again (later draws take j >= i + 1).
      moved.delete(i);
      out[i] = picked;
    }
  }
  return dense(size, 1, out);
}

function ifelse(a: CallArgs): Value {
  const [c, x, y] = [need(a, 0, "test", "ifelse"), need(a, 1, "yes", "ifelse"), need(a, 2, "no", "ifelse")];
  if (c.kind === "scalar" && x.kind !== "matrix" && y.kind !== "matrix") return truthy(c, "ifelse") ? x : y;
  const shape = [c, x, y].find((v) => v.kind === "matrix");
  const { rows, cols } = mat(shape!);
  const cell = (v: Value) => {
    if (v.kind !== "matrix") {
      const s = num(v);
      return () => s;
    }
    const d = toDense(v.matrix);
    if (d.rows !== rows || d.cols !== cols) fail(`ifelse: operands of ${rows} x ${cols} and ${d.rows} x ${d.cols} do not match`);
    return (k: number) => d.data[k]!;
  };
  const [fc, fx, fy] = [cell(c), cell(x), cell(y)];
  const out = new Float64Array(rows * cols);
  for (let k = 0; k < out.length; k++) out[k] = fc(k) !== 0 ? fx(k) : fy(k);
  return dense(rows, cols, out);
}

function write(a: CallArgs, ctx: EvalContext): Value {
  const v = need(a, 0, "target", "write");
  const file = text(need(a, 1, "file", "write"));
  const format = arg(a, 2, "format");
  const header = arg(a, 3, "header");
  const sep = arg(a, 4, "sep");
  const options = {
    ...(format ? { format: text(format) as FileFormatName } : {}),
    ...(header ? { header: truthy(header) } : {}),
    ...(sep ? { sep: text(sep) } : {}),
    ...(ctx.scriptPath ? { scriptPath: ctx.scriptPath } : {}),
  };
  if (v.kind === "matrix") writeDataFile(file, { kind: "matrix", data: dataFromMatrix(v.matrix) }, options);
  else if (v.kind === "frame") writeDataFile(file, { kind: "frame", frame: v.frame }, options);
  else if (v.kind === "scalar") writeDataFile(file, { kind: "scalar", scalar: v.type === "boolean" ? { type: "boolean", value: v.value } : v.type === "string" ? { type: "string", value: v.value } : { type: v.type, value: v.value } }, options);
  else fail("write: lists cannot be written");
  return bool(true);
}

/** print("format", args...): Java's String.format for %d, %s, %f, %e, %b with flags, width and precision. */
function printf(format: string, args: Value[]): string {
  let next = 0;
  return format.replace(/%([-+ 0,]*)(\d+)?(?:\.(\d+))?([dsfeEbBn%])/g, (_match, flags: string, width: string | undefined, precision: string | undefined, conv: string) => {
    if (conv === "%") return "%";
    if (conv === "n") return "\n";
    const v = args[next++] ?? fail(`print: the format "${format}" needs more arguments than the ${args.length} given`);
    let out: string;
    switch (conv) {
      case "d":
        if (v.kind !== "scalar" || (v.type !== "int" && v.type !== "boolean")) fail(`print: %d needs an integer, found ${valueText(v)}`);
        out = String(num(v));
        break;
      case "f":
        out = num(v).toFixed(precision === undefined ? 6 : Number(precision));
        break;
      case "e":
      case "E": {
        const [m, e] = num(v).toExponential(precision === undefined ? 6 : Number(precision)).split("e") as [string, string];
        const exp = Math.abs(Number(e)).toString().padStart(2, "0");
        out = `${m}${conv}${Number(e) < 0 ? "-" : "+"}${exp}`;
        break;
      }
      case "b":
      case "B":
        out = v.kind === "scalar" && v.type === "boolean" ? String(v.value) : "true";
        if (conv === "B") out = out.toUpperCase();
        break;
      default:
        out = valueText(v);
        if (precision !== undefined) out = out.slice(0, Number(precision));
    }
    if (flags.includes("+") && /^[0-9]/.test(out) && conv !== "s") out = `+${out}`;
    const w = width === undefined ? 0 : Number(width);
    if (out.length < w) out = flags.includes("-") ? out.padEnd(w) : flags.includes("0") && conv !== "s" ? out.replace(/^([+-]?)/, (sign) => sign + "0".repeat(w - out.length)) : out.padStart(w);
    return out;
  });
}

export const BUILTINS: Record<string, Builtin> = {
  ...LINALG_BUILTINS,
  ...STATISTICS_BUILTINS,
  ...DISTRIBUTION_BUILTINS,
  print: (a, ctx) => {
    const [format, ...values] = a.values;
    if (format !== undefined && values.length > 0) {
      ctx.print(printf(text(format), values));
      return bool(true);
    }
    ctx.print(valueText(need(a, 0, "value", "print")));
    return bool(true);
  },
  stop: (a) => {
    const [message] = a.values;
    throw new DmlRuntimeError(message !== undefined ? valueText(message) : "stop", undefined);
  },
  assert: (a) => {
    if (!truthy(need(a, 0, "condition", "assert"), "assert")) fail("assertion failed");
    return bool(true);
  },
  write,
  toString: (a: CallArgs) => {
    const v = need(a, 0, "target", "toString");
    if (v.kind !== "matrix") return str(valueText(v));
    const decimal = arg(a, 4, "decimal");
    const rows = arg(a, 1, "rows");
    const cols = arg(a, 2, "cols");
    return str(matrixText(v.matrix, decimal ? num(decimal) : 3, rows ? num(rows) : 100, cols ? num(cols) : 100));
  },
  ifelse,
  eval: evalBuiltin,
  solve: (a) => ({ kind: "matrix", matrix: solve(mat(need(a, 0, "A", "solve")), mat(need(a, 1, "b", "solve"))) }),
  inv: (a) => {
    const x = mat(need(a, 0, "A", "inv"));
    const eye = new Float64Array(x.rows * x.rows);
    for (let i = 0; i < x.rows; i++) eye[i * x.rows + i] = 1;
    return { kind: "matrix", matrix: solve(x, new DenseMatrix(x.rows, x.rows, eye)) };
  },
  min: foldMinMax("min"),
  max: foldMinMax("max"),
  // SystemDS's aliases (Builtins.java) of calls the DAG keeps opaque: pmin/pmax of 3 or more arguments, inverse.
  pmin: foldMinMax("min"),
  pmax: foldMinMax("max"),
  inverse: (a, ctx) => BUILTINS["inv"]!(a, ctx),
  sample,
  order,
  rev,
  cumsum: (a) => ({ kind: "matrix", matrix: cumsum(mat(need(a, 0, "target", "cumsum"))) }),
  rowIndexMax: (a) => ({ kind: "matrix", matrix: rowIndexMax(mat(need(a, 0, "target", "rowIndexMax"))) }),
  removeEmpty,
  t: (a) => ({ kind: "matrix", matrix: transpose(mat(need(a, 0, "target", "t"))) }),
  trace: (a) => {
    const x = toDense(mat(need(a, 0, "target", "trace")));
    // SystemDS's validation message (BuiltinFunctionExpression, TRACE).
    if (x.rows !== x.cols) fail(`Trace is only defined on squared matrices but found [${x.rows}x${x.cols}].`);
    let s = 0;
    for (let i = 0; i < x.rows; i++) s += x.get(i, i);
    return double(s);
  },
  list: (a) => ({ kind: "list", items: a.values, names: a.names }),
  append: appendBuiltin("cbind"),
  cbind: appendBuiltin("cbind"),
  rbind: appendBuiltin("rbind"),
  time: () => int(Math.round(performance.now() * 1e6)),
  nnz: (a) => {
    const x = toDense(mat(need(a, 0, "target", "nnz")));
    let n = 0;
    for (const v of x.data) if (v !== 0) n++;
    return int(n);
  },
  replace: (a) => {
    const x = toDense(mat(need(a, 0, "target", "replace")));
    const pattern = num(need(a, 1, "pattern", "replace"));
    const replacement = num(need(a, 2, "replacement", "replace"));
    const out = Float64Array.from(x.data, (v) => (v === pattern || (Number.isNaN(pattern) && Number.isNaN(v)) ? replacement : v));
    return dense(x.rows, x.cols, out);
  },
  ...DNN_BUILTINS,
  ...LIST_BUILTINS,
  contains,
  aggregate: groupedAggregate,
  groupedAggregate,
  ...MORE_CUMULATIVE_BUILTINS,
  unique,
};

/** Builtins with several results (`[U, S, V] = svd(A)`): one call computes all of them, in order. */
export const MULTI_RESULT_BUILTINS: Record<string, (a: CallArgs, ctx: EvalContext) => Value[]> = {
  ...DECOMPOSITION_BUILTINS,
  ...LIST_MULTI_BUILTINS,
};
