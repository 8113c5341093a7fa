/**
 * `dml bench optimizer`, the prove row: the median proof time over the
 * README's `dml prove` examples (examples/prove.dml). A proof's time is the
 * e-graph, the search and the derivation; the script's analysis (parse,
 * types, sizes) is reported apart. Each example runs a few times and counts
 * with its median; the row's number is the median over the examples. The
 * first run of each (as in a fresh `dml prove`, before the JIT has warmed
 * up on that example) is reported too. `dml bench prove` adds the pairs of
 * the simplification examples (examples/simplifications/*.dml).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { median, type BenchRow } from "./bench-report";
import { packageRoot } from "./package-root";
import { proveVariables, type ProveOutcome } from "./prove";
import { simplificationExamples, SIMPLIFICATIONS_FOLDER } from "./simplification-pairs";

const PROVE_MEDIAN_TARGET_MS = 50;
const RUNS = 5;

/** The README's prove examples: the pairs of examples/prove.dml and the verdict each must keep. */
export const README_PROVE_EXAMPLES: readonly { a: string; b: string; verdict: ProveOutcome["verdict"] }[] = [
  { a: "s1", b: "s2", verdict: "proven" },
  { a: "T1", b: "T2", verdict: "proven" },
  { a: "M1", b: "M2", verdict: "proven" },
  { a: "p1", b: "p2", verdict: "proven" },
  { a: "Z", b: "z", verdict: "not equal" },
];

const PROVE_EXAMPLE_FILE = path.join("examples", "prove.dml");

export function runProveBench(): BenchRow[] {
  const file = path.join(packageRoot(), PROVE_EXAMPLE_FILE);
  const text = readFileSync(file, "utf8");
  const cases = README_PROVE_EXAMPLES.map(({ a, b, verdict }) => {
    const proofs: number[] = [];
    const totals: number[] = [];
    let last: ProveOutcome | undefined;
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      const outcome = proveVariables(text, file, a, b);
      totals.push(performance.now() - start);
      if (typeof outcome === "string") throw new Error(`bench prove: ${outcome}`);
      proofs.push(outcome.ms);
      last = outcome;
    }
    return { name: `${a} = ${b}`, proofMs: median(proofs), firstMs: proofs[0]!, totalMs: median(totals), outcome: last!, expected: verdict };
  });
  const proofMedian = median(cases.map((c) => c.proofMs));
  const wrong = cases.filter((c) => c.outcome.verdict !== c.expected);
  return [
    {
      suite: "optimizer",
      case: `dml prove, ${cases.length} README examples of ${PROVE_EXAMPLE_FILE} (median of ${RUNS} runs each)`,
      ours_ms: proofMedian,
      baseline: "none",
      baseline_ms: null,
      ratio: null,
      median_ms: proofMedian,
      max_ms: Math.max(...cases.map((c) => c.proofMs)),
      first_run_median_ms: median(cases.map((c) => c.firstMs)),
      with_analysis_median_ms: median(cases.map((c) => c.totalMs)),
      per_example: cases.map((c) => `${c.name}: ${c.outcome.verdict}, ${c.proofMs.toFixed(1)} ms (first run ${c.firstMs.toFixed(1)} ms), ${c.outcome.iterations} iterations, ${c.outcome.nodes} e-nodes`).join("; "),
      target: `median proof time <= ${PROVE_MEDIAN_TARGET_MS} ms`,
      target_met: proofMedian <= PROVE_MEDIAN_TARGET_MS,
      ...(wrong.length > 0 ? { failed: true, wrong: wrong.map((c) => `${c.name}: ${c.outcome.verdict}, expected ${c.expected}`).join("; ") } : {}),
    },
  ];
}

/** Timed runs of each `# prove:` pair of the simplification examples (the median counts). */
const SIMPLIFICATION_RUNS = 3;

/**
 * `dml bench prove`, the simplifications row: every `# prove:` pair of
 * examples/simplifications/*.dml timed (median of a few runs each; the row's
 * number is the median over the pairs), and every `# unequal:` pair searched
 * once: the row fails when an unequal pair is proven, or a prove pair is not.
 */
export function runSimplificationProveBench(root = packageRoot()): BenchRow[] {
  const examples = simplificationExamples(root);
  const timed: { name: string; ms: number; verdict: ProveOutcome["verdict"] }[] = [];
  const wrong: string[] = [];
  let unequal = 0;
  for (const example of examples) {
    for (const pair of example.pairs) {
      const name = `${example.file}:${pair.line} ${pair.a} = ${pair.b}`;
      const prove = () => {
        const outcome = proveVariables(example.text, example.path, pair.a, pair.b);
        if (typeof outcome === "string") throw new Error(`bench prove: ${example.file}:${pair.line}: ${outcome}`);
        return outcome;
      };
      if (pair.kind === "unequal") {
        unequal++;
        const outcome = prove();
        if (outcome.verdict === "proven") wrong.push(`UNEQUAL PAIR PROVEN: ${name}`);
        continue;
      }
      const runs = Array.from({ length: SIMPLIFICATION_RUNS }, prove);
      const verdict = runs[0]!.verdict;
      if (verdict !== "proven") wrong.push(`not proven: ${name} (${verdict})`);
      timed.push({ name, ms: median(runs.map((r) => r.ms)), verdict });
    }
  }
  const proofMedian = median(timed.map((t) => t.ms));
  const slowest = [...timed].sort((x, y) => y.ms - x.ms).slice(0, 5);
  return [
    {
      suite: "prove",
      case: `dml prove, ${timed.length} '# prove:' pairs and ${unequal} '# unequal:' pairs of ${examples.length} ${SIMPLIFICATIONS_FOLDER}/*.dml (median of ${SIMPLIFICATION_RUNS} runs each)`,
      ours_ms: proofMedian,
      baseline: "none",
      baseline_ms: null,
      ratio: null,
      median_ms: proofMedian,
      max_ms: timed.length > 0 ? Math.max(...timed.map((t) => t.ms)) : null,
      proven: timed.filter((t) => t.verdict === "proven").length,
      unequal_proven: wrong.filter((w) => w.startsWith("UNEQUAL")).length,
      slowest: slowest.map((t) => `${t.name}: ${t.ms.toFixed(1)} ms`).join("; "),
      target: `median proof time <= ${PROVE_MEDIAN_TARGET_MS} ms; no unequal pair proven`,
      target_met: proofMedian <= PROVE_MEDIAN_TARGET_MS && wrong.length === 0,
      ...(wrong.length > 0 ? { failed: true, wrong: wrong.join("; ") } : {}),
    },
  ];
}

/** `dml bench prove`: the README's examples and the simplification examples. */
export function runProveSuite(): BenchRow[] {
  return [...runProveBench(), ...runSimplificationProveBench()];
}
