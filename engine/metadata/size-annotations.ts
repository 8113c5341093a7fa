/**
 * `@size` comment annotations, attached to the assignments they describe.
 *
 * An annotation belongs to an assignment (`X = ...` or `[A, B] = ...`) when it
 * is either
 * - a comment at the end of a line of that statement: `X = read($X)  # @size 1e6 x 5e5, sparsity=0.001`, or
 * - on its own line directly above it; more comment lines may lie between,
 *   blank lines may not:
 *
 *       # @size 1e6 x 5e5, nnz=5e8
 *       X = read($X)
 *
 * It declares the size of the variable the statement assigns (for a
 * multi-assignment, the one it names: `# @size Q: 1000 x 20`). On a `read`
 * it overrides what the data's metadata say; on any other assignment it
 * tells the analysis a size it could not infer. An annotation that belongs
 * to no assignment, or names a variable the statement does not assign, is
 * reported and ignored.
 */
import { forEachStatement } from "../program";
import type { AssignmentStatement, Diagnostic, MultiAssignmentStatement, Program, Range, Statement } from "../syntax";
import { type SizeDeclaration, parseSizeAnnotation } from "./size-annotation-syntax";

type AnnotatedStatement = AssignmentStatement | MultiAssignmentStatement;

export interface SizeAnnotation {
  /** The variable whose size is declared. */
  target: string;
  statement: AnnotatedStatement;
  declaration: SizeDeclaration;
  /** The annotation's text in the script, from `@size`. */
  range: Range;
}

export interface SizeAnnotations {
  annotations: SizeAnnotation[];
  /** Malformed or misplaced annotations, in the script. */
  diagnostics: Diagnostic[];
}

export interface ScriptComments {
  program: Program;
  comments: readonly { text: string; range: Range }[];
}

/** Finds and attaches every `@size` annotation of a script parsed with `parse(text, { keepComments: true })`. */
export function collectSizeAnnotations(text: string, parsed: ScriptComments): SizeAnnotations {
  const diagnostics: Diagnostic[] = [];
  const annotations: SizeAnnotation[] = [];
  const { lines: code, commentOnly } = codeLines(text, parsed.comments);
  const assignments: AnnotatedStatement[] = [];
  const firstOnLine = new Map<number, Statement>();
  forEachStatement(parsed.program.body, (statement) => {
    if (statement.kind === "assign" || statement.kind === "multiAssign") assignments.push(statement);
    const line = statement.range.start.line;
    const first = firstOnLine.get(line);
    if (!first || statement.range.start.character < first.range.start.character) firstOnLine.set(line, statement);
  });

  for (const comment of parsed.comments) {
    const parsedAnnotation = parseSizeAnnotation(comment.text, comment.range.start);
    if (!parsedAnnotation) continue;
    diagnostics.push(...parsedAnnotation.diagnostics);
    const annotation = parsedAnnotation.annotation;
    if (!annotation) continue;
    const { line, character } = comment.range.start;
    const trailing = (code[line] ?? "").slice(0, character).trim() !== "";
    const statement = trailing
      ? statementEndingOnLine(assignments, comment.range)
      : statementBelow(comment.range.end.line, code, commentOnly, firstOnLine);
    if (!statement) {
      const message = trailing
        ? "this @size annotation follows no assignment on its line, so it is ignored"
        : "this @size annotation is not directly above an assignment (no blank line or other statement may lie between), so it is ignored";
      diagnostics.push({ severity: "warning", message, range: annotation.range, code: "size-annotation-placement" });
      continue;
    }
    const targets = targetNames(statement);
    let target: string | undefined;
    if (annotation.name) {
      target = targets.find((t) => t === annotation.name!.text);
      if (!target) {
        const message = `this @size names '${annotation.name.text}', but the statement assigns ${targets.map((t) => `'${t}'`).join(", ") || "no variable"}`;
        diagnostics.push({ severity: "error", message, range: annotation.name.range, code: "size-annotation-target" });
        continue;
      }
    } else if (targets.length === 1) {
      target = targets[0];
    } else {
      const message = `this statement assigns ${targets.map((t) => `'${t}'`).join(", ")}: name one, as in '@size ${targets[0] ?? "X"}: 1000 x 20'`;
      diagnostics.push({ severity: "error", message, range: annotation.range, code: "size-annotation-target" });
      continue;
    }
    const earlier = annotations.find((a) => a.statement === statement && a.target === target);
    if (earlier) {
      const message = `'${target}' already has a @size annotation on line ${earlier.range.start.line + 1}; this one is ignored`;
      diagnostics.push({ severity: "warning", message, range: annotation.range, code: "size-annotation-duplicate" });
      continue;
    }
    annotations.push({ target: target!, statement, declaration: annotation.declaration, range: annotation.range });
  }
  return { annotations, diagnostics };
}

