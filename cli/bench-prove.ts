/**
 * `dml bench optimizer`, the prove row: the median proof time over the
 * README's `dml prove` examples (examples/prove.dml). A proof's time is the
 * e-graph, the search and the derivation; the script's analysis (parse,
 * types, sizes) is reported apart. Each example runs a few times and counts
 * with its median; the row's number is the median over the examples. The
 * first run of each (as in a fresh `dml prove`, before the JIT has warmed
 * up on that example) is reported too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { median, type BenchRow } from "./bench-report";
import { packageRoot } from "./package-root";
import { proveVariables, type ProveOutcome } from "./prove";

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
