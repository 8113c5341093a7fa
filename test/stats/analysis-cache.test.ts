// AnalysisCache (engine/stats/analysis-cache.ts: block DAGs and block
// sizes kept between edits): analyses of edited versions of every shipped
// script give the same DAGs, ranges, sizes and diagnostics with a warm cache
// as without one, also with local data (sketches), parameters, measured
// sizes and @size annotations, and reuse the blocks an edit did not touch;
// blocks after an edited one stay cached when the edit left the values they
// read unchanged (a property test edits programs whose matrices share
// sparsity patterns, where reusing the wrong objects would change results).
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { AnalysisCache } from "../../engine/analysis/analysis-cache";
import { printDag } from "../../engine/program/dag-print";
import { analyzeText, type AnalysisOptions, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { repoRoot } from "../repo-root";

const examples = path.join(repoRoot, "examples");
const scripts = readdirSync(examples).filter((f) => f.endsWith(".dml"));

/** Everything the analysis reports, as text: each block's DAG with sizes, node ranges, inputs, outputs, live-out; all diagnostics. */
function summary(analysis: ProgramAnalysis): string {
  const blocks = analysis.dags.blocks.map((info) => {
    const sizes = analysis.sizes.blocks.get(info.block);
    const ranges = info.dag.nodes.map((n) => `${n.range.start.line}:${n.range.start.character}-${n.range.end.line}:${n.range.end.character}`).join(" ");
    return [printDag(info.dag, (id) => (sizes ? formatStats(sizes.nodes[id]!) : undefined)), ranges, [...info.dag.inputs].join(), [...info.dag.outputs].join(), (info.dag.liveOut ?? []).join()].join("\n");
  });
  const diagnostics = [...analysis.diagnostics].map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`);
  return [...blocks, ...diagnostics].join("\n\n");
}

type Extra = Omit<AnalysisOptions, "scriptPath" | "cache">;
const analyze = (text: string, file: string, cache?: AnalysisCache, extra: Extra = {}) => analyzeText(text, { scriptPath: path.join(examples, file), ...extra, ...(cache ? { cache } : {}) });

/** Scripts on their shipped data (reads with local sketches), as the README's main job runs them. */
const DATA: Record<string, Extra> = {
  "l2svm.dml": { parameters: new Map([["X", "data/breast_cancer_X.csv"], ["Y", "data/breast_cancer_y.csv"]]) },
};

/** Edits a user makes: lines inserted above blocks (everything below moves), a statement changed, a variable's type changed at the top, spaces typed at line ends. */
function edits(text: string): string[] {
  const lines = text.split("\n");
  const middle = Math.floor(lines.length / 2);
  const statement = lines.findIndex((l, i) => i >= middle && /^\s*\w+\s*=\s*\S/.test(l));
  const firstAssigned = /^\s*(\w+)\s*=/m.exec(text)?.[1];
  return [
    ["# a new comment", "", ...lines].join("\n"),
    [...lines.slice(0, middle), "zz_new = 42", "print(zz_new)", ...lines.slice(middle)].join("\n"),
    statement >= 0 ? [...lines.slice(0, statement), `${lines[statement]} + 0`, ...lines.slice(statement + 1)].join("\n") : text,
    firstAssigned ? `${firstAssigned} = "now a string"\n${text}` : text,
    lines.map((l, i) => (i % 3 === 0 ? `${l}  \t` : l)).join("\n"),
    text,
    text,
  ];
}

for (const file of scripts) {
  test(`${file}: with a warm cache, every edited version analyzes exactly as without one`, () => {
    const text = readFileSync(path.join(examples, file), "utf8");
    const extra = DATA[file] ?? {};
    const cache = new AnalysisCache();
    analyze(text, file, cache, extra);
    let previous = text;
    for (const edited of edits(text)) {
      const [dagHits, dagMisses, sizeHits] = [cache.dags.hits, cache.dags.misses, cache.sizes.hits];
      const cached = analyze(edited, file, cache, extra);
      assert.equal(summary(cached), summary(analyze(edited, file, undefined, extra)));
      if (edited === previous) {
        assert.ok(cache.dags.hits > dagHits && cache.dags.misses === dagMisses, "the same text again reuses every DAG");
        assert.ok(cache.sizes.hits > sizeHits, "the same text again reuses block sizes");
      }
      previous = edited;
    }
  });
}

test("measured sizes and @size annotations: their blocks are sized afresh, the rest reused, results as without a cache", () => {
  const text = 'X = rand(rows=100, cols=20, sparsity=0.3, seed=1)\nwhile (FALSE) {}\nY = X %*% t(X)  # @size 100 x 100, sparsity=0.5\nwhile (FALSE) {}\nZ = t(X) %*% X\nwhile (FALSE) {}\nW = Z + 1\n';
  const cache = new AnalysisCache();
  const measured = new Map([["X", { rows: 100, cols: 20, nnz: 612 }]]);
  for (const extra of [{}, { measured }, { measured }, {}] as Extra[]) {
    const cached = analyze(text, "what-if.dml", cache, extra);
    assert.equal(summary(cached), summary(analyze(text, "what-if.dml", undefined, extra)));
  }
  const sizes = (a: ProgramAnalysis) => a.dags.blocks.map((b) => [...b.dag.outputs].map(([n, id]) => `${n}:${a.sizes.blocks.get(b.block)!.nodes[id]!.nnz}`)).flat();
  assert.deepEqual(sizes(analyze(text, "what-if.dml", cache, { measured })).slice(0, 2), ["X:612", "Y:5000"]);
});

test("an edit in the middle rebuilds only the blocks it touches; moved blocks are reused", () => {
  const text = readFileSync(path.join(examples, "als_cg.dml"), "utf8");
  const cache = new AnalysisCache();
  const first = analyze(text, "als_cg.dml", cache);
  const blocks = first.dags.blocks.length;
  const lines = text.split("\n");
  const at = lines.findIndex((l, i) => i > lines.length / 2 && l.trim() === "");
  const edited = [...lines.slice(0, at), "# moved everything below by one line", ...lines.slice(at)].join("\n");
  const [hits, misses, sizeHits] = [cache.dags.hits, cache.dags.misses, cache.sizes.hits];
  analyze(edited, "als_cg.dml", cache);
  assert.ok(cache.dags.misses - misses <= 1, `rebuilt ${cache.dags.misses - misses} blocks for a comment`);
  assert.ok(cache.dags.hits - hits >= blocks - 1, `reused ${cache.dags.hits - hits} of ${blocks}`);
  assert.ok(cache.sizes.hits - sizeHits >= 1, "sizes of unchanged blocks are reused");
});

/** Blocks apart: a `while (FALSE) {}` between statements ends a statement block. */
const blocksOf = (statements: readonly string[]) => statements.join("\nwhile (FALSE) {}\n") + "\n";

test("an edit that keeps a block's results recomputes that block only; one that changes a shape also the blocks that read it", () => {
  const chain = ["X = rand(rows=200, cols=30, sparsity=0.2, seed=3)", "Y = X %*% t(X)", "s = sum(Y)", "Z = t(X) %*% X", "W = Z * (Z > 1)", "print(s)"];
  const cache = new AnalysisCache();
  analyze(blocksOf(chain), "chain.dml", cache);
  const recomputed = (statements: string[]): number => {
    const misses = cache.sizes.misses;
    const cached = analyze(blocksOf(statements), "chain.dml", cache);
    assert.equal(summary(cached), summary(analyze(blocksOf(statements), "chain.dml")));
    return cache.sizes.misses - misses;
  };
  const dagMisses = cache.dags.misses;
  assert.equal(recomputed(chain.map((s) => `${s}  `)), 0, "spaces at line ends place no token: nothing is recomputed");
  assert.equal(cache.dags.misses, dagMisses, "nor rebuilt");
  assert.equal(recomputed(chain.map((s, i) => (i === 1 ? "Y = (X %*% t(X))" : s))), 1);
  assert.equal(recomputed(chain.map((s, i) => (i === 0 ? "X = rand(rows=200, cols=30, sparsity=0.2, seed=4)" : s))), 1, "another seed: the same sizes");
  // 30 columns become 40: every block that reads X, Y or Z again, not print(s) of a scalar of unknown value.
  assert.equal(recomputed(chain.map((s, i) => (i === 0 ? "X = rand(rows=200, cols=40, sparsity=0.2, seed=4)" : s))), 5);
});

test("property: edits of programs whose matrices share sparsity patterns analyze as without a cache", () => {
  const statement = fc.constantFrom(
    "A = rand(rows=60, cols=60, sparsity=0.1)",
    "A = rand(rows=60, cols=60, sparsity=0.1, seed=2)",
    "B = rand(rows=60, cols=60, sparsity=0.1)",
    "C = A",
    "C = B",
    "D = C * (A != 0)",
    "D = A * (B != 0)",
    "E = (D > 0) * C",
    "F = D %*% t(E)",
    "A = A * (A > 0.5)",
    "print(sum(A * (C != 0)))",
  );
  fc.assert(
    fc.property(fc.array(statement, { minLength: 3, maxLength: 7 }), fc.array(fc.tuple(fc.nat(), statement, fc.boolean()), { minLength: 1, maxLength: 6 }), (start, edits) => {
      const statements: string[] = [...start];
      const cache = new AnalysisCache();
      analyze(blocksOf(statements), "patterns.dml", cache);
      for (const [at, replacement, spaced] of edits) {
        statements[at % statements.length] = spaced ? `${replacement}   ` : replacement;
        const text = blocksOf(statements);
        assert.equal(summary(analyze(text, "patterns.dml", cache)), summary(analyze(text, "patterns.dml")));
      }
    }),
    { numRuns: 150 },
  );
});
