/**
 * `dml prove FILE A B [--json] [--relational] [--budget-ms N] [name=value ...]`: whether the
 * optimizer proves the values of variables A and B (assigned in the same
 * statement block) equal, i.e. in the same e-class. Saturation stops as soon
 * as they are; when their sizes or types already differ the answer is "not
 * equal" without a search. A proof prints as a derivation in DML, one step a
 * line with the rules that justify it (`--relational`: also every step,
 * through the relational forms). Exit 0 proven, 1 not equal or not proven,
 * 2 bad usage.
 */
import { derivationLines } from "../engine/rewrite";
import { proveVariables, stopText, type ProveOutcome } from "../engine/suggest";
import { err, out } from "./output";
import { readScript } from "./script-problems";
import { parameterArguments, parseArgs, UsageError } from "./usage";
import { commandInstallation, SYSTEMDS_OPTION, SYSTEMDS_USAGE } from "./systemds-option";

export { proveVariables, type ProveOptions, type ProveOutcome } from "../engine/suggest";

export const proveUsage = `dml prove FILE A B [--json] [--relational] [--budget-ms N] ${SYSTEMDS_USAGE} [name=value ...]`;

/** The text report of an outcome (what `dml prove` prints without --json). */
function formatOutcome(o: ProveOutcome): string[] {
  const ms = `${o.ms.toFixed(0)} ms`;
  if (o.verdict === "not equal") return [`not equal: ${o.reason}; decided without a search`];
  const work = `${o.iterations} iteration${o.iterations === 1 ? "" : "s"}, ${o.nodes} e-nodes, ${ms}`;
  if (o.verdict === "proven") {
    const how = o.iterations === 0 ? "the same value as written" : `stopped as soon as both were in one e-class: ${work}`;
    const header = `proven: ${o.a} = ${o.b}  (${o.steps.length} step${o.steps.length === 1 ? "" : "s"}; ${how})`;
    const lines = [header, ...derivationLines(o.steps).map((line) => `  ${line}`)];
    if (o.relationalSteps && o.relationalSteps.length > 0) {
      lines.push(`  every step (${o.relationalSteps.length}; X[i1,i2] is a cell of X, Σ_i1 sums over i1, unbind[i1,i2] makes a matrix of cells):`);
      lines.push(`    ${o.relationalSteps[0]!.before}`);
      for (const step of o.relationalSteps) lines.push(`    = ${step.after}  [${step.rule}: ${step.description}]`);
    }
    return lines;
  }
  const saturated = o.stopReason === "saturated";
  return [
    `not proven: ${o.a} = ${o.b} — no proof found: the search ${stopText(o.stopReason, o.budgetMs)} (${work})`,
    saturated
      ? "  Not proven is not \"not equal\": the rules do not cover this identity (a larger budget would not help)."
      : "  Not proven is not \"not equal\": the rules may not cover this identity, or a larger budget may find a proof.",
  ];
}

export async function prove(args: readonly string[]): Promise<number> {
  const parsed = parseArgs("dml prove", args, { flags: ["--json", "--relational"], values: ["--budget-ms", SYSTEMDS_OPTION] });
  const [file, a, b, ...rest] = parsed.positionals;
  if (file === undefined || a === undefined || b === undefined) throw new UsageError("dml prove: needs FILE A B");
  const budget = parsed.values.get("--budget-ms");
  if (budget !== undefined && !(Number(budget) > 0)) throw new UsageError(`dml prove: --budget-ms needs a positive number, not '${budget}'`);
  const parameters = parameterArguments("dml prove", rest);
  const installation = commandInstallation("dml prove", parsed);
  const text = await readScript("dml prove", file);
  if (text === undefined) return 2;
  const outcome = proveVariables(text, file, a, b, { parameters, relational: parsed.flags.has("--relational"), ...(installation ? { installation } : {}), ...(budget === undefined ? {} : { budgetMs: Number(budget) }) });
  if (typeof outcome === "string") {
    err(`dml prove: ${outcome}`);
    return 2;
  }
  if (parsed.flags.has("--json")) {
    const { verdict, a: left, b: right, reason, steps, relationalSteps, stopReason, iterations, nodes, ms, budgetMs } = outcome;
    const json = { proven: verdict === "proven", verdict, a: left, b: right, reason, steps, relationalSteps, stopReason, iterations, nodes, ms, budgetMs };
    out(JSON.stringify(json, null, 2));
  } else {
    for (const line of formatOutcome(outcome)) out(line);
  }
  return outcome.verdict === "proven" ? 0 : 1;
}
