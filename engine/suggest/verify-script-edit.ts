/**
 * The runtime as the oracle of a whole-script edit (a redundancy option's
 * insertion and replacements): the original and the edited script run on
 * the same small random data of the shapes the script's reads declare
 * (script-read-inputs.ts: each `read(...)` becomes a variable holding a
 * random matrix, dense and sparse, shrunk as for single-statement checks),
 * and must print the same lines (numbers within `relative`: the script's
 * outputs) and end with variables of the same kinds and dims. The variables'
 * values are compared too (within `relative` of each matrix's largest
 * magnitude) only when the script prints no number: an iterative method's
 * last intermediates are rounding noise once it converges (linreg_gd's last
 * step size is a ratio of two near-zero numbers and differs by percents
 * between two equal summation orders), while what it prints (the loss) is
 * stable. Bounded by counts: a few trials, and a run
 * that polls more than `maxSteps` loop iterations and function calls is
 * stopped and the edit is not verified. Scripts that write files are not run.
 */
import { type CallExpression, type Statement, applyEdits, type TextEdit } from "../syntax";
import { walkExpression, forEachStatement, type SimpleStatement, statementExpressions } from "../program";
import type { ProgramAnalysis } from "../analysis";
import { createSession, type Value } from "../runtime/interpreter";
import { randomInputs, type InputCase } from "./random-inputs";
import { scriptReadInputs } from "./script-read-inputs";
import { valueDifference, type VerifyResult } from "./verify-rewrite";

export interface ScriptVerifyOptions {
  /** Input cases tried, one run each (default dense and sparse). */
  cases?: readonly InputCase[];
  seed?: number;
  /** Largest input, in cells, after shrinking (default 40,000). */
  maxCells?: number;
  /** Allowed difference relative to the values' magnitude (default 1e-9). */
  relative?: number;
  /** Loop iterations and function calls one run may make (default 20,000). */
  maxSteps?: number;
  /** Bytes one dense intermediate may take (default 8 MB): a script that builds its own large data is not run at full size. */
  memoryBudget?: number;
}

export const DEFAULT_SCRIPT_VERIFY_STEPS = 20_000;
export const DEFAULT_SCRIPT_VERIFY_BUDGET = 8 * 1024 * 1024;

/** Runs `text` and `text` with `edits` applied on random data for the analysis's reads; verified when they agree. */
export function verifyScriptEdit(text: string, edits: readonly TextEdit[], analysis: ProgramAnalysis, options: ScriptVerifyOptions = {}): VerifyResult {
  const writes = fileWrites(analysis.parsed.program.body);
  if (writes !== undefined) return { verified: false, reason: `the script writes files (write() at line ${writes + 1}): it is not run to check the edit` };
  const taken = new Set(text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? []);
  let prefix = "dmlLensInput";
  while ([...taken].some((w) => w.startsWith(prefix))) prefix += "_";
  const reads = scriptReadInputs(analysis, (k) => `${prefix}${k}`);
  if (typeof reads === "string") return { verified: false, reason: `cannot check the edit: ${reads}` };
  const readEdits = reads.map((r) => ({ range: r.range, newText: r.shape.name }));
  const touched = edits.find((e) => readEdits.some((r) => overlaps(e.range, r.range)));
  if (touched) return { verified: false, reason: `cannot check the edit: it changes a read() (line ${touched.range.start.line + 1})` };
  const original = applyEdits(text, readEdits);
  const edited = applyEdits(text, [...readEdits, ...edits]);
  const shapes = reads.map((r) => r.shape);
  const cases = options.cases ?? ["dense", "sparse"];
  const relative = options.relative ?? 1e-9;
  let trials = 0;
  for (const [k, inputCase] of cases.entries()) {
    const seed = (options.seed ?? 17) + 104729 * k;
    const inputs = randomInputs(shapes, inputCase, seed, options.maxCells);
    const before = runOnce(original, inputs, analysis.parameters, options);
    if (before.error !== undefined) return { verified: false, reason: `the original fails on ${inputCase} inputs: ${before.error}`, inputCase, seed };
    const after = runOnce(edited, inputs, analysis.parameters, options);
    if (after.error !== undefined) return { verified: false, reason: `the edited script fails on ${inputCase} inputs: ${after.error}`, inputCase, seed };
    const difference = runDifference(before, after, relative);
    if (difference !== undefined) return { verified: false, reason: `${difference} (${inputCase} inputs, seed ${seed})`, inputCase, seed };
    trials++;
  }
  return { verified: true, trials };
}

