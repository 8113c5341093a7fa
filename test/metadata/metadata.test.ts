// Resolving a read(...) call: path resolution order, $param paths and
// constants, read() arguments, .mtd, Matrix Market headers, file scans, and
// the precedence annotation > workspace file > read() arguments > .mtd > scan.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { type ReadMetadata, type ReadMetadataContext, collectSizeAnnotations, constantText, evaluateConstant, javaDoubleText, parseParameterArguments, parseWorkspaceConfig, resolveReadMetadata, sizeAnnotationFor, typeParameterValue } from "../../engine/metadata";
import { type FileSystem, memoryFileSystem, nodeFileSystem } from "../../engine/files";
import type { CallExpression, Expression, Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";

const ws = "/ws";
const script = "/ws/scripts/s.dml";
const mtd = (fields: Record<string, unknown>) => JSON.stringify(fields);
const irisMtd = mtd({ data_type: "matrix", value_type: "double", rows: 150, cols: 4, nnz: 600, format: "csv", header: false, sep: "," });

/** Parses `source` (one statement per line), resolves the read on line `line` (default: the last statement). */
function resolve(source: string, files: Record<string, string> | FileSystem, options: Partial<ReadMetadataContext> & { line?: number; workspaceFile?: string } = {}): ReadMetadata {
  const text = source.endsWith("\n") ? source : `${source}\n`;
  const parsed = parse(text, { keepComments: true });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === "error"), [], text);
  const body = parsed.program.body;
  const statement: Statement = options.line === undefined ? body[body.length - 1]! : body.find((s) => s.range.start.line === options.line)!;
  assert.equal(statement.kind, "assign");
  if (statement.kind !== "assign") throw new Error("unreachable");
  const call = statement.value as CallExpression;
  const annotations = collectSizeAnnotations(text, parsed);
  assert.deepEqual(annotations.diagnostics, []);
  const fs = "readFile" in files && typeof files.readFile === "function" ? (files as FileSystem) : memoryFileSystem(files as Record<string, string>);
  const workspace = options.workspaceFile ? parseWorkspaceConfig(options.workspaceFile, "/ws/dml-lens.json", ws).config : undefined;
  const target = statement.target.kind === "identifier" ? statement.target.name : undefined;
  const annotation = sizeAnnotationFor(annotations, statement);
  return resolveReadMetadata(call, {
    scriptPath: script,
    workspaceRoot: ws,
    fs,
    params: new Map(),
    ...(annotation ? { annotation } : {}),
    ...(workspace ? { workspace } : {}),
    ...(target !== undefined ? { target } : {}),
    ...options,
  });
}

function sizes(r: ReadMetadata): string {
  const n = (v: number | null) => (v === null ? "?" : String(v));
  return `${n(r.rows)} x ${n(r.cols)}, nnz ${n(r.nnz)} [${r.sources.rows ?? "-"}/${r.sources.cols ?? "-"}/${r.sources.nnz ?? "-"}]`;
}

function codes(r: ReadMetadata): string[] {
  return r.diagnostics.map((d) => `${d.severity}:${d.code}`);
}

