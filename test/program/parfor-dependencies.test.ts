// The parfor dependency analysis (engine/program/parfor-dependencies.ts) on
// several members of each class: row, column, cell and block-slice results;
// locals; loop-carried scalars; constant-index writes; whole reads of a
// result; nested loops; side effects; and the checker's errors for what
// SystemDS's validation rejects (none with check=0, none on the examples).
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { polyText } from "../../engine/program/affine-index";
import { analyzeParfor, parforDiagnostics, type DimensionForm, type ParforAnalysis } from "../../engine/program/parfor-dependencies";
import { semanticDiagnostics } from "../../engine/program/semantic-diagnostics";
import type { ForStatement, Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";

function program(text: string) {
  const parsed = parse(text);
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === "error"), [], text);
  return parsed.program;
}

function firstParfor(statements: readonly Statement[]): ForStatement | undefined {
  for (const s of statements) {
    if (s.kind === "for" && s.parallel) return s;
    const inner = s.kind === "for" || s.kind === "while" || s.kind === "function" ? firstParfor(s.body) : s.kind === "if" ? firstParfor([...s.thenBody, ...(s.elseBody ?? [])]) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

function analyze(text: string): ParforAnalysis {
  const p = program(text);
  const functions = new Map(p.body.flatMap((s: Statement) => (s.kind === "function" ? [[s.name.name, s.body] as const] : [])));
  return analyzeParfor(firstParfor(p.body)!, { functionBody: (n: string) => functions.get(n) as readonly Statement[] | undefined });
}

function form(d: DimensionForm): string {
  return d.kind === "affine" ? `${polyText(d.lower)}:${polyText(d.upper)}` : d.kind;
}

function summary(a: ParforAnalysis) {
  return {
    locals: [...a.locals].sort(),
    results: a.results.map((r) => `${r.name}[${r.writes.map((w) => `${form(w.rows)},${form(w.cols)}`).join(" ; ")}]`),
    dependencies: a.dependencies.filter((d) => d.kind !== "output").map((d) => `${d.kind} ${d.variable}`),
  };
}

function errors(text: string): string[] {
  return parforDiagnostics(program(text)).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message.split(":")[1]!.trim().split(" ").slice(0, 3).join(" ")}`);
}

describe("result variables and their slices", () => {
  test("row results: R[i, ], R[i, 1] and R[i, j] in a nested for", () => {
    assert.deepEqual(summary(analyze("R = matrix(0, 4, 3)\nparfor (i in 1:4) { R[i, ] = matrix(i, 1, 3) }")).results, ["R[i:i,all]"]);
    assert.deepEqual(summary(analyze("R = matrix(0, 4, 3)\nparfor (i in 1:4) { R[i, 1] = i }")).results, ["R[i:i,1:1]"]);
    const nested = analyze("R = matrix(0, 4, 3)\nparfor (i in 1:4) { for (j in 1:3) { R[i, j] = i * j } }");
    assert.deepEqual(summary(nested).results, ["R[i:i,unknown]"]);
    assert.deepEqual(summary(nested).locals, ["j"]);
  });

  test("column results: R[, i] and R[1:3, i + 1]", () => {
    assert.deepEqual(summary(analyze("R = matrix(0, 3, 5)\nparfor (c in 1:4) { R[, c] = X[, c] * 2 }")).results, ["R[all,c:c]"]);
    assert.deepEqual(summary(analyze("R = matrix(0, 3, 5)\nparfor (c in 1:4) { R[1:3, c + 1] = X[, c] }")).results, ["R[1:3,c + 1:c + 1]"]);
  });

  test("block slices: R[(i-1)*k+1 : i*k, ] with a loop-invariant k", () => {
    const a = analyze("k = 5\nR = matrix(0, 20, 2)\nparfor (i in 1:4) { R[(i-1)*k+1 : i*k, ] = matrix(i, k, 2) }");
    assert.deepEqual(summary(a).results, ["R[i*k - k + 1:i*k,all]"]);
    assert.deepEqual(a.indexSymbols, ["k"]);
    assert.deepEqual(summary(a).dependencies, []);
  });

  test("an index built from a name the body writes has no form", () => {
    const a = analyze("R = matrix(0, 4, 1)\nparfor (i in 1:4) { r = i\n R[r, 1] = i }");
    assert.deepEqual(summary(a).results, ["R[unknown,1:1]"]);
    assert.deepEqual(summary(a).dependencies, ["constant-index R"]);
  });

  test("reads of the own slice and nrow/ncol are allowed; whole reads are a dependency", () => {
    const own = analyze("R = matrix(1, 4, 3)\nparfor (i in 1:4) { v = R[i, ] * ncol(R)\n R[i, ] = v + nrow(R) }");
    assert.deepEqual(summary(own).dependencies, []);
    assert.equal(own.results[0]!.reads.length, 1);
    assert.deepEqual(summary(analyze("R = matrix(1, 4, 3)\nparfor (i in 1:4) { R[i, ] = colSums(R) }")).dependencies, ["whole-read R"]);
  });
});

describe("locals and loop-carried dependencies", () => {
  test("written before read: local (also in branches both assign, and nested loops)", () => {
    assert.deepEqual(summary(analyze("parfor (i in 1:4) { t = i * 2\n u = t + 1 }")).locals, ["t", "u"]);
    assert.deepEqual(summary(analyze("parfor (i in 1:4) { if (i > 2) { t = 1 } else { t = 2 }\n u = t }")).locals, ["t", "u"]);
    assert.deepEqual(summary(analyze("parfor (i in 1:4) { cnt = 1\n while (cnt < 3) { cnt += 1 } }")).locals, ["cnt"]);
  });

  test("read before written: loop-carried (s = s + x, a branch that may not assign, +=)", () => {
    assert.deepEqual(summary(analyze("s = 0\nparfor (i in 1:4) { s = s + i }")).dependencies, ["loop-carried s"]);
    assert.deepEqual(summary(analyze("parfor (i in 1:4) { if (i > 1) { t = 2 }\n u = t }")).dependencies, ["loop-carried t"]);
    assert.deepEqual(summary(analyze("s = 0\nparfor (i in 1:4) { s += i }")).dependencies, ["accumulator s"]);
    assert.deepEqual(summary(analyze("X = matrix(0, 2, 2)\nparfor (i in 1:4) { X = X + i }")).dependencies, ["loop-carried X"]);
  });

  test("a write to R[1, ] in every iteration is a constant-index dependency", () => {
    assert.deepEqual(summary(analyze("R = matrix(0, 4, 3)\nparfor (i in 1:4) { R[1, ] = matrix(i, 1, 3) }")).dependencies, ["constant-index R"]);
  });

  test("nested parfor: the outer analysis sees the inner writes", () => {
    const a = analyze("R = matrix(0, 3, 3)\nparfor (i in 1:3) { parfor (j in 1:3) { R[i, j] = i + j } }");
    assert.deepEqual(summary(a).results, ["R[i:i,unknown]"]);
    assert.deepEqual(summary(a).dependencies, []);
  });

  test("side effects: write(), functions that write, prints and stops", () => {
    const a = analyze('f = function(double x) return (double y) { write(x, "out.csv")\n y = x }\nparfor (i in 1:4) { print(i)\n z = f(i) }');
    assert.deepEqual(a.sideEffects.map((s) => s.what), ["write()"]);
    assert.equal(a.prints, true);
    assert.equal(analyze("parfor (i in 1:4) { if (i > 3) { stop(\"x\") } }").stops.length, 1);
    assert.deepEqual(analyze("parfor (i in 1:4) { z = mystery(i) }").sideEffects.map((s) => s.what), ["mystery() (a function the analysis cannot see)"]);
  });
});

describe("the checker's parfor errors", () => {
  test("a loop-carried scalar, an output dependency, a constant index, a whole read, stop()", () => {
    assert.deepEqual(errors("s = 0\nparfor (i in 1:4) {\n  s = s + i\n}"), ["3:7 loop-carried dependency on"]);
    assert.deepEqual(errors("t = 0\nparfor (i in 1:4) {\n  t = i\n}"), ["3:3 every iteration writes"]);
    assert.deepEqual(errors("R = matrix(0, 4, 3)\nparfor (i in 1:4) {\n  R[1, ] = matrix(i, 1, 3)\n}"), ["3:3 every iteration writes"]);
    assert.deepEqual(errors("R = matrix(0, 4, 3)\nparfor (i in 1:4) {\n  R[i, ] = colSums(R)\n}"), ["3:20 an iteration reads"]);
    assert.deepEqual(errors('parfor (i in 1:4) {\n  if (i == 3) stop("three")\n}'), ["2:15 stop() and assert()"]);
  });

  test("independent loops, locals first assigned in the body, and check=0 give none", () => {
    assert.deepEqual(errors("R = matrix(0, 4, 3)\nparfor (i in 1:4) {\n  v = matrix(i, 1, 3)\n  R[i, ] = v\n}"), []);
    assert.deepEqual(errors("s = 0\nparfor (i in 1:4, check=0) {\n  s = s + i\n}"), []);
    // A nested for loop's variable is not a candidate, even when the name was used before (SystemDS's gridSearch.dml).
    assert.deepEqual(errors("for (j in 1:2) { x = j }\nR = matrix(0, 4, 2)\nparfor (i in 1:4) {\n  for (j in 1:2) { R[i, j] = j }\n}"), []);
    assert.deepEqual(errors("k = 2\nR = matrix(0, 8, 1)\nparfor (i in 1:4) {\n  R[(i-1)*k+1:i*k, 1] = matrix(i, k, 1)\n}"), []);
  });

  test("semanticDiagnostics reports them with the code parfor-dependency", () => {
    const found = semanticDiagnostics(program("s = 0\nparfor (i in 1:4) {\n  s = s + i\n}\nprint(s)"));
    assert.deepEqual(found.map((d) => d.code), ["parfor-dependency"]);
    assert.match(found[0]!.message, /loop-carried dependency on 's'/);
  });
});
