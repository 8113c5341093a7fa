/**
 * Completion at a position: inside a builtin's argument list, its named
 * arguments not given yet; after `$`, the script's command-line parameters;
 * elsewhere the variables assigned in the document (with dims and nnz when
 * the analysis knows them), user functions, builtins with their signatures,
 * and keywords. The call around the cursor is found in the text, so
 * completion works while the line does not parse yet.
 */
import { ALL_BUILTINS, lookupBuiltin, type BuiltinSignature, forEachStatement } from "../../engine/program";
import { formatStats, type ProgramAnalysis } from "../../engine/analysis";
import { type Position, type Program, textInRange } from "../../engine/syntax";

export type CompletionKind = "function" | "variable" | "argument" | "parameter" | "keyword";

export interface Completion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Text to insert when it differs from the label. */
  insertText?: string;
}

const KEYWORDS = ["if", "else", "for", "parfor", "while", "function", "return", "source", "in", "as", "TRUE", "FALSE"];

/** `rand(rows, cols, ...) -> matrix`, with optional parameters in brackets. */
export function builtinSignatureText(b: BuiltinSignature): string {
  const params = b.params?.map((p) => (p.required ? p.name : `[${p.name}]`)) ?? ["..."];
  if (b.variadic && b.params) params.push("...");
  return `${b.name}(${params.join(", ")})${b.result === "none" ? "" : ` -> ${b.result}`}`;
}

/** How far back an unclosed call is looked for (a call rarely spans more). */
const CALL_SCAN_CHARS = 4000;

/** The callee and the argument names already given, when the cursor is inside an unclosed call. */
export function enclosingCall(before: string): { callee: string; named: Set<string> } | undefined {
  let depth = 0;
  const stop = Math.max(0, before.length - CALL_SCAN_CHARS);
  for (let i = before.length - 1; i >= stop; i--) {
    const c = before[i]!;
    if (c === ")" || c === "]") depth++;
    else if (c === "[") depth = Math.max(0, depth - 1);
    else if (c === "(" && depth > 0) depth--;
    else if (c === "(") {
      const callee = /([A-Za-z_][A-Za-z0-9_.:]*)\s*$/.exec(before.slice(0, i))?.[1];
      if (!callee) return undefined;
      const named = new Set([...before.slice(i + 1).matchAll(/(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/g)].map((m) => m[1]!));
      return { callee, named };
    }
  }
  return undefined;
}

export function completions(text: string, program: Program, analysis: ProgramAnalysis | undefined, position: Position): Completion[] {
  const before = textInRange(text, { start: { line: 0, character: 0 }, end: position });
  if (/\$[A-Za-z0-9_]*$/.test(before)) {
    const params = new Set([...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
    return [...params].sort().map((name) => ({ label: `$${name}`, kind: "parameter", insertText: name }));
  }
  const result: Completion[] = [];
  const call = enclosingCall(before);
  const builtin = call ? lookupBuiltin(call.callee) : undefined;
  if (call && builtin?.params && builtin.namedAllowed) {
    for (const param of builtin.params) {
      if (call.named.has(param.name)) continue;
      result.push({ label: `${param.name}=`, kind: "argument", detail: `${param.required ? "required" : "optional"} argument of ${builtin.name}`, insertText: `${param.name}=` });
    }
  }
  const variables = new Map<string, string | undefined>();
  const functions = new Map<string, string>();
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "assign" && statement.target.kind === "identifier") variables.set(statement.target.name, undefined);
    if (statement.kind === "multiAssign") for (const t of statement.targets) if (t.kind === "identifier") variables.set(t.name, undefined);
    if (statement.kind === "for") variables.set(statement.variable.name, undefined);
    if (statement.kind === "function") {
      functions.set(statement.name.name, `${statement.name.name}(${statement.params.map((p) => p.name.name).join(", ")})`);
      for (const p of statement.params) variables.set(p.name.name, undefined);
    }
  });
  // While the document does not parse, the recovered tree may miss statements: names assigned at a line start count too.
  for (const m of text.matchAll(/^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/gm)) if (!variables.has(m[1]!)) variables.set(m[1]!, undefined);
  for (const info of analysis?.dags.blocks ?? []) {
    const sizes = analysis!.sizes.blocks.get(info.block);
    if (!sizes || info.functionName) continue;
    for (const [name, node] of info.dag.outputs) if (variables.has(name)) variables.set(name, formatStats(sizes.nodes[node]!));
  }
  for (const [name, detail] of [...variables].sort(([a], [b]) => a.localeCompare(b))) {
    if (!functions.has(name)) result.push({ label: name, kind: "variable", ...(detail ? { detail } : {}) });
  }
  for (const [name, signature] of functions) result.push({ label: name, kind: "function", detail: signature, documentation: "user function" });
  for (const b of ALL_BUILTINS) {
    if (functions.has(b.name)) continue;
    result.push({ label: b.name, kind: "function", detail: builtinSignatureText(b), documentation: `${b.kind} builtin${b.note ? ` (${b.note})` : ""}` });
  }
  for (const keyword of KEYWORDS) result.push({ label: keyword, kind: "keyword" });
  return result;
}
