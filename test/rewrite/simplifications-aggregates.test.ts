// Issue 18, the aggregates' classes (2, 3, 4, 5, 6, 10 and the non-sum
// aggregates' own identities): every `# prove:` pair of
// examples/simplifications/aggregates-*.dml is proven by `dml prove` and
// equal when our runtime evaluates the script; every `# unequal:` twin is
// never proven, differs in our runtime and differs in numpy on random data.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { proveVariables, type ProveOutcome } from "../../cli/prove";
import { simplificationExamples, simplificationPairs, type SimplificationExample } from "../../cli/simplification-pairs";
import { bindRoot, expressionEGraph, parseExpression, saturate } from "../../engine/rewrite";
import { AGGREGATE_RULES, constantAggregate } from "../../engine/rewrite/rules-aggregates";
import { CELLWISE_RULES } from "../../engine/rewrite/rules-cellwise";
import { repoRoot } from "../repo-root";
import { pythonReference } from "../runtime/python-reference";
import { printed } from "../runtime/run-script";

const examples = simplificationExamples(repoRoot, "aggregates-");
const byName = (name: string) => {
  const example = examples.find((e) => e.file.endsWith(`/aggregates-${name}.dml`));
  assert.ok(example, `examples/simplifications/aggregates-${name}.dml`);
  return example;
};

/** The class of issue 18 each script covers, and the rule family its proofs must use (none: the relational core). */
const CLASSES: { name: string; issueClass: string; rules: readonly string[] }[] = [
  { name: "cellwise", issueClass: "2", rules: CELLWISE_RULES.map((r) => r.name) },
  { name: "size-one", issueClass: "3", rules: ["aggregate-of-single-column", "aggregate-of-single-row"] },
  { name: "vectors", issueClass: "4", rules: ["row-aggregate-of-row-vector", "col-aggregate-of-column-vector", "aggregate-of-1x1"] },
  { name: "transpose", issueClass: "5", rules: ["row-aggregate-of-transpose", "col-aggregate-of-transpose"] },
  { name: "nested", issueClass: "6", rules: ["nested-min", "nested-max"] },
  { name: "broadcast-sum", issueClass: "10", rules: [] },
  { name: "black-box", issueClass: "non-sum aggregates", rules: AGGREGATE_RULES.map((r) => r.name) },
];

function prove(example: SimplificationExample, a: string, b: string): ProveOutcome {
  const outcome = proveVariables(example.text, example.path, a, b);
  assert.notEqual(typeof outcome, "string", `${example.file}: ${String(outcome)}`);
  return outcome as ProveOutcome;
}

const pairs = (example: SimplificationExample, kind: "prove" | "unequal") => example.pairs.filter((p) => p.kind === kind);

/** Conditional rules whose condition only checks types or that sizes are known (no fact to explain). */
const TYPE_CHECKS_ONLY = new Set(["cellwise-transpose", "cellwise-as-scalar"]);

describe("the rules", () => {
  test("every conditional rule that relies on a fact names it, as DML over its pattern variables", () => {
    for (const spec of [...CELLWISE_RULES, ...AGGREGATE_RULES]) {
      if (!spec.when || TYPE_CHECKS_ONLY.has(spec.name)) continue;
      assert.ok(spec.because, `${spec.name}: no 'because'`);
      const variables = spec.because.match(/\?\w+/g) ?? [];
      for (const v of variables) assert.ok(spec.lhs.includes(v), `${spec.name}: ${v} is not a variable of ${spec.lhs}`);
      // Facts are written as the contract's example, "ncol(?X) = 1": = reads as ==.
      const text = spec.because.replace(/\?(\w+)/g, "$1").replace(/ = /g, " == ");
      assert.doesNotThrow(() => parseExpression(text), `${spec.name}: '${spec.because}' is not DML`);
    }
  });

  test("transpose pushdown through a cell-wise operator saturates (no t(t(..)) growing every iteration)", () => {
    const shapes = { X: { rows: 6, cols: 4 }, r: { rows: 1, cols: 4 }, w: { rows: 1, cols: 4 } };
    const { egraph, attributes, root } = expressionEGraph("t((X - r) / w) %*% ((X - r) / w)", shapes);
    bindRoot(egraph, attributes, root);
    egraph.rebuild();
    const report = saturate(egraph, attributes);
    assert.equal(report.stopReason, "saturated", `${report.stopReason} after ${report.iterations.length} iterations, ${report.nodes} e-nodes`);
    assert.ok(report.nodes < 100, `${report.nodes} e-nodes`);
  });

  test("aggregates of a constant matrix only where rounding cannot change them", () => {
    assert.equal(constantAggregate("min", 0.1, 12), 0.1);
    assert.equal(constantAggregate("max", -3.5, 2), -3.5);
    assert.equal(constantAggregate("mean", 7, 12), 7);
    assert.equal(constantAggregate("mean", 0.1, 3), undefined, "0.1 + 0.1 + 0.1 is not 0.3");
    assert.equal(constantAggregate("var", 0, 12), 0);
    assert.equal(constantAggregate("var", 0.1, 3), undefined);
    assert.equal(constantAggregate("prod", 1, 5), 1);
    assert.equal(constantAggregate("prod", 2, 5), undefined);
    assert.equal(constantAggregate("min", 4, 0), undefined, "min of no values is Inf, not the constant");
    assert.equal(constantAggregate("max", Number.NaN, 3), undefined);
  });
});

