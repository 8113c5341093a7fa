/**
 * The code actions the server offers at a range: each provider adds its own
 * from the document's analyzed state. To offer a new kind of action, write
 * a provider (one file) and add it to CODE_ACTION_PROVIDERS, with its kind
 * in CODE_ACTION_KINDS (the server announces those at initialize).
 */
import { CodeActionKind, type CodeAction, type CodeActionParams } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ProgramAnalysis } from "../../engine/analysis";
import type { DocumentOptimizations } from "./block-optimizations";
import { cheaperRewriteFixes } from "./optimizer-views";
import type { RedundancyActions } from "./redundancy-actions";
import { explainRewriteAction } from "./rewrite-explanation";
import type { ServerSettings } from "./settings";

/** What a provider sees: the document at the request's version, its analysis (when it has one) and optimizations, the request, the settings. */
export interface CodeActionInput {
  document: TextDocument;
  analysis: ProgramAnalysis | undefined;
  optimizations: DocumentOptimizations;
  params: CodeActionParams;
  settings: ServerSettings;
  /** The document's verified redundancy options (ReMac). */
  redundancy: RedundancyActions;
}

export type CodeActionProvider = (input: CodeActionInput) => CodeAction[];

/** The optimizer's cheaper rewrite at the range, as a preferred quick fix of its `cheaper-rewrite` hint, each followed by "Explain this rewrite". */
export const cheaperRewriteActions: CodeActionProvider = ({ document, optimizations, params, settings }) =>
  cheaperRewriteFixes(document.getText(), optimizations, params.range, settings.costUnit).flatMap((fix) => [
    {
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      isPreferred: true,
      diagnostics: params.context.diagnostics.filter((d) => d.code === "cheaper-rewrite"),
      edit: { changes: { [document.uri]: fix.edits } },
    },
    explainRewriteAction(document.uri, document.version, fix.suggestion),
  ]);

/** Hoisting loop constants and reusing common subexpressions (ReMac), once the runtime verified them. */
export const redundancyActions: CodeActionProvider = ({ document, params, redundancy }) => redundancy.codeActions(document.uri, document.version, params.range);

/** Every provider, in the order their actions are listed. */
export const CODE_ACTION_PROVIDERS: readonly CodeActionProvider[] = [
  cheaperRewriteActions,
  redundancyActions,
];

/** The kinds of action the providers offer. */
export const CODE_ACTION_KINDS: readonly string[] = [CodeActionKind.QuickFix];
