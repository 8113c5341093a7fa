// Issue 18, classes 1, 7, 8 and 9 (reorganizations, zeros, trace, outer):
// every `# prove: A B` pair of examples/simplifications/reorg-*.dml is proven
// by `dml prove` and equal when the runtime evaluates the script on random
// data; every `# unequal: C D` twin is never proven, and numpy (on the
// script's own random inputs) and the runtime both find it differs.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { proveVariables, type ProveOutcome } from "../../cli/prove";
import { createSession } from "../../engine/runtime/interpreter";
import type { Value } from "../../engine/runtime/interpreter/values";
import { pythonReference } from "../runtime/python-reference";
import { repoRoot } from "../repo-root";

const folder = path.join(repoRoot, "examples", "simplifications");
const bin = path.join(repoRoot, "bin", "dml.js");

interface Example {
  file: string;
  text: string;
  equal: [string, string][];
  unequal: [string, string][];
}

function readExample(file: string): Example {
  const text = readFileSync(path.join(folder, file), "utf8");
  const pairs = (kind: string) => [...text.matchAll(new RegExp(`^# ${kind}: (\\S+) (\\S+)\\s*$`, "gm"))].map((m) => [m[1]!, m[2]!] as [string, string]);
  return { file, text, equal: pairs("prove"), unequal: pairs("unequal") };
}

const examples = readdirSync(folder).filter((f) => f.startsWith("reorg-") && f.endsWith(".dml")).sort().map(readExample);

function prove(example: Example, a: string, b: string): ProveOutcome {
  const outcome = proveVariables(example.text, example.file, a, b);
  assert.notEqual(typeof outcome, "string", String(outcome));
  return outcome as ProveOutcome;
}

/** The script's variables after a run, its `seed=N` arguments moved by `shift` (other random data). */
function run(text: string, shift: number): Map<string, Value> {
  const session = createSession({ scriptPath: "reorg.dml", print: () => {} });
  const result = session.runScript(text.replace(/seed=(\d+)/g, (_, n: string) => `seed=${Number(n) + shift}`));
  assert.deepEqual(result.errors, []);
  return session.env;
}

/** A value as nested arrays of numbers (a scalar as a number). */
function plain(value: Value | undefined): number | number[][] {
  assert.ok(value, "the variable has a value");
  if (value.kind === "scalar") return typeof value.value === "boolean" ? (value.value ? 1 : 0) : Number(value.value);
  assert.equal(value.kind, "matrix");
  const m = value.matrix;
  return Array.from({ length: m.rows }, (_, i) => Array.from({ length: m.cols }, (_, j) => m.get(i, j)));
}

/** The largest difference between two values (Infinity when their shapes differ), relative to their size. */
function difference(a: number | number[][], b: number | number[][]): number {
  const cells = (x: number | number[][]) => (typeof x === "number" ? [[x]] : x);
  const [x, y] = [cells(a), cells(b)];
  if (x.length !== y.length || x.some((row, i) => row.length !== y[i]!.length)) return Infinity;
  let worst = 0;
  x.forEach((row, i) => row.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - y[i]![j]!) / Math.max(1, Math.abs(v), Math.abs(y[i]![j]!))))));
  return worst;
}

test("the four class scripts are there, each with several equal pairs and unequal twins", () => {
  assert.deepEqual(examples.map((e) => e.file), ["reorg-aggregates.dml", "reorg-identities.dml", "reorg-outer.dml", "reorg-zeros.dml"]);
  for (const e of examples) {
    assert.ok(e.equal.length >= 5, `${e.file}: ${e.equal.length} pairs`);
    assert.ok(e.unequal.length >= 3, `${e.file}: ${e.unequal.length} twins`);
  }
});

for (const example of examples) {
  describe(example.file, () => {
    test("every prove: pair is proven, within small counts, by a derivation that ends at the other side", () => {
      for (const [a, b] of example.equal) {
        const o = prove(example, a, b);
        assert.equal(o.verdict, "proven", `${a} = ${b}: ${o.verdict} (${o.stopReason})`);
        assert.ok(o.iterations <= 10 && o.nodes <= 1000, `${a} = ${b}: ${o.iterations} iterations, ${o.nodes} e-nodes`);
        for (let k = 1; k < o.steps.length; k++) assert.equal(o.steps[k]!.before, o.steps[k - 1]!.after);
      }
    });

    test("no unequal: twin is ever proven", () => {
      for (const [a, b] of example.unequal) assert.notEqual(prove(example, a, b).verdict, "proven", `${a} = ${b} must not be proven`);
    });

    test("the runtime finds every prove: pair equal on three sets of random data, and every twin unequal", () => {
      for (const shift of [0, 1000, 2000]) {
        const env = run(example.text, shift);
        for (const [a, b] of example.equal) assert.ok(difference(plain(env.get(a)), plain(env.get(b))) < 1e-9, `${a} = ${b} (seed shift ${shift})`);
        for (const [a, b] of example.unequal) assert.ok(difference(plain(env.get(a)), plain(env.get(b))) > 1e-6, `${a} != ${b} (seed shift ${shift})`);
      }
    });
  });
}

