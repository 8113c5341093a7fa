// `@size` annotations (syntax, exact error ranges, attachment to statements)
// and the workspace file dml-lens.json.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { collectSizeAnnotations, loadWorkspaceConfig, parseSizeAnnotation, parseWorkspaceConfig, sizeAnnotationFor, workspaceInputFor, workspaceParameters } from "../../engine/metadata";
import { memoryFileSystem } from "../../engine/files";
import type { Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";

const origin = { line: 0, character: 0 };

function declared(comment: string) {
  const result = parseSizeAnnotation(comment, origin);
  assert.ok(result, `not an annotation: ${comment}`);
  assert.deepEqual(result.diagnostics, [], comment);
  return result.annotation!;
}

/** The single error of a malformed annotation as "fromCol-toCol message" (0-based columns of the comment). */
function problem(comment: string): string {
  const result = parseSizeAnnotation(comment, origin)!;
  assert.equal(result.annotation, undefined, comment);
  assert.equal(result.diagnostics.length, 1, comment);
  const d = result.diagnostics[0]!;
  assert.equal(d.severity, "error");
  return `${d.range.start.character}-${d.range.end.character} ${d.message}`;
}

describe("@size syntax", () => {
  test("rows x cols with nnz or sparsity, in every spelling", () => {
    assert.deepEqual(declared("# @size 1000000 x 500000 nnz=500000000").declaration, { rows: 1e6, cols: 5e5, nnz: 5e8 });
    assert.deepEqual(declared("# @size X: 1e6 x 5e5, sparsity 0.001").declaration, { rows: 1e6, cols: 5e5, sparsity: 0.001 });
    assert.deepEqual(declared("#@size 1M×500k, sparsity=0.1%").declaration, { rows: 1e6, cols: 5e5, sparsity: 0.001 });
    assert.deepEqual(declared("## @size 2.5k*3G, nnz: 7").declaration, { rows: 2500, cols: 3e9, nnz: 7 });
    assert.deepEqual(declared("# @size 10X20").declaration, { rows: 10, cols: 20 });
    assert.deepEqual(declared("/* @size 1T x 1 */").declaration, { rows: 1e12, cols: 1 });
  });

  test("? leaves a dimension unknown", () => {
    assert.deepEqual(declared("# @size ? x 500, sparsity=0.5").declaration, { cols: 500, sparsity: 0.5 });
    assert.deepEqual(declared("# @size ? x ?  nnz=10").declaration, { nnz: 10 });
  });

  test("a name picks the variable", () => {
    const annotation = declared("# @size Q: 10 x 3");
    assert.equal(annotation.name!.text, "Q");
    assert.deepEqual(annotation.name!.range, { start: { line: 0, character: 8 }, end: { line: 0, character: 9 } });
    assert.deepEqual(annotation.range, { start: { line: 0, character: 2 }, end: { line: 0, character: 17 } });
  });

  test("comments that are not annotations", () => {
    assert.equal(parseSizeAnnotation("# the size of X", origin), undefined);
    assert.equal(parseSizeAnnotation("# see @size below", origin), undefined);
    assert.equal(parseSizeAnnotation("# @sizes 3 x 3", origin), undefined);
  });

  test("malformed annotations: errors at the exact characters", () => {
    assert.equal(problem("# @size"), "2-7 @size needs the sizes: '@size ROWS x COLS', e.g. '@size 1e6 x 500, sparsity=0.01'");
    assert.equal(problem("# @size 1000 x"), "14-14 expected the number of columns (an integer such as 1000, 1e6 or 2.5M, or ? when unknown), found the end of the comment");
    assert.equal(problem("# @size 1000 by 20"), "13-15 expected 'x' between rows and columns (as in '@size 1000 x 20'), found 'by'");
    assert.equal(problem("# @size many x 20"), "8-12 expected the number of rows (an integer such as 1000, 1e6 or 2.5M, or ? when unknown), found 'many'");
    assert.equal(problem("# @size 1.5 x 20"), "8-11 the number of rows must be a whole number, not 1.5");
    assert.equal(problem("# @size 10 x 20 nnz=abc"), "20-23 expected the number of non-zeros (an integer such as 1000, 1e6 or 2.5M, or ? when unknown), found 'abc'");
    assert.equal(problem("# @size 10 x 20, density=0.1"), "17-28 expected 'nnz=N' or 'sparsity=S' here, found 'density=0.1'");
    assert.equal(problem("# @size 10 x 20 sparsity=2"), "25-26 the sparsity is the fraction of non-zero cells, between 0 and 1 (or 0% and 100%), not 2");
    assert.equal(problem("# @size 10 x 20 sparsity=x"), "25-26 expected the sparsity: a fraction such as 0.001 or a percentage such as 0.1%");
    assert.match(problem("# @size 10 x 20 nnz=5 sparsity=0.1"), /^22-\d+ give nnz or sparsity once, not both$/);
    assert.equal(problem("# @size 10 x 20 nnz=500"), "20-23 nnz 500 is more than rows x cols = 200");
    assert.equal(problem("# @size 10 x 20 the design matrix"), "16-19 expected 'nnz=N' or 'sparsity=S' here, found 'the'");
  });

  test("positions are offset by the comment's place in the script", () => {
    const result = parseSizeAnnotation("# @size 3 x", { line: 4, character: 12 })!;
    assert.deepEqual(result.diagnostics[0]!.range, { start: { line: 4, character: 23 }, end: { line: 4, character: 23 } });
  });
});

function annotate(text: string) {
  const parsed = parse(text, { keepComments: true });
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === "error"), [], text);
  return { parsed, annotations: collectSizeAnnotations(text, parsed) };
}

