/**
 * "Explain this rewrite": the derivation from a suggestion's original
 * expression to the suggested one, as the text `dml explain --why LINE` and
 * the editor's read-only view show (one line a step: derivation-text.ts).
 *
 * The two sides are proven again in their own statement block: the script
 * gets, just before the suggested statement, two new statements assigning
 * the original and the suggested expression (the shared temporaries the
 * suggestion uses assigned first), so both see the variables the statement
 * sees, with the sizes of the same analysis. The rules alone prove them
 * first (their steps read best); failing that, the search is seeded as the
 * optimizer seeds a block (chain orders, sum-product forms: how it found
 * the rewrite). Both are bounded by saturation's counts (the time limit is
 * only a safety net); when no proof is found within them, the text says so.
 */
import { FreshNames } from "../redundancy";
import { derivationLines } from "../rewrite";
import type { Position, Range } from "../syntax";
import { analyzeText } from "../analysis";
import { blockOfVariables, proveInBlock, stopText, type BlockOfVariables, type ProveOptions, type ProveOutcome } from "./prove-variables";
import { statementRoots } from "./statement-roots";

/** What a derivation needs of a suggestion (a `Suggestion` has it). */
export interface SuggestionSides {
  range: Range;
  target: string;
  original: string;
  rewritten: string;
}

/** A shared temporary of the block's suggestions: its name and the expression it is assigned. */
export interface TemporaryDefinition {
  name: string;
  text: string;
}

export interface SuggestionDerivation {
  verdict: ProveOutcome["verdict"] | "unavailable";
  /** The text: a header naming the statement, then one line a step (or why there is no derivation). */
  lines: string[];
}

/**
 * The derivation of `suggestion` in `text` (the script it was made for);
 * `temporaries` are the shared temporaries of the block's suggestions (the
 * suggested expression may use them).
 */
export function suggestionDerivation(text: string, file: string, suggestion: SuggestionSides, temporaries: readonly TemporaryDefinition[] = [], options: ProveOptions = {}): SuggestionDerivation {
  const job = derivationJob(text, file, suggestion, temporaries, options);
  return "verdict" in job ? job : runDerivationJob(job);
}

/**
 * The search of a derivation as plain data (it may cross to a worker
 * thread): the header, the analysed block with the two sides, the bounds.
 */
export interface DerivationJob {
  header: string[];
  block: BlockOfVariables;
  original: string;
  suggested: string;
  budgetMs?: number;
}

/** The analysis half of `suggestionDerivation` (on the caller's thread): the job, or the answer when there is nothing to search. */
export function derivationJob(text: string, file: string, suggestion: SuggestionSides, temporaries: readonly TemporaryDefinition[] = [], options: ProveOptions = {}): DerivationJob | SuggestionDerivation {
  const header = [`line ${suggestion.range.start.line + 1}: ${suggestion.target} = ${suggestion.original}`, `  suggested: ${suggestion.target} = ${suggestion.rewritten}`];
  const unavailable = (why: string): SuggestionDerivation => ({ verdict: "unavailable", lines: [...header, `  no derivation: ${why}`] });
  const start = statementStart(text, file, suggestion.range, options);
  if (!start) return unavailable("the statement is no longer where the suggestion was made (edit the script again to refresh the suggestions)");
  const [original, suggested] = freshPair(text, "dmlLensOriginal", "dmlLensSuggested");
  const used = usedTemporaries(suggestion.rewritten, temporaries);
  const inserted = [...used.map((t) => `${t.name} = ${t.text}; `), `${original} = ${suggestion.original}; `, `${suggested} = ${suggestion.rewritten}; `].join("");
  const offset = offsetOf(text, start);
  const block = blockOfVariables(text.slice(0, offset) + inserted + text.slice(offset), file, original, suggested, options);
  if (typeof block === "string") return unavailable(block);
  return { header, block, original, suggested, ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}) };
}

/** The search half: the rules alone first (their steps read best), then seeded as the optimizer seeds a block (how it found the rewrite). */
export function runDerivationJob(job: DerivationJob): SuggestionDerivation {
  const { header, block, original, suggested } = job;
  const bounds = job.budgetMs !== undefined ? { budgetMs: job.budgetMs } : {};
  const plain = proveInBlock(block, original, suggested, { ...bounds, seed: false });
  const proved = plain.verdict === "not proven" ? proveInBlock(block, original, suggested, { ...bounds, seed: true }) : plain;
  switch (proved.verdict) {
    case "proven": {
      if (proved.steps.length === 0) return { verdict: "proven", lines: [...header, "  the same value as written: no step"] };
      const count = `${proved.steps.length} step${proved.steps.length === 1 ? "" : "s"}`;
      return { verdict: "proven", lines: [...header, `  derivation (${count}):`, ...derivationLines(proved.steps).map((line) => `    ${line}`)] };
    }
    case "not equal":
      return { verdict: "not equal", lines: [...header, `  not equal: ${proved.reason}`] };
    default: {
      const work = `${proved.iterations} iteration${proved.iterations === 1 ? "" : "s"}, ${proved.nodes} e-nodes`;
      return {
        verdict: "not proven",
        lines: [...header, `  no derivation found within the bound: the search ${stopText(proved.stopReason, proved.budgetMs)} (${work}).`, "  The runtime checked the rewrite on random inputs when it was suggested; the rules alone did not re-derive it here."],
      };
    }
  }
}

/** Where the statement whose right-hand side is `range` starts, or undefined when no statement of the script has that right-hand side. */
function statementStart(text: string, file: string, range: Range, options: ProveOptions): Position | undefined {
  const analysis = analyzeText(text, { scriptPath: file, workspaceRoot: process.cwd(), parameters: new Map(options.parameters ?? []), ...(options.installation ? { installation: options.installation } : {}), ...options.analysis });
  for (const info of analysis.dags.blocks) {
    for (const root of statementRoots(info.block, info.dag)) {
      if (samePosition(root.range.start, range.start) && samePosition(root.range.end, range.end)) return root.statementStart;
    }
  }
  return undefined;
}

function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.character === b.character;
}

function offsetOf(text: string, position: Position): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + position.character;
}

/** The temporaries the expression uses, directly or through other temporaries, in an order that defines each before its use. */
function usedTemporaries(expression: string, temporaries: readonly TemporaryDefinition[]): TemporaryDefinition[] {
  const used: TemporaryDefinition[] = [];
  const visit = (text: string) => {
    for (const t of temporaries) {
      if (used.includes(t) || !new RegExp(`\\b${t.name.replace(/\./g, "\\.")}\\b`).test(text)) continue;
      visit(t.text);
      if (!used.includes(t)) used.push(t);
    }
  };
  visit(expression);
  return used;
}

/** Two names like the given ones that the script does not use (a number appended when it does). */
function freshPair(text: string, first: string, second: string): [string, string] {
  const fresh = new FreshNames(text.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []);
  return [fresh.take(first), fresh.take(second)];
}