describe("derivations read as DML, each step with its rule's description", () => {
  const line = (name: string, a: string, b: string) => prove(byName(name), a, b).steps.map((s) => `${s.before} = ${s.after}  [${s.description}]`);
  test("one step per identity, a nested one in two", () => {
    assert.deepEqual(line("size-one", "f1", "f2"), ["rowVars(v) = matrix(0, rows=5, cols=1)  [aggregate-of-single-column: a row aggregate of one value per row is that value (var, sd: 0)]"]);
    assert.deepEqual(line("black-box", "e1", "e2"), ["max(X * -2) = min(X) * -2  [extremum-of-negative-scaling: scaling by a constant < 0 swaps min and max]"]);
    assert.deepEqual(line("nested", "e1", "e2"), [
      "rowMins(colMins(X)) = as.matrix(min(colMins(X)))  [row-aggregate-of-row-vector: a row aggregate of a row vector is the full aggregate as 1 x 1]",
      "as.matrix(min(colMins(X))) = as.matrix(min(X))  [nested-min: min of rowMins or colMins is min]",
    ]);
  });
});

describe("the pair headers", () => {
  test("every class has its script, with several proven members and unequal twins", () => {
    assert.equal(examples.length, CLASSES.length, examples.map((e) => e.file).join(", "));
    for (const { name } of CLASSES) {
      const example = byName(name);
      assert.ok(pairs(example, "prove").length >= 4, `${example.file}: ${pairs(example, "prove").length} prove pairs`);
      assert.ok(pairs(example, "unequal").length >= 2, `${example.file}: ${pairs(example, "unequal").length} unequal pairs`);
    }
  });

  test("a malformed header line is an error with its line", () => {
    assert.deepEqual(simplificationPairs("# prove: a1 a2\nx = 1\n# unequal: b c\n", "f.dml"), [
      { kind: "prove", a: "a1", b: "a2", line: 1 },
      { kind: "unequal", a: "b", b: "c", line: 3 },
    ]);
    assert.throws(() => simplificationPairs("# prove: a1\n", "f.dml"), /f\.dml:1: expected '# prove: A B'/);
  });
});

for (const { name, issueClass, rules } of CLASSES) {
  describe(`class ${issueClass} (aggregates-${name}.dml)`, () => {
    const example = byName(name);

    test("every '# prove:' pair is proven, by a derivation from one side to the other", () => {
      const used = new Set<string>();
      for (const { a, b } of pairs(example, "prove")) {
        const outcome = prove(example, a, b);
        assert.equal(outcome.verdict, "proven", `${a} = ${b}: ${outcome.verdict} (${outcome.stopReason})`);
        for (const step of outcome.steps) for (const rule of step.rules) used.add(rule);
      }
      if (rules.length > 0) assert.ok(rules.some((r) => used.has(r)), `no proof used a rule of the class (${rules.join(", ")}); used: ${[...used].join(", ")}`);
    });

    test("no '# unequal:' twin is proven", () => {
      for (const { a, b } of pairs(example, "unequal")) {
        const outcome = prove(example, a, b);
        assert.notEqual(outcome.verdict, "proven", `${a} = ${b} must never be proven`);
      }
    });

    test("our runtime agrees: proven pairs equal, twins differ (the script's random data)", () => {
      const checks = example.pairs.map(({ a, b }) => `print("${a} ${b} " + max(abs(${a} - ${b})) + " " + max(abs(${a})))`);
      const lines = printed(`${example.text}\n${checks.join("\n")}\n`).split("\n").slice(-checks.length);
      example.pairs.forEach((pair, k) => {
        const [a, b, difference, magnitude] = lines[k]!.split(" ");
        assert.equal(`${a} ${b}`, `${pair.a} ${pair.b}`);
        const diff = Number(difference);
        const scale = 1 + Math.abs(Number(magnitude));
        if (pair.kind === "prove") assert.ok(diff <= 1e-9 * scale, `${pair.a} = ${pair.b}: differ by ${difference}`);
        else assert.ok(diff > 1e-6 * scale, `${pair.a} vs ${pair.b}: an unequal twin that the runtime finds equal (difference ${difference})`);
      });
    });
  });
}

/**
 * The twins in numpy: per script, its inputs (random, of the script's
 * shapes) and each unequal pair's two sides.
 */
