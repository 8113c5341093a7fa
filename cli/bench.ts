/** `dml bench [SUITE] [--json]`: runs one benchmark suite, or all of them. */
import { runCalibrateBench } from "./bench-calibrate";
import { runParseBench } from "./bench-parse";
import { formatBenchTable, type BenchRow } from "./bench-report";
import { out } from "./output";
import { parseArgs, UsageError } from "./usage";

export const benchUsage = "dml bench [SUITE] [--json]";

/** Suites in the order `dml bench` runs them. */
const suites: Record<string, () => BenchRow[] | Promise<BenchRow[]>> = {
  parse: runParseBench,
  calibrate: runCalibrateBench,
};

export async function bench(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml bench", args, { flags: ["--json"] });
  if (parsed.positionals.length > 1) throw new UsageError("dml bench: at most one SUITE");
  const chosen = parsed.positionals[0];
  if (chosen !== undefined && !(chosen in suites)) {
    throw new UsageError(`dml bench: unknown suite '${chosen}' (suites: ${Object.keys(suites).join(", ")})`);
  }
  const rows: BenchRow[] = [];
  for (const name of chosen !== undefined ? [chosen] : Object.keys(suites)) {
    rows.push(...(await suites[name]!()));
  }
  out(parsed.flags.has("--json") ? JSON.stringify(rows, null, 2) : formatBenchTable(rows));
  return 0;
}