/** numpy's version of each twin, over the script's inputs (X, Y, Z, v, r by name). */
const NUMPY_TWINS: Record<string, Record<string, [string, string]>> = {
  "reorg-aggregates.dml": {
    u1: ["np.sum(np.roll(X, 1, axis=0) * Y)", "np.sum(X * Y)"],
    w1: ["np.max(X[::-1] - X)", "np.max(X - X)"],
    z1: ["np.prod(X[::-1] + Y)", "np.prod(X + Y)"],
    k1: ["np.var(X[::-1] - X, ddof=1)", "np.var(X - X, ddof=1)"],
  },
  "reorg-identities.dml": {
    x1: ["X[::-1]", "X"],
    y1: ["np.roll(X, 1, axis=0)", "X"],
    c1: ["r.T[::-1]", "r.T"],
  },
  "reorg-zeros.dml": {
    x1: ["np.trace(X)", "np.sum(X)"],
    y1: ["np.max(Z[::-1] - 1)", "0.0"],
    w1: ["np.diag(np.diag(X))", "X"],
    x3: ["np.trace(X * Y)", "np.trace(X) * np.trace(Y)"],
    x5: ["np.trace(X + 2)", "np.trace(X) + 2"],
  },
  "reorg-outer.dml": {
    x1: ["np.subtract.outer(v[:, 0], r[0, :])", "np.subtract.outer(r[0, :], v[:, 0]).T"],
    y1: ["np.sum(np.multiply.outer(v[:, 0], r[0, :]))", "np.sum(v) + np.sum(r)"],
    w1: ["np.divide.outer(v[:, 0], r[0, :])", "(v @ np.ones((1, r.shape[1]))) * r"],
  },
};

test("numpy finds every unequal: twin different on the scripts' random inputs", (t) => {
  const cases: { name: string; inputs: Record<string, number | number[][]>; left: string; right: string }[] = [];
  for (const example of examples) {
    const env = run(example.text, 0);
    const inputs: Record<string, number | number[][]> = {};
    for (const name of ["X", "Y", "Z", "v", "r"]) if (env.has(name)) inputs[name] = plain(env.get(name));
    for (const [a] of example.unequal) {
      const twin = NUMPY_TWINS[example.file]?.[a];
      assert.ok(twin, `${example.file}: numpy form of the twin ${a}`);
      cases.push({ name: `${example.file} ${a}`, inputs, left: twin[0], right: twin[1] });
    }
  }
  const script = [
    "out = []",
    "for case in data:",
    "    env = {'np': np, **{k: np.array(v, dtype=float) for k, v in case['inputs'].items()}}",
    "    a = np.array(eval(case['left'], env), dtype=float)",
    "    b = np.array(eval(case['right'], env), dtype=float)",
    "    out.append(float('inf') if a.shape != b.shape else float(np.max(np.abs(a - b))))",
    "print(json.dumps(out))",
  ].join("\n");
  const result = pythonReference<number[]>(script, cases);
  if (!result.ok) {
    t.skip(result.reason);
    return;
  }
  result.value.forEach((d, k) => assert.ok(d > 1e-6, `${cases[k]!.name}: numpy difference ${d}`));
});

test("dml prove on the command line: exit 0 with the rule's description for a pair, exit 1 for a twin", () => {
  const cli = (file: string, a: string, b: string) => spawnSync(process.execPath, [bin, "prove", path.join(folder, file), a, b], { cwd: repoRoot, encoding: "utf8" });
  const proven = cli("reorg-identities.dml", "e1", "e2");
  assert.equal(proven.status, 0, proven.stderr);
  assert.match(proven.stdout, /^proven: e1 = e2 /);
  assert.match(proven.stdout, /rev\(rev\(X\)\) = X {2}\[rev-rev: rev\(rev\(X\)\) = X\]/);
  const traced = cli("reorg-zeros.dml", "t3", "t4");
  assert.equal(traced.status, 0, traced.stderr);
  assert.match(traced.stdout, /trace\(X\) = sum\(diag\(X\)\) {2}\[trace-as-sum-of-diag: trace\(X\) = sum\(diag\(X\)\)[;\]]/);
  const twin = cli("reorg-zeros.dml", "x1", "x2");
  assert.equal(twin.status, 1);
  assert.match(twin.stdout, /not proven/);
});

test("derivations name the class's rule: the issue's examples", () => {
  const byFile = new Map(examples.map((e) => [e.file, e]));
  const derivation = (file: string, a: string, b: string) => prove(byFile.get(file)!, a, b).steps.map((s) => `${s.before} = ${s.after}  [${s.rule}]`);
  assert.deepEqual(derivation("reorg-aggregates.dml", "m1", "m2"), ["max(rev(X)) = max(X)  [aggregate-of-rev]"]);
  assert.deepEqual(derivation("reorg-aggregates.dml", "a1", "a2"), ["mean(matrix(X, rows=2, cols=6)) = mean(X)  [aggregate-of-reshape]"]);
  assert.deepEqual(derivation("reorg-identities.dml", "f1", "f2"), ["matrix(X, rows=nrow(X), cols=ncol(X)) = X  [reshape-to-own-shape]"]);
  assert.deepEqual(derivation("reorg-identities.dml", "h1", "h2"), ["rev(r) = r  [rev-of-single-row]"]);
  assert.deepEqual(derivation("reorg-outer.dml", "p1", "p2"), ["outer(v, r, \"+\") = v %*% matrix(1, rows=1, cols=3) + r  [outer-as-broadcast]"]);
  assert.deepEqual(derivation("reorg-outer.dml", "o1", "o2"), ["outer(v, r, \"*\") = v %*% r  [outer-product]"]);
});
