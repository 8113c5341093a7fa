/**
 * "Explain this rewrite": next to each "Apply cheaper rewrite" quick fix, a
 * code action whose command (run by the client) asks the server, with
 * `dmlLens/explainRewrite`, for the derivation from the statement's
 * original expression to the suggested one, the text `dml explain --why`
 * prints (engine/suggest/suggestion-derivation.ts). Computed on demand
 * only: the script is analysed on the server's thread (as on a keystroke,
 * with the document's sizes and file guard), the search, bounded by
 * saturation's counts with the optimizer setting's time safety net, runs
 * on a worker thread (derivation-thread.ts).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFileSystem } from "../../engine/files";
import type { SystemdsInstallation } from "../../engine/program";
import { derivationJob, type Suggestion } from "../../engine/suggest";
import type { MeasuredSize, SparsityEstimator } from "../../engine/analysis";
import type { Range } from "../../engine/syntax";
import { EXPLAIN_REWRITE_COMMAND } from "../../protocol/client-commands";
import type { ExplainRewriteParams, ExplainRewriteResult } from "../../protocol/custom-methods";
import type { DocumentOptimizations } from "./block-optimizations";
import { derivationOffThread } from "./derivation-thread";
import { guardedFileSystem, type ReadableFolders } from "./readable-folders";

/** The code action next to an "Apply cheaper rewrite" fix. */
export function explainRewriteAction(uri: string, version: number, suggestion: Suggestion): { title: string; kind: "quickfix"; command: { title: string; command: string; arguments: [ExplainRewriteParams] } } {
  const params: ExplainRewriteParams = { textDocument: { uri, version }, range: suggestion.range, rewritten: suggestion.rewritten };
  const title = `Explain this rewrite: ${suggestion.target} = ${suggestion.rewritten.length > 60 ? `${suggestion.rewritten.slice(0, 57)}…` : suggestion.rewritten}`;
  return { title, kind: "quickfix", command: { title, command: EXPLAIN_REWRITE_COMMAND, arguments: [params] } };
}

/** What the derivation's analysis needs of the server: the same sizes as the document's analysis, and its file guard. */
export interface ExplainContext {
  measured?: ReadonlyMap<string, MeasuredSize> | undefined;
  estimator?: SparsityEstimator | undefined;
  workspaceFolders: readonly string[];
  readable?: ReadableFolders | undefined;
  installation?: SystemdsInstallation | undefined;
  /** The optimizer's time safety net (ms of CPU time). */
  budgetMs?: number | undefined;
}

/** The derivation of the suggestion the params name, in the document's current text and suggestions. */
export async function explainRewrite(params: ExplainRewriteParams, document: { text: string; version: number } | undefined, optimizations: DocumentOptimizations, context: ExplainContext): Promise<ExplainRewriteResult> {
  const unavailable = (why: string): ExplainRewriteResult => ({ verdict: "unavailable", text: `No derivation: ${why}` });
  if (!document) return unavailable("the document is not open");
  if (document.version !== params.textDocument.version) return unavailable("the document changed since the suggestion was made; ask again from the new suggestion");
  for (const result of optimizations.values()) {
    const suggestion = result.suggestions.find((s) => sameRange(s.range, params.range) && s.rewritten === params.rewritten);
    if (!suggestion) continue;
    const temporaries = result.suggestions.flatMap((s) => s.temporaries ?? []);
    const uri = params.textDocument.uri;
    const file = uri.startsWith("file:") ? fileURLToPath(uri) : "untitled.dml";
    const workspaceRoot = innermostFolder(uri.startsWith("file:") ? file : undefined, context.workspaceFolders);
    const analysis = {
      ...(context.measured && context.measured.size > 0 ? { measured: context.measured } : {}),
      ...(context.estimator ? { estimator: context.estimator } : {}),
      ...(workspaceRoot !== undefined ? { workspaceRoot } : {}),
      ...(context.readable ? { fs: guardedFileSystem(nodeFileSystem, context.readable, new Set()) } : {}),
    };
    const job = derivationJob(document.text, file, suggestion, temporaries, {
      analysis,
      ...(context.installation ? { installation: context.installation } : {}),
      ...(context.budgetMs !== undefined ? { budgetMs: context.budgetMs } : {}),
    });
    const derivation = "verdict" in job ? job : await derivationOffThread(job);
    return { verdict: derivation.verdict, text: `${derivation.lines.join("\n")}\n` };
  }
  return unavailable("the suggestion is no longer offered (the optimizer's suggestions changed)");
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** The innermost workspace folder holding the script (its dml-lens.json applies); for an unsaved script, the first folder. */
function innermostFolder(scriptPath: string | undefined, folders: readonly string[]): string | undefined {
  if (scriptPath === undefined) return folders[0];
  return folders.filter((folder) => !path.relative(folder, scriptPath).startsWith("..")).sort((a, b) => b.length - a.length)[0];
}