describe("$param values: SystemDS's typing rule", () => {
  test("TRUE/FALSE, then long, then double, else string", () => {
    assert.deepEqual(typeParameterValue("TRUE"), { type: "boolean", value: true });
    assert.deepEqual(typeParameterValue("FALSE"), { type: "boolean", value: false });
    assert.deepEqual(typeParameterValue("true"), { type: "string", value: "true" });
    assert.deepEqual(typeParameterValue("42"), { type: "int", value: 42 });
    assert.deepEqual(typeParameterValue("-7"), { type: "int", value: -7 });
    assert.deepEqual(typeParameterValue("+7"), { type: "int", value: 7 });
    assert.deepEqual(typeParameterValue("9223372036854775808"), { type: "double", value: 9223372036854775808 });
    assert.deepEqual(typeParameterValue("1.5"), { type: "double", value: 1.5 });
    assert.deepEqual(typeParameterValue("1e3"), { type: "double", value: 1000 });
    assert.deepEqual(typeParameterValue("2d"), { type: "double", value: 2 });
    assert.deepEqual(typeParameterValue("0x1p3"), { type: "double", value: 8 });
    assert.equal(typeParameterValue("NaN").type, "double");
    assert.deepEqual(typeParameterValue("data/X.csv"), { type: "string", value: "data/X.csv" });
    assert.deepEqual(typeParameterValue('"quoted"'), { type: "string", value: "quoted" });
    assert.deepEqual(typeParameterValue("'1'"), { type: "string", value: "1" });
  });

  test("command-line name=value pairs", () => {
    const { params, errors } = parseParameterArguments(["X=data/X.csv", "$tol=1e-6", "1=first", "sep==", "novalue", "_x=1"]);
    assert.deepEqual([...params], [["X", "data/X.csv"], ["tol", "1e-6"], ["1", "first"], ["sep", "="]]);
    assert.deepEqual(errors.map((e) => e.argument), ["novalue", "_x=1"]);
  });

  test("constants print as DML prints them in concatenation", () => {
    assert.equal(javaDoubleText(1), "1.0");
    assert.equal(javaDoubleText(0.001), "0.001");
    assert.equal(javaDoubleText(1e-4), "1.0E-4");
    assert.equal(javaDoubleText(12345678), "1.2345678E7");
    assert.equal(constantText({ type: "boolean", value: true }), "TRUE");
  });

  test("constant expressions: $params, concatenation, arithmetic, ifdef, known variables", () => {
    const expression = (source: string): Expression => {
      const statement = parse(`x = ${source}\n`).program.body[0]!;
      assert.equal(statement.kind, "assign");
      return statement.kind === "assign" ? statement.value : assert.fail();
    };
    const env = { params: new Map([["dir", "data"], ["n", "3"], ["r", "0.5"]]), constants: new Map([["base", { type: "string" as const, value: "/d" }]]) };
    const value = (source: string) => {
      const r = evaluateConstant(expression(source), env);
      return r.ok ? constantText(r.value) : `<${r.reason}>`;
    };
    assert.equal(value('$dir + "/X" + $n + ".csv"'), "data/X3.csv");
    assert.equal(value('"x" + 1 + 1.0'), "x11.0");
    assert.equal(value('"x" + (1 + 2) * 2'), "x6");
    assert.equal(value("$n / 2"), "1.5");
    assert.equal(value("-$r"), "-0.5");
    assert.equal(value('base + "/y.csv"'), "/d/y.csv");
    assert.equal(value('ifdef($missing, "def.csv")'), "def.csv");
    assert.equal(value('ifdef($dir, "def")'), "data");
    assert.equal(value('$missing + ".csv"'), "<missing-parameter>");
    assert.equal(value('nrow(X) + ".csv"'), "<not-constant>");
  });
});

describe("read(): path resolution", () => {
  test("the script's folder first, then the workspace root", () => {
    const both = { "/ws/scripts/data/a.csv": "1\n", "/ws/scripts/data/a.csv.mtd": mtd({ rows: 1, cols: 1 }), "/ws/data/a.csv": "1\n2\n", "/ws/data/a.csv.mtd": mtd({ rows: 2, cols: 1 }) };
    const r = resolve('X = read("data/a.csv")', both);
    assert.equal(r.path, "/ws/scripts/data/a.csv");
    assert.equal(r.rows, 1);
    assert.deepEqual(r.candidates, ["/ws/scripts/data/a.csv", "/ws/data/a.csv"]);
    const rootOnly = resolve('X = read("data/a.csv")', { "/ws/data/a.csv": "1\n2\n", "/ws/data/a.csv.mtd": mtd({ rows: 2, cols: 1 }) });
    assert.equal(rootOnly.path, "/ws/data/a.csv");
    assert.equal(rootOnly.rows, 2);
  });

  test("a .mtd without its data file is enough (the data may live elsewhere)", () => {
    const r = resolve('X = read("big.bin")', { "/ws/big.bin.mtd": mtd({ rows: 1e6, cols: 10, nnz: 5e6, format: "binary" }) });
    assert.equal(sizes(r), "1000000 x 10, nnz 5000000 [mtd/mtd/mtd]");
    assert.equal(r.format, "binary");
  });

  test("absolute paths and file: URLs are used as they are", () => {
    const files = { "/abs/x.csv": "1,2\n", "/abs/x.csv.mtd": mtd({ rows: 1, cols: 2, format: "csv" }) };
    assert.equal(resolve('X = read("/abs/x.csv")', files).path, "/abs/x.csv");
    assert.equal(resolve('X = read("file:///abs/x.csv")', files).path, "/abs/x.csv");
  });

  test("a missing file: a warning naming the places looked in, sizes unknown", () => {
    const r = resolve('X = read("nope.csv")', {});
    assert.equal(sizes(r), "? x ?, nnz ? [-/-/-]");
    assert.deepEqual(codes(r), ["warning:read-size-unknown"]);
    assert.match(r.diagnostics[0]!.message, /nope\.csv not found \(looked in \/ws\/scripts\/nope\.csv, \/ws\/nope\.csv\)/);
    assert.deepEqual(r.diagnostics[0]!.range, { start: { line: 0, character: 9 }, end: { line: 0, character: 19 } });
  });

  test("remote paths are not on this machine", () => {
    const r = resolve('X = read("hdfs://cluster/X")', {});
    assert.match(r.diagnostics[0]!.message, /not on this machine/);
  });

  test("$param paths, given by the caller; constant concatenation; known constant variables", () => {
    const files = { "/ws/data/iris.csv.mtd": irisMtd, "/ws/data/iris.csv": "" };
    assert.equal(resolve("X = read($X)", files, { params: new Map([["X", "data/iris.csv"]]) }).rows, 150);
    assert.equal(resolve('X = read($dir + "/iris" + ".csv")', files, { params: new Map([["dir", "data"]]) }).path, "/ws/data/iris.csv");
    const constants = new Map([["f", { type: "string" as const, value: "data/iris.csv" }]]);
    assert.equal(resolve("X = read(f)", files, { constants }).cols, 4);
  });

  test("a $param without a value: a hint at the parameter, unless a declaration gives the sizes", () => {
    const r = resolve("X = read($X)", {});
    assert.deepEqual(codes(r), ["hint:read-file-unknown"]);
    assert.match(r.diagnostics[0]!.message, /comes from \$X, which has no value here/);
    assert.equal(resolve("X = read($X)  # @size 10 x 2", {}).diagnostics.length, 0);
  });
});