function statementAt(body: Statement[], line: number): Statement {
  const found = body.find((s) => s.range.start.line === line);
  assert.ok(found, `no statement on line ${line}`);
  return found;
}

describe("@size attachment to statements", () => {
  test("at the end of the line and on the line above, with comment lines between", () => {
    const text = [
      "X = read($X)  # @size 1000 x 20",
      "# @size 1000 x 1, nnz=400",
      "# the labels",
      "y = read($Y)",
      "",
    ].join("\n");
    const { parsed, annotations } = annotate(text);
    assert.deepEqual(annotations.diagnostics, []);
    const body = parsed.program.body;
    assert.deepEqual(sizeAnnotationFor(annotations, statementAt(body, 0))!.declaration, { rows: 1000, cols: 20 });
    const y = sizeAnnotationFor(annotations, statementAt(body, 3))!;
    assert.equal(y.target, "y");
    assert.deepEqual(y.declaration, { rows: 1000, cols: 1, nnz: 400 });
  });

  test("any assignment, also inside loops and functions, and the last line of a multi-line statement", () => {
    const text = [
      "f = function(matrix[double] A) return (matrix[double] B) {",
      "  # @size 5 x 5",
      "  B = A %*% t(A)",
      "}",
      "for (i in 1:3) {",
      "  Z = g(i,",
      "    2)  # @size 7 x 1",
      "}",
      "",
    ].join("\n");
    const { annotations } = annotate(text);
    assert.deepEqual(annotations.diagnostics, []);
    assert.deepEqual(annotations.annotations.map((a) => [a.target, a.statement.range.start.line]), [["B", 2], ["Z", 5]]);
  });

  test("a multi-assignment needs a name, and the name must be one of its targets", () => {
    const text = ["# @size Q: 100 x 10", "# @size R: 10 x 10", "[Q, R] = qr(A)", "[U, V] = f(A)  # @size 3 x 3", "[S, T] = f(A)  # @size W: 3 x 3", ""].join("\n");
    const { annotations } = annotate(text);
    assert.deepEqual(annotations.annotations.map((a) => a.target), ["Q", "R"]);
    const messages = annotations.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);
    assert.deepEqual(messages, [
      "3:17 this statement assigns 'U', 'V': name one, as in '@size U: 1000 x 20'",
      "4:23 this @size names 'W', but the statement assigns 'S', 'T'",
    ]);
  });

  test("a name that differs from the target is an error at the name", () => {
    const { annotations } = annotate("X = read($X)  # @size Y: 3 x 3\n");
    assert.equal(annotations.annotations.length, 0);
    assert.deepEqual(annotations.diagnostics[0]!.range, { start: { line: 0, character: 22 }, end: { line: 0, character: 23 } });
  });

  test("misplaced annotations are warnings: after a blank line, above an if, after a print, at the end of the file", () => {
    const text = ["# @size 3 x 3", "", "X = read($X)", "# @size 3 x 3", "if (TRUE) { Y = X }", 'print("x")  # @size 3 x 3', "# @size 3 x 3", ""].join("\n");
    const { annotations } = annotate(text);
    assert.equal(annotations.annotations.length, 0);
    assert.deepEqual(
      annotations.diagnostics.map((d) => [d.severity, d.range.start.line]),
      [["warning", 0], ["warning", 3], ["warning", 5], ["warning", 6]],
    );
  });

  test("a second annotation for the same variable is a warning; the first counts", () => {
    const { annotations } = annotate("# @size 3 x 3\nX = read($X)  # @size 4 x 4\n");
    assert.deepEqual(annotations.annotations[0]!.declaration, { rows: 3, cols: 3 });
    assert.match(annotations.diagnostics[0]!.message, /already has a @size annotation on line 1/);
  });

  test("malformed annotations are reported in the script with their range", () => {
    const { annotations } = annotate("x = 1\nX = read($X)  # @size 10 x\n");
    assert.deepEqual(annotations.diagnostics[0]!.range.start, { line: 1, character: 26 });
    assert.equal(annotations.diagnostics[0]!.code, "size-annotation");
  });
});

