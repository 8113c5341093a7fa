// `dml prove`: the derivation in DML notation with rule descriptions, the
// early stop once both sides are in one e-class, "not equal" from sizes
// without a search, honest "not proven", and the --json shape.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { proveVariables, type ProveOutcome } from "../../cli/prove";
import { derivationLines } from "../../engine/rewrite";
import { repoRoot } from "../repo-root";

const bin = path.join(repoRoot, "bin", "dml.js");
const example = path.join(repoRoot, "examples", "prove.dml");
const exampleText = readFileSync(example, "utf8");
const dir = mkdtempSync(path.join(tmpdir(), "dml-prove-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function proveIn(text: string, a: string, b: string, options: Parameters<typeof proveVariables>[4] = {}): ProveOutcome {
  const outcome = proveVariables(text, "test.dml", a, b, options);
  assert.notEqual(typeof outcome, "string", String(outcome));
  return outcome as ProveOutcome;
}

describe("dml prove: derivations in DML notation", () => {
  test("sum distributes over +: one line, DML on both sides, the rule's description", () => {
    const r = dml("prove", example, "s1", "s2");
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^proven: s1 = s2 {2}\(1 step; stopped as soon as both were in one e-class: \d+ iterations, \d+ e-nodes, \d+ ms\)$/);
    assert.equal(lines[1], "  sum(X + Y) = sum(X) + sum(Y)  [add-of-sums: sum distributes over +]");
    assert.equal(lines.length, 2);
  });

  test("transpose of a product and a matrix chain: steps start at one side, end at the other, and chain", () => {
    for (const [a, b, first, last, rule] of [
      ["T1", "T2", "t(A %*% B)", "t(B) %*% t(A)", /X %\*% Y is a sum over the inner index/],
      ["M1", "M2", "A %*% B %*% C", "A %*% (B %*% C)", /sums over two indices commute/],
      ["p1", "p2", "sum(A %*% B)", "sum(t(colSums(A)) * rowSums(B))", /sums over two indices commute/],
    ] as const) {
      const o = proveIn(exampleText, a, b);
      assert.equal(o.verdict, "proven", `${a} = ${b}`);
      assert.ok(o.steps.length >= 1);
      assert.equal(o.steps[0]!.before, first);
      assert.equal(o.steps.at(-1)!.after, last);
      for (let k = 1; k < o.steps.length; k++) assert.equal(o.steps[k]!.before, o.steps[k - 1]!.after);
      assert.match(o.steps.map((s) => s.description).join("; "), rule);
      for (const step of o.steps) {
        assert.doesNotMatch(step.before + step.after, /\b(b|r\+|r\*|rsum|ubm|ubs|dag:\d+|var:)\b|@\d/, "relational forms and internal leaves never show");
        assert.ok(step.rules.includes(step.rule));
        assert.ok(step.description.length > 0);
      }
    }
  });

  test("a value that is another variable's prints by its name, a live-in variable by its own name", () => {
    const text = "X = rand(rows=20, cols=100, seed=1)\nwhile (FALSE) {}\nY = X * 2\na = sum(X * Y)\nb = sum(Y * X)\n";
    const o = proveIn(text, "a", "b");
    assert.equal(o.verdict, "proven");
    assert.deepEqual(derivationLines(o.steps), ["sum(X * Y) = sum(Y * X)  [re-associate/commute]"]);
  });

  test("the same value written twice is proven without a search", () => {
    const o = proveIn("X = rand(rows=4, cols=3, seed=1)\na = t(X) %*% X\nb = a\n", "a", "b");
    assert.equal(o.verdict, "proven");
    assert.equal(o.iterations, 0);
    assert.deepEqual(o.steps, []);
  });
});

describe("dml prove: stops as soon as both sides are in one e-class", () => {
  test("fewer iterations and e-nodes than saturating to a limit", () => {
    for (const [a, b] of [["s1", "s2"], ["T1", "T2"]] as const) {
      const early = proveIn(exampleText, a, b);
      const full = proveIn(exampleText, a, b, { stopWhenEqual: false, budgetMs: 60_000 });
      assert.equal(early.verdict, "proven");
      assert.equal(full.verdict, "proven");
      assert.equal(early.stopReason, "equal");
      assert.notEqual(full.stopReason, "equal");
      assert.ok(early.iterations < full.iterations, `${a}: ${early.iterations} iterations early, ${full.iterations} in full`);
      assert.ok(early.nodes < full.nodes, `${a}: ${early.nodes} e-nodes early, ${full.nodes} in full`);
    }
  });
});

describe("dml prove: not equal when sizes or types decide, without a search", () => {
  test("the README example: a 20 x 100 matrix and a scalar", () => {
    const r = dml("prove", example, "Z", "z");
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "not equal: shapes 20 x 100 and 1 x 1 differ (Z is a 20 x 100 matrix, z is a double scalar); decided without a search\n");
  });

  test("several classes of differences, none of them searched", () => {
    const text = [
      "X = rand(rows=20, cols=100, seed=1)",
      "A = t(X)",
      "R = X[1:10, ]",
      "C = X[, 1:50]",
      "s = sum(X)",
      "w = \"a text\"",
      "k = 3",
      "j = 4",
      "F = as.frame(X)",
    ].join("\n");
    for (const [a, b, reason] of [
      ["X", "A", "shapes 20 x 100 and 100 x 20 differ"],
      ["X", "R", "shapes 20 x 100 and 10 x 100 differ"],
      ["X", "C", "shapes 20 x 100 and 20 x 50 differ"],
      ["s", "w", "types differ (s is a double scalar, w is a string scalar)"],
      ["k", "j", "values 3 and 4 differ (both are constants)"],
      ["X", "F", "types differ (X is a 20 x 100 matrix, F is a frame)"],
    ] as const) {
      const o = proveIn(text, a, b);
      assert.equal(o.verdict, "not equal", `${a} = ${b}`);
      assert.equal(o.reason, reason);
      assert.equal(o.iterations, 0);
      assert.equal(o.nodes, 0);
      assert.equal(o.stopReason, undefined);
    }
  });

  test("a 1 x 1 matrix and a scalar, or an unknown size, are not decided by sizes", () => {
    const text = "X = rand(rows=1, cols=1, seed=1)\ns = as.scalar(X)\nY = read($Y)\nt = sum(Y)\n";
    assert.notEqual(proveIn(text, "X", "s").verdict, "not equal");
    assert.notEqual(proveIn(text, "Y", "t", { budgetMs: 300 }).verdict, "not equal");
  });
});

