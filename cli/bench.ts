/**
 * `dml bench [SUITE] [--json] [--quick]`: runs one benchmark suite, or all
 * of them. `--quick` runs the suites that have sizes (fusion's kernel
 * cases, e2e) on tiny data: for tests and a first look, not for ratios.
 * `dml bench calibrate --apply-observed` folds the runs' observed
 * corrections into the machine constants.
 */
import { runCalibrateBench } from "./bench-calibrate";
import { applyObservedCalibration } from "./calibrate-observed";
import { runEstimatorsBench } from "./bench-estimators";
import { formatEstimatorsReport } from "./bench-estimators-table";
import { runE2eBench, QUICK_E2E_SIZES } from "./bench-e2e";
import { runFusionBench } from "./bench-fusion";
import { QUICK_KERNEL_SIZES } from "./bench-fusion-kernels";
import { runLspBench } from "./bench-lsp";
import { runOptimizerBench } from "./bench-optimizer";
import { runParseBench } from "./bench-parse";
import { runProveSuite } from "./bench-prove";
import { formatBenchTable, type BenchRow } from "./bench-report";
import { runRedundancyBench } from "./bench-redundancy";
import { runRuntimeBench } from "./bench-runtime";
import { formatTargetReport } from "./bench-target-report";
import { out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const benchUsage = "dml bench [SUITE] [--json] [--quick] [--only NAME] [--apply-observed]";

export interface BenchOptions {
  /** Tiny sizes (suites with sizes only). */
  quick: boolean;
  /** `--only NAME`: the cases whose label contains NAME (suites e2e and fusion). */
  only?: string;
}

/** The suites that take `--only`. */
const SUITES_WITH_ONLY = new Set(["e2e", "fusion"]);

/** Suites in the order `dml bench` runs them. */
export const benchSuites: Record<string, (options: BenchOptions) => BenchRow[] | Promise<BenchRow[]>> = {
  parse: runParseBench,
  calibrate: () => runCalibrateBench(),
  estimators: runEstimatorsBench,
  runtime: runRuntimeBench,
  optimizer: runOptimizerBench,
  prove: () => runProveSuite(),
  fusion: ({ quick, only }) => runFusionBench({ kernels: quick ? { sizes: QUICK_KERNEL_SIZES } : {}, ...(only === undefined ? {} : { only }) }),
  e2e: ({ quick, only }) => runE2eBench({ ...(quick ? { sizes: QUICK_E2E_SIZES } : {}), ...(only === undefined ? {} : { only }) }),
  lsp: runLspBench,
  redundancy: ({ quick }) => runRedundancyBench({ quick }),
};

/** Suites that print their own text report instead of the common table. */
const reports: Record<string, (rows: readonly BenchRow[]) => string> = {
  estimators: formatEstimatorsReport,
  fusion: formatTargetReport,
  e2e: formatTargetReport,
};

export async function bench(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml bench", args, { flags: ["--json", "--quick", "--apply-observed"], values: ["--only"] });
  if (parsed.positionals.length > 1) throw new UsageError("dml bench: at most one SUITE");
  const chosen = parsed.positionals[0];
  if (parsed.flags.has("--apply-observed")) {
    // Folds the runs' observed corrections into the constants instead of measuring (cli/calibrate-observed.ts).
    if (chosen !== "calibrate") throw new UsageError("dml bench: --apply-observed goes with the calibrate suite: dml bench calibrate --apply-observed");
    const rows = applyObservedCalibration();
    out(parsed.flags.has("--json") ? JSON.stringify(rows, null, 2) : formatBenchTable(rows));
    return rows.some((r) => r.failed === true) ? 1 : 0;
  }
  if (chosen !== undefined && !(chosen in benchSuites)) {
    throw new UsageError(`dml bench: unknown suite '${chosen}' (suites: ${Object.keys(benchSuites).join(", ")})`);
  }
  const only = parsed.values.get("--only");
  if (only !== undefined && (chosen === undefined || !SUITES_WITH_ONLY.has(chosen))) {
    throw new UsageError(`dml bench: --only goes with one of the suites ${[...SUITES_WITH_ONLY].join(", ")}: dml bench e2e --only l2svm`);
  }
  const rows: BenchRow[] = [];
  const common: BenchRow[] = [];
  const texts: string[] = [];
  for (const name of chosen !== undefined ? [chosen] : Object.keys(benchSuites)) {
    const suiteRows = await benchSuites[name]!({ quick: parsed.flags.has("--quick"), ...(only === undefined ? {} : { only }) });
    rows.push(...suiteRows);
    const report = reports[name];
    if (report) texts.push(report(suiteRows));
    else common.push(...suiteRows);
  }
  if (common.length > 0 || texts.length === 0) texts.unshift(formatBenchTable(common));
  out(parsed.flags.has("--json") ? JSON.stringify(rows, null, 2) : texts.join("\n\n"));
  // A suite marks a row `failed: true` when one of its checks does not hold.
  return rows.some((r) => r.failed === true) ? 1 : 0;
}
