/**
 * The text report of the suites whose rows carry the targets
 * (`dml bench fusion`, `dml bench e2e`): the common table (without the long
 * `numpy_env` note), the numpy/scipy/BLAS that ran, then every row as one
 * JSON line (each ratio next to its target and `target_met`).
 */
import { formatBenchTable, type BenchRow } from "./bench-report";

export function formatTargetReport(rows: readonly BenchRow[]): string {
  const envs = [...new Set(rows.map((r) => r["numpy_env"]).filter((e): e is string => typeof e === "string"))];
  const table = formatBenchTable(rows.map(({ numpy_env: _env, ...rest }) => rest as BenchRow));
  const baseline = envs.length > 0 ? envs.map((e) => `baseline: ${e}`).join("\n") : "baseline: no numpy rows";
  return [table, baseline, "JSON lines:", ...rows.map((r) => JSON.stringify(r))].join("\n");
}