/** The annotation of `statement` for `target` (default: its only target). */
export function sizeAnnotationFor(annotations: SizeAnnotations, statement: Statement, target?: string): SizeAnnotation | undefined {
  return annotations.annotations.find((a) => a.statement === statement && (target === undefined || a.target === target));
}

function targetNames(statement: AnnotatedStatement): string[] {
  const targets = statement.kind === "assign" ? [statement.target] : statement.targets;
  const names: string[] = [];
  for (const target of targets) {
    if (target.kind === "identifier") names.push(target.name);
    else if (target.kind === "index") names.push(target.target.name);
  }
  return names;
}

/** The innermost assignment that starts before the comment and reaches its line. */
function statementEndingOnLine(assignments: readonly AnnotatedStatement[], comment: Range): AnnotatedStatement | undefined {
  let best: AnnotatedStatement | undefined;
  for (const statement of assignments) {
    const { start, end } = statement.range;
    const startsBefore = start.line < comment.start.line || (start.line === comment.start.line && start.character < comment.start.character);
    if (!startsBefore || end.line < comment.start.line) continue;
    if (!best || compare(start, best.range.start) > 0) best = statement;
  }
  return best;
}

/** The assignment that starts the first line with code after `line`, when only comment lines lie between. */
function statementBelow(
  line: number,
  code: readonly string[],
  commentOnly: ReadonlySet<number>,
  firstOnLine: ReadonlyMap<number, Statement>,
): AnnotatedStatement | undefined {
  for (let l = line + 1; l < code.length; l++) {
    if (code[l]!.trim() === "") {
      if (commentOnly.has(l)) continue;
      return undefined;
    }
    const statement = firstOnLine.get(l);
    if (!statement || code[l]!.slice(0, statement.range.start.character).trim() !== "") return undefined;
    return statement.kind === "assign" || statement.kind === "multiAssign" ? statement : undefined;
  }
  return undefined;
}

/**
 * The script's lines with comments blanked out, so "code on this line" is a
 * whitespace test; lines that held only comments are remembered.
 */
function codeLines(text: string, comments: readonly { range: Range }[]): { lines: string[]; commentOnly: Set<number> } {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const blank = (line: number, from: number, to: number) => {
    const current = lines[line];
    if (current === undefined) return;
    const end = Math.min(to, current.length);
    if (end > from) lines[line] = current.slice(0, from) + " ".repeat(end - from) + current.slice(end);
  };
  const touched = new Set<number>();
  for (const { range } of comments) {
    for (let line = range.start.line; line <= range.end.line; line++) {
      const from = line === range.start.line ? range.start.character : 0;
      const to = line === range.end.line ? range.end.character : Number.MAX_SAFE_INTEGER;
      blank(line, from, to);
      touched.add(line);
    }
  }
  const commentOnly = new Set([...touched].filter((line) => (lines[line] ?? "").trim() === ""));
  return { lines, commentOnly };
}

function compare(a: { line: number; character: number }, b: { line: number; character: number }): number {
  return a.line - b.line || a.character - b.character;
}