describe("read(): arguments, .mtd, Matrix Market and scans", () => {
  test("read() arguments complete the .mtd", () => {
    const files = { "/ws/a.csv": "", "/ws/a.csv.mtd": mtd({ rows: 5, cols: 2, format: "csv" }) };
    assert.equal(sizes(resolve('X = read("a.csv", nnz=7)', files)), "5 x 2, nnz 7 [mtd/mtd/read-arguments]");
  });

  test("read() arguments alone, with types", () => {
    const r = resolve('X = read("gone.bin", rows=1000, cols=20, nnz=100, format="binary", value_type="int")', {});
    assert.equal(sizes(r), "1000 x 20, nnz 100 [read-arguments/read-arguments/read-arguments]");
    assert.deepEqual([r.format, r.valueType, r.dataType], ["binary", "int", "matrix"]);
  });

  test("a constant argument that contradicts the .mtd: an error at the argument, the argument wins", () => {
    const files = { "/ws/a.csv": "", "/ws/a.csv.mtd": mtd({ rows: 5, cols: 2, format: "csv", header: false }) };
    const r = resolve('X = read("a.csv", rows=6, header=TRUE, format="csv")', files);
    assert.equal(r.rows, 6);
    assert.deepEqual(codes(r), ["error:read-conflict", "error:read-conflict"]);
    assert.deepEqual(r.diagnostics[0]!.range.start, { line: 0, character: 23 });
  });

  test("bad argument values are errors", () => {
    const r = resolve('X = read("a.csv", rows=2.5, format="xml", header=1)', {});
    assert.deepEqual(codes(r).slice(0, 3), ["error:read-argument", "error:read-argument", "error:read-argument"]);
  });

  test("errors in the .mtd are passed on with the .mtd's path", () => {
    const r = resolve('X = read("a.csv")', { "/ws/a.csv": "", "/ws/a.csv.mtd": '{"rows": 3,\n "cols": "x"}' });
    assert.equal(r.diagnostics[0]!.file, "/ws/a.csv.mtd");
    assert.deepEqual(r.diagnostics[0]!.range.start, { line: 1, character: 9 });
  });

  test('format="mm" and a %% first line read the Matrix Market header; a .mtd wins over detection', () => {
    const mm = "%%MatrixMarket matrix coordinate real general\n4 3 6\n";
    assert.equal(sizes(resolve('X = read("a.mtx", format="mm")', { "/ws/a.mtx": mm })), "4 x 3, nnz 6 [matrix-market/matrix-market/matrix-market]");
    const detected = resolve('X = read("a.mtx")', { "/ws/a.mtx": mm });
    assert.equal(detected.format, "mm");
    assert.equal(detected.matrixMarket!.entries, 6);
    assert.equal(resolve('X = read("a.mtx")', { "/ws/a.mtx": mm, "/ws/a.mtx.mtd": mtd({ rows: 9, cols: 9, format: "text" }) }).rows, 9);
    const conflict = resolve('X = read("a.mtx", format="mm", rows=5)', { "/ws/a.mtx": mm });
    assert.deepEqual(codes(conflict), ["error:read-conflict"]);
  });

  test("a small symmetric Matrix Market file is scanned for the exact nnz; a big one gets bounds", () => {
    const mm = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 1 5\n3 3 2\n";
    assert.equal(sizes(resolve('X = read("s.mtx")', { "/ws/s.mtx": mm })), "3 x 3, nnz 4 [matrix-market/matrix-market/file-scan]");
    const big = resolve('X = read("s.mtx")', { "/ws/s.mtx": mm }, { scanLimitBytes: 10 });
    assert.equal(big.nnz, null);
    assert.deepEqual([big.nnzLowerBound, big.nnzUpperBound], [3, 6]);
    assert.deepEqual(codes(big), ["information:read-not-scanned"]);
  });

  test('csv without .mtd: rows, cols and nnz counted; header=TRUE skips the first line; sep and default apply', () => {
    const files = { "/ws/c.csv": "a;b;c\n1;0;2\n0;;3\n" };
    assert.equal(sizes(resolve('X = read("c.csv", format="csv", header=TRUE, sep=";")', files)), "2 x 3, nnz 3 [file-scan/file-scan/file-scan]");
    assert.equal(resolve('X = read("c.csv", format="csv", header=TRUE, sep=";", default=1)', files).nnz, 4);
  });

  test("a .csv without .mtd and without format=: a warning (SystemDS would read it as text), then scanned as csv", () => {
    const r = resolve('X = read("c.csv")', { "/ws/c.csv": "1,0\n0,0\n3,4\n" });
    assert.equal(sizes(r), "3 x 2, nnz 3 [file-scan/file-scan/file-scan]");
    assert.deepEqual(codes(r), ["warning:read-format"]);
  });

  test("csv: a .mtd without nnz gets it from a scan; a non-number stops the count with its position", () => {
    const files = { "/ws/c.csv": "1,0\n0,x\n", "/ws/c.csv.mtd": mtd({ rows: 2, cols: 2, format: "csv" }) };
    const r = resolve('X = read("c.csv")', files);
    assert.equal(sizes(r), "2 x 2, nnz ? [mtd/mtd/-]");
    assert.equal(r.diagnostics[0]!.file, "/ws/c.csv");
    assert.deepEqual(r.diagnostics[0]!.range.start, { line: 1, character: 2 });
    assert.equal(resolve('X = read("c.csv")', { ...files, "/ws/c.csv": "1,0\n0,5\n" }).nnz, 2);
  });

  test("files over the scan limit are not scanned", () => {
    const r = resolve('X = read("c.csv", format="csv")', { "/ws/c.csv": "1,2\n3,4\n" }, { scanLimitBytes: 4 });
    assert.equal(sizes(r), "? x ?, nnz ? [-/-/-]");
    assert.deepEqual(codes(r), ["information:read-not-scanned", "information:read-size-unknown"]);
  });

  test("text (i j v) files: nnz from a scan, dims from the .mtd", () => {
    const files = { "/ws/t.ijv": "1 1 2.0\n3 2 0\n4 4 1\n", "/ws/t.ijv.mtd": mtd({ rows: 4, cols: 4, format: "text" }) };
    assert.equal(sizes(resolve('X = read("t.ijv")', files)), "4 x 4, nnz 2 [mtd/mtd/file-scan]");
  });

  test("scalars and lists have no dims; frames no nnz", () => {
    const scalar = resolve('s = read("s.txt", data_type="scalar", value_type="int")', {});
    assert.deepEqual([scalar.dataType, scalar.valueType, scalar.rows, scalar.diagnostics.length], ["scalar", "int", null, 0]);
    const frame = resolve('F = read("f.csv")', { "/ws/f.csv": "a,b\n", "/ws/f.csv.mtd": mtd({ data_type: "frame", rows: 1, cols: 2, nnz: 2, format: "csv" }) });
    assert.equal(sizes(frame), "1 x 2, nnz ? [mtd/mtd/-]");
  });
});