describe("dml prove: not proven is not not equal", () => {
  test("says what was tried and that it does not mean they differ", () => {
    const r = dml("prove", example, "q1", "q2", "--budget-ms", "300");
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^not proven: q1 = q2 — no proof found: the search (saturated|stopped at the (iteration limit|e-node limit|rule-application limit|time limit))[^\n]* \(\d+ iterations, \d+ e-nodes, \d+ ms\)\n/);
    assert.match(r.stdout, /--budget-ms 300\)|limit \(\d+|saturated/);
    assert.match(r.stdout, /\n {2}Not proven is not "not equal": the rules (may not|do not) cover this identity/);
    assert.doesNotMatch(r.stdout, /^not equal/m);
  });

  test("variables not assigned in one block are a usage problem", () => {
    const script = path.join(dir, "blocks.dml");
    writeFileSync(script, "a = 1\nwhile (FALSE) {}\nb = 1\n");
    const r = dml("prove", script, "a", "b");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /a and b are not both assigned in one statement block/);
  });
});

describe("dml prove --json", () => {
  test("the structured steps with rule, description, before and after", () => {
    const r = dml("prove", example, "s1", "s2", "--json");
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(json.proven, true);
    assert.equal(json.verdict, "proven");
    assert.equal(json.a, "s1");
    assert.equal(json.b, "s2");
    assert.equal(json.stopReason, "equal");
    for (const key of ["iterations", "nodes", "ms"]) assert.equal(typeof json[key], "number", key);
    assert.deepEqual(json.steps, [
      { rule: "add-of-sums", rules: (json.steps as { rules: string[] }[])[0]!.rules, description: "add-of-sums: sum distributes over +", because: [], reassociation: false, before: "sum(X + Y)", after: "sum(X) + sum(Y)" },
    ]);
    assert.ok((json.steps as { rules: string[] }[])[0]!.rules.includes("add-of-sums"));
  });

  test("not equal carries the reason and no steps", () => {
    const r = dml("prove", example, "Z", "z", "--json");
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(json.proven, false);
    assert.equal(json.verdict, "not equal");
    assert.equal(json.reason, "shapes 20 x 100 and 1 x 1 differ (Z is a 20 x 100 matrix, z is a double scalar)");
    assert.deepEqual(json.steps, []);
  });
});

describe("dml bench optimizer: the prove row", () => {
  test("covers the README's prove examples, each with its verdict, and reports the median against the target", async () => {
    const { runProveBench, README_PROVE_EXAMPLES } = await import("../../cli/bench-prove");
    assert.ok(README_PROVE_EXAMPLES.some((e) => e.verdict === "not equal"));
    const [row] = runProveBench();
    assert.ok(row);
    assert.equal(row.suite, "optimizer");
    assert.equal(row.failed, undefined, String(row.wrong));
    assert.ok(typeof row.median_ms === "number" && row.median_ms >= 0);
    assert.equal(row.ours_ms, row.median_ms);
    assert.equal(row.target, "median proof time <= 50 ms");
    assert.equal(typeof row.target_met, "boolean");
    for (const e of README_PROVE_EXAMPLES) assert.match(String(row.per_example), new RegExp(`${e.a} = ${e.b}: ${e.verdict}, `));
  });
});

describe("dml prove --relational", () => {
  test("every step, relational forms in index notation, chained from one side to the other", () => {
    const o = proveIn(exampleText, "M1", "M2", { relational: true });
    const steps = o.relationalSteps!;
    assert.ok(steps.length >= o.steps.length);
    assert.equal(steps[0]!.before, "A %*% B %*% C");
    assert.equal(steps.at(-1)!.after, "A %*% (B %*% C)");
    for (let k = 1; k < steps.length; k++) assert.equal(steps[k]!.before, steps[k - 1]!.after);
    const texts = steps.map((s) => s.after).join("\n");
    assert.match(texts, /Σ_i\d+\(/, "a sum over an index");
    assert.match(texts, /\bA\[i\d+,i\d+\]/, "a cell of A");
    assert.match(texts, /unbind\[i\d+,i\d+\]\(/);
    assert.doesNotMatch(texts, /\b(rsum|ubm|ubs|r\+|r\*)\b|@\d|dag:|var:/);
    assert.ok(steps.some((s) => s.rule === "sums-commute" && s.description === "sums over two indices commute"));
  });

  test("the text output lists them after the derivation", () => {
    const r = dml("prove", example, "s1", "s2", "--relational");
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines[1], "  sum(X + Y) = sum(X) + sum(Y)  [add-of-sums: sum distributes over +]");
    assert.match(lines[2]!, /^ {2}every step \(\d+; X\[i1,i2\] is a cell of X/);
    assert.equal(lines[3], "    sum(X + Y)");
    assert.match(lines.at(-1)!, /^ {4}= sum\(X\) \+ sum\(Y\) {2}\[[\w-]+: /);
  });
});