describe("workspace file dml-lens.json", () => {
  const root = "/ws";
  const text = JSON.stringify(
    {
      params: { X: "data/X.csv", reg: 0.001, n: 10, big: 1.0, flag: true },
      inputs: {
        X: { rows: 1000000, cols: 500000, sparsity: 0.001 },
        $Y: { rows: 1000000, cols: 1 },
        "data/big.csv": { rows: 20, cols: 3, nnz: 60 },
      },
      scripts: { "s/one.dml": { params: { n: 20 }, inputs: { X: { rows: 5, cols: 5 } } } },
    },
    null,
    2,
  ).replace('"big": 1', '"big": 1.0');

  test("params keep their spelling (1.0 stays a double) and booleans become TRUE/FALSE", () => {
    const { config, diagnostics } = parseWorkspaceConfig(text, "/ws/dml-lens.json", root);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual([...workspaceParameters(config, "/ws/other.dml")], [["X", "data/X.csv"], ["reg", "0.001"], ["n", "10"], ["big", "1.0"], ["flag", "TRUE"]]);
    assert.equal(workspaceParameters(config, "/ws/s/one.dml").get("n"), "20");
  });

  test("inputs by path, then $param, then variable; a script's own section first", () => {
    const { config } = parseWorkspaceConfig(text, "/ws/dml-lens.json", root);
    const lookup = (script: string, key: Parameters<typeof workspaceInputFor>[2]) => workspaceInputFor(config, script, key)?.key;
    assert.equal(lookup("/ws/a.dml", { target: "X" }), "X");
    assert.equal(lookup("/ws/a.dml", { target: "Z", parameter: "Y" }), "$Y");
    assert.equal(lookup("/ws/a.dml", { target: "X", parameter: "Y", paths: ["/ws/data/big.csv"] }), "data/big.csv");
    assert.equal(lookup("/ws/a.dml", { target: "W" }), undefined);
    assert.deepEqual(workspaceInputFor(config, "/ws/s/one.dml", { target: "X" })!.declaration, { rows: 5, cols: 5 });
  });

  test("found as dml-lens.json or .dml-lens.json in the workspace root", () => {
    const fs = memoryFileSystem({ "/ws/.dml-lens.json": '{"params": {"a": "b"}}' });
    assert.equal(loadWorkspaceConfig(fs, "/ws").config!.all.params.get("a"), "b");
    assert.deepEqual(loadWorkspaceConfig(memoryFileSystem({}), "/ws"), { diagnostics: [] });
  });

  test("problems at their position in the workspace file", () => {
    const bad = '{\n  "params": { "1x": "a", "ok": [1] },\n  "inputs": { "X": { "rows": -3, "sparsity": 2, "colour": 1 }, "Y": { "nnz": 5, "sparsity": 0.1 } },\n  "extra": 1\n}';
    const { diagnostics, config } = parseWorkspaceConfig(bad, "/ws/dml-lens.json", root);
    const found = diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.message}`);
    assert.deepEqual(found, [
      '2:15 error "1x" is not a parameter name (a letter, then letters, digits or _)',
      "2:32 error the value of $ok must be a string, number or boolean, not an array",
      '3:30 error "rows" must be a non-negative integer (or null when unknown), not the number -3',
      '3:46 error "sparsity" must be a fraction between 0 and 1, not the number 2',
      '3:49 warning unknown key "colour" in an input (expected rows, cols, nnz or sparsity)',
      "3:64 error give nnz or sparsity, not both",
      '4:3 warning unknown key "extra" (expected "params", "inputs" or "scripts")',
    ]);
    assert.equal(config!.all.inputs.length, 0);
    assert.match(parseWorkspaceConfig("{", "/ws/dml-lens.json", root).diagnostics[0]!.message, /^malformed dml-lens.json/);
  });
});

describe("README: the examples of 'Declaring input sizes' are valid", () => {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Declaring input sizes"), readme.indexOf("## Layout"));
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2]! }));

  test("the annotation examples attach without diagnostics", () => {
    const dml = blocks.find((b) => b.lang === "")!;
    const { annotations } = annotate(dml.text);
    assert.deepEqual(annotations.diagnostics, []);
    assert.deepEqual(annotations.annotations.map((a) => a.target), ["X", "y", "Q"]);
  });

  test("the workspace file example parses without diagnostics", () => {
    const json = blocks.find((b) => b.lang === "json")!;
    const { config, diagnostics } = parseWorkspaceConfig(json.text, "/ws/dml-lens.json", "/ws");
    assert.deepEqual(diagnostics, []);
    assert.equal(config!.all.inputs.length, 3);
  });
});