describe("read(): precedence annotation > workspace file > read() arguments > .mtd > file scan", () => {
  const files = { "/ws/data/iris.csv": "5.1,3.5,1.4,0.2\n", "/ws/data/iris.csv.mtd": irisMtd };
  const workspaceFile = JSON.stringify({ inputs: { X: { rows: 2000, cols: 4 } } });

  test("each layer alone", () => {
    assert.equal(sizes(resolve('X = read("data/iris.csv")', files)), "150 x 4, nnz 600 [mtd/mtd/mtd]");
    assert.equal(sizes(resolve('X = read("data/iris.csv", rows=150, nnz=500)', files)), "150 x 4, nnz 500 [read-arguments/mtd/read-arguments]");
    assert.equal(sizes(resolve('X = read("data/iris.csv")', files, { workspaceFile })), "2000 x 4, nnz ? [workspace/workspace/-]");
    assert.equal(sizes(resolve('X = read("data/iris.csv")  # @size 1M x 4, sparsity=0.5', files, { workspaceFile })), "1000000 x 4, nnz 2000000 [annotation/annotation/annotation]");
  });

  test("a declaration may give only part: the rest comes from the data, its nnz only when the dims are the data's", () => {
    assert.equal(sizes(resolve('X = read("data/iris.csv")  # @size ? x 4', files)), "150 x 4, nnz 600 [mtd/annotation/mtd]");
    assert.equal(sizes(resolve('X = read("data/iris.csv")  # @size 300 x ?', files)), "300 x 4, nnz ? [annotation/mtd/-]");
    assert.equal(sizes(resolve('X = read("data/iris.csv")  # @size ? x ?, nnz=10', files)), "150 x 4, nnz 10 [mtd/mtd/annotation]");
  });

  test("an override of the data's own size is noted once, where it is declared", () => {
    const r = resolve('X = read("data/iris.csv")  # @size 1M x 4', files);
    assert.deepEqual(codes(r), ["information:size-override"]);
    assert.match(r.diagnostics[0]!.message, /@size overrides the data's own size 150 x 4 with 1000000 x 4/);
    assert.equal(r.diagnostics[0]!.file, script);
    const w = resolve('X = read("data/iris.csv")', files, { workspaceFile });
    assert.equal(w.diagnostics[0]!.file, "/ws/dml-lens.json");
  });

  test("the workspace file by $param key and by path key", () => {
    const byParam = resolve("Y = read($Y)", {}, { workspaceFile: JSON.stringify({ inputs: { $Y: { rows: 7, cols: 1, nnz: 3 } } }) });
    assert.equal(sizes(byParam), "7 x 1, nnz 3 [workspace/workspace/workspace]");
    const byPath = resolve('Z = read("data/iris.csv")', files, { workspaceFile: JSON.stringify({ inputs: { "data/iris.csv": { rows: 9, cols: 4 } } }) });
    assert.equal(byPath.rows, 9);
  });
});

describe("read(): the shipped examples", () => {
  test("iris_tour.dml's reads resolve against examples/ through the node file system", () => {
    const scriptPath = path.join(repoRoot, "examples", "iris_tour.dml");
    const text = readFileSync(scriptPath, "utf8");
    const parsed = parse(text, { keepComments: true });
    const found: string[] = [];
    for (const statement of parsed.program.body) {
      if (statement.kind !== "assign" || statement.value.kind !== "call" || statement.value.callee.name !== "read") continue;
      const r = resolveReadMetadata(statement.value, { scriptPath, workspaceRoot: repoRoot, fs: nodeFileSystem, params: new Map() });
      assert.deepEqual(r.diagnostics, []);
      found.push(`${r.pathText}: ${sizes(r)}`);
    }
    assert.deepEqual(found, ["data/iris_X.csv: 150 x 4, nnz 600 [mtd/mtd/mtd]", "data/iris_y.csv: 150 x 1, nnz 100 [mtd/mtd/mtd]"]);
  });

  test("linreg_cg.dml with $X and $Y given as workspace-relative paths", () => {
    const scriptPath = path.join(repoRoot, "examples", "linreg_cg.dml");
    const parsed = parse(readFileSync(scriptPath, "utf8"));
    const params = new Map([["X", "examples/data/digits_X.csv"], ["Y", "examples/data/digits_y.csv"]]);
    const reads = parsed.program.body.flatMap((s) => (s.kind === "assign" && s.value.kind === "call" && s.value.callee.name === "read" ? [s.value] : []));
    const results = reads.map((call) => sizes(resolveReadMetadata(call, { scriptPath, workspaceRoot: repoRoot, fs: nodeFileSystem, params })));
    assert.deepEqual(results, ["1797 x 64, nnz 58736 [mtd/mtd/mtd]", "1797 x 1, nnz 1619 [mtd/mtd/mtd]"]);
  });
});