const NUMPY_TWINS: Record<string, { inputs: string; pairs: Record<string, [string, string]> }> = {
  cellwise: {
    inputs: "X = U(-1, 1, (6, 4)); Z = U(-1, 1, (6, 4)); v = U(0.5, 1, (6, 1)); r = U(-1, 1, (1, 4)); y = U(0.5, 1, (1, 1)); w = U(0.5, 1, (1, 1))",
    pairs: {
      "a1 ua": ["X / (v @ np.ones((1, 4)))", "X / (np.ones((6, 1)) @ r)"],
      "d1 ud": ["y / (X + 2)", "(X + 2) / y"],
      "e1 ue": ["(0.5 < X).T", "X.T < 0.5"],
      "i1 ui": ["(y / w)[0, 0]", "w[0, 0] / y[0, 0]"],
      "k1 uk": ["np.minimum(y, w)[0, 0]", "max(y[0, 0], w[0, 0])"],
      "m1 um": ["(3 / y)[0, 0]", "y[0, 0] / 3"],
    },
  },
  "size-one": {
    inputs: "X = U(-1, 1, (5, 2))",
    pairs: {
      "u1 u2": ["X.min(axis=1, keepdims=True)", "X.max(axis=1, keepdims=True)"],
      "w1 w2": ["X.var(axis=1, ddof=1, keepdims=True)", "np.zeros((5, 1))"],
    },
  },
  vectors: {
    inputs: "r = U(-1, 1, (1, 6))",
    pairs: {
      "a1 ua": ["r.min(axis=1, keepdims=True)", "np.array([[r.max()]])"],
      "d1 ud": ["r.var(axis=1, ddof=1, keepdims=True)", "np.array([[r.var(ddof=1) * 5 / 6]])"],
    },
  },
  transpose: {
    inputs: "X = U(-1, 1, (5, 3))",
    pairs: {
      "a1 ua": ["X.T.min(axis=1, keepdims=True)", "X.max(axis=0, keepdims=True).T"],
      "c1 uc": ["X.T.mean(axis=1, keepdims=True)", "X.sum(axis=0, keepdims=True).T"],
    },
  },
  nested: {
    inputs: "X = U(-1, 1, (5, 4))",
    pairs: {
      "u1 a2": ["X.max(axis=1).min()", "X.min()"],
      "w1 c2": ["X.min(axis=0).max()", "X.max()"],
    },
  },
  "broadcast-sum": {
    inputs: "A = U(-1, 1, (20, 10)); r = U(-1, 1, (1, 10)); v = U(-1, 1, (20, 1))",
    pairs: {
      "a1 ua": ["(A + r).sum()", "A.sum() + r.sum()"],
      "c1 uc": ["(A + v).sum()", "A.sum() + A.shape[0] * v.sum()"],
    },
  },
  "black-box": {
    inputs: "X = U(-1, 1, (5, 4))",
    pairs: {
      "e1 ue": ["(X * -2).max()", "X.max() * -2"],
      "f1 uf": ["(-X).min()", "-X.min()"],
      "c1 uc": ["X.std(ddof=1)", "X.var(ddof=1)"],
    },
  },
};

const NUMPY_SCRIPT = `
out = []
for case in data:
    rng = np.random.default_rng(case["seed"])
    U = lambda lo, hi, shape: rng.uniform(lo, hi, shape)
    env = {"np": np, "U": U}
    exec(case["inputs"], env)
    a = np.asarray(eval(case["a"], env), dtype=float)
    b = np.asarray(eval(case["b"], env), dtype=float)
    out.append(float(np.max(np.abs(a - b))) if a.shape == b.shape else None)
print(json.dumps(out))
`;

describe("unequal twins differ in numpy", () => {
  test("every '# unequal:' pair has its numpy form, and the two sides differ on random data", (t) => {
    const cases: { label: string; seed: number; inputs: string; a: string; b: string }[] = [];
    for (const { name } of CLASSES) {
      const twins = NUMPY_TWINS[name];
      assert.ok(twins, `no numpy twins for aggregates-${name}.dml`);
      const declared = pairs(byName(name), "unequal").map((p) => `${p.a} ${p.b}`);
      assert.deepEqual(Object.keys(twins.pairs).sort(), [...declared].sort(), `aggregates-${name}.dml: numpy forms for exactly its unequal pairs`);
      for (const [label, [a, b]] of Object.entries(twins.pairs)) {
        for (const seed of [1, 2, 3]) cases.push({ label: `${name}: ${label} (seed ${seed})`, seed, inputs: twins.inputs, a, b });
      }
    }
    const result = pythonReference<(number | null)[]>(NUMPY_SCRIPT, cases);
    if (!result.ok) {
      t.skip(result.reason);
      return;
    }
    result.value.forEach((difference, k) => {
      assert.notEqual(difference, null, `${cases[k]!.label}: the numpy forms have different shapes`);
      assert.ok(difference! > 1e-6, `${cases[k]!.label}: numpy finds the twins equal (difference ${difference})`);
    });
  });
});