interface ScriptRun {
  printed: string[];
  variables: Map<string, Value>;
  error?: string;
}

function runOnce(text: string, inputs: ReadonlyMap<string, Value>, params: ReadonlyMap<string, string>, options: ScriptVerifyOptions): ScriptRun {
  const printed: string[] = [];
  let steps = 0;
  const maxSteps = options.maxSteps ?? DEFAULT_SCRIPT_VERIFY_STEPS;
  const memoryBudget = options.memoryBudget ?? DEFAULT_SCRIPT_VERIFY_BUDGET;
  const session = createSession({ params, memoryBudget, print: (line) => printed.push(line), shouldInterrupt: () => ++steps > maxSteps });
  for (const [name, value] of inputs) session.env.set(name, value);
  const result = session.runScript(text);
  if (!result.ok) {
    const error = steps > maxSteps ? `it makes more than ${maxSteps} loop iterations and function calls on small data` : (result.errors[0] ?? "failed").replace(/^<cell>:/, "line ");
    return { printed, variables: session.env, error };
  }
  return { printed, variables: session.env };
}

/** How the edited run differs from the original: a printed line, or a variable of the original's. */
function runDifference(before: ScriptRun, after: ScriptRun, relative: number): string | undefined {
  if (before.printed.length !== after.printed.length) return `the original prints ${before.printed.length} lines, the edited script ${after.printed.length}`;
  for (const [k, line] of before.printed.entries()) {
    if (!samePrintedLine(line, after.printed[k]!, relative)) return `printed line ${k + 1}: '${line}' vs '${after.printed[k]}'`;
  }
  const printsNumbers = before.printed.some((line) => /\d|NaN|Infinity/.test(line));
  for (const [name, value] of before.variables) {
    const other = after.variables.get(name);
    if (other === undefined) return `the edited script has no ${name}`;
    if (value.kind !== other.kind) return `${name}: a ${value.kind} vs a ${other.kind}`;
    if (value.kind === "matrix" && other.kind === "matrix" && (value.matrix.rows !== other.matrix.rows || value.matrix.cols !== other.matrix.cols)) {
      return `${name}: ${value.matrix.rows} x ${value.matrix.cols} vs ${other.matrix.rows} x ${other.matrix.cols}`;
    }
    if (!printsNumbers && (value.kind === "scalar" || value.kind === "matrix")) {
      const difference = valueDifference(value, other, relative);
      if (difference !== undefined) return `${name}: ${difference}`;
    }
  }
  return undefined;
}

const NUMBER = /-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|NaN|Infinity)/g;


/** The same words, and numbers within `relative` of the larger. */
export function samePrintedLine(a: string, b: string, relative: number): boolean {
  if (a === b) return true;
  if (a.replace(NUMBER, "#") !== b.replace(NUMBER, "#")) return false;
  const x = a.match(NUMBER) ?? [];
  const y = b.match(NUMBER) ?? [];
  return x.every((v, k) => {
    const [p, q] = [Number(v), Number(y[k])];
    return p === q || (Number.isNaN(p) && Number.isNaN(q)) || Math.abs(p - q) <= relative * Math.max(Math.abs(p), Math.abs(q));
  });
}

/** The line (0-based) of the first write() call, if the script has one. */
function fileWrites(body: readonly Statement[]): number | undefined {
  let line: number | undefined;
  forEachStatement(body, (statement) => {
    if (line !== undefined || statement.kind === "if" || statement.kind === "for" || statement.kind === "while" || statement.kind === "function" || statement.kind === "externalFunction") return;
    for (const expression of statementExpressions(statement as SimpleStatement)) {
      walkExpression(expression, (node) => {
        if (line === undefined && node.kind === "call" && (node as CallExpression).callee.name === "write") line = node.range.start.line;
      });
    }
  });
  return line;
}

function overlaps(a: TextEdit["range"], b: TextEdit["range"]): boolean {
  const before = (p: TextEdit["range"]["start"], q: TextEdit["range"]["start"]) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return before(a.start, b.end) && before(b.start, a.end);
}
