/**
 * Applying redundancy options (redundancy-types.ts) to a script's text:
 * each option inserts `NAME = expression` on a line of its own before its
 * `insertBefore` statement (indented like that line, with that line's line
 * ending) and replaces each occurrence's range by its replacement with the
 * name filled in. Everything else stays byte-identical.
 *
 * Several options apply in the order given. The rule for options that touch
 * the same text: an occurrence that lies within (or is) an occurrence of an
 * option applied before is composed with it: in that occurrence's
 * replacement, each sub-expression spelled exactly as the later option's
 * expression becomes the later name (DFP's `g = t(A) %*% (A %*% x - b)`
 * becomes `(AtA %*% x - t(A) %*% b)` by the first option, then
 * `(AtA %*% x - Atb)` by the second); the option is refused (with the
 * reason) when the replacement has no such sub-expression, when an
 * occurrence partly overlaps or holds an applied one, or when the insertion
 * point of one lies inside an occurrence of the other (alternatives such as
 * hoisting `t(A) %*% A` out of `t(d) %*% t(A) %*% A %*% d` vs reusing
 * `A %*% d` in it, which ReMac's choice never picks together).
 *
 * Each option is also checked on its own before it is applied:
 * - its name becomes a fresh one (`AtA_2`, ...) when it is any word of the
 *   script (variables, functions, argument names, later uses, even words in
 *   comments), a keyword, a builtin's name or a name an earlier option took;
 * - `insertBefore` must begin its line (after indentation) and start a
 *   statement; every occurrence must come after it, in that statement or a
 *   later one of the same statement list;
 * - no statement between the insertion point and an occurrence assigns a
 *   variable the expression reads, and no loop that holds an occurrence but
 *   not the insertion point (the loop it is hoisted out of) assigns one;
 * - the text with the option applied parses without errors.
 */
import { keywordNames, lineStarts, parse, type Expression, type ParseResult, type Position, type Program, type Range, type Statement, applyEdits, positionBefore, rangeTexts, type TextEdit } from "../syntax";
import { childExpressions, BUILTIN_CONSTANTS, expressionReadOccurrences, statementWriteOccurrences, type SimpleStatement } from "../program";
import type { RedundancyOption } from "./redundancy-types";
import { freshName } from "./fresh-names";

export interface AppliedOption {
  id: string;
  /** The name the temporary got (the option's, or a fresh one when that collides). */
  name: string;
  /** The assignment inserted, without indentation and line ending (`AtA = t(A) %*% A`). */
  assignment: string;
}

export interface RefusedOption {
  id: string;
  reason: string;
}

export interface RedundancyApplication {
  /** The script with the applied options. */
  text: string;
  /** The edits on the original text that give `text` (non-overlapping; one insertion per place), for a workspace edit. */
  edits: TextEdit[];
  applied: AppliedOption[];
  refused: RefusedOption[];
}

/**
 * `text` with `options` applied in order; options that cannot be applied are
 * refused with the reason. `parsed`: `text` parsed, when the caller has it
 * (one parse for many calls on one text).
 */
export function applyRedundancy(text: string, options: readonly RedundancyOption[], parsed: ParseResult = parse(text)): RedundancyApplication {
  if (parsed.diagnostics.some((d) => d.severity === "error")) {
    return { text, edits: [], applied: [], refused: options.map((o) => ({ id: o.id, reason: "the script has syntax errors" })) };
  }
  const lines = lineTable(text);
  const taken = takenNames(text);
  const accepted: AcceptedOption[] = [];
  const applied: AppliedOption[] = [];
  const refused: RefusedOption[] = [];
  for (const option of options) {
    if (accepted.some((a) => a.option.id === option.id)) continue;
    const problem =
      placementProblem(text, lines, parsed.program, option) ??
      insertionProblem(option, accepted.map((a) => a.option)) ??
      assignmentProblem(parsed.program, option);
    if (problem !== undefined) {
      refused.push({ id: option.id, reason: problem });
      continue;
    }
    const name = freshName(option.name, taken);
    const assignment = `${name} = ${option.expression}`;
    const line = option.insertBefore.start.line;
    const indentation = lines.text(line).match(/^[ \t]*/)![0];
    const lineStart = { line, character: 0 };
    const insertion: TextEdit = { range: { start: lineStart, end: lineStart }, newText: `${indentation}${assignment}${lines.ending(line)}` };
    const composed = composeOccurrences(option, name, accepted);
    if (typeof composed === "string") {
      refused.push({ id: option.id, reason: composed });
      continue;
    }
    const candidate = [...composed.accepted, { option, insertion, replacements: composed.own }];
    const syntax = parse(applyEdits(text, mergedEdits(candidate))).diagnostics.find((d) => d.severity === "error");
    if (syntax !== undefined) {
      refused.push({ id: option.id, reason: `the edited script does not parse: its line ${syntax.range.start.line + 1}: ${syntax.message}` });
      continue;
    }
    accepted.splice(0, accepted.length, ...candidate);
    taken.add(name);
    applied.push({ id: option.id, name, assignment });
  }
  const edits = mergedEdits(accepted);
  return { text: applyEdits(text, edits), edits, applied, refused };
}

/** The insertions (those at one place merged, in order) and the replacements, sorted by position. */
function mergedEdits(accepted: readonly { insertion: TextEdit; replacements: TextEdit[] }[]): TextEdit[] {
  const insertions = new Map<string, TextEdit>();
  for (const { insertion } of accepted) {
    const key = `${insertion.range.start.line}:${insertion.range.start.character}`;
    const known = insertions.get(key);
    insertions.set(key, known ? { range: known.range, newText: known.newText + insertion.newText } : insertion);
  }
  const edits = [...insertions.values(), ...accepted.flatMap((a) => a.replacements)];
  return edits.sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(a.range.end, b.range.end));
}

// ------------------------------------------------------------------ names

/** Every word of the script (identifiers, also in comments and strings), keywords, builtin constants. */
function takenNames(text: string): Set<string> {
  const taken = new Set<string>([...keywordNames, ...BUILTIN_CONSTANTS]);
  for (const match of text.matchAll(/[A-Za-z_][A-Za-z0-9_.]*/g)) {
    taken.add(match[0]);
    for (const part of match[0].split(".")) taken.add(part);
  }
  return taken;
}

// ------------------------------------------------------------------ checks

/** `insertBefore` starts a statement at the beginning of its line; every occurrence comes after it in the same statement list. */
function placementProblem(text: string, lines: LineTable, program: Program, option: RedundancyOption): string | undefined {
  const at = option.insertBefore.start;
  if (option.occurrences.length === 0) return "it has no occurrences";
  if (at.line >= lines.count || !/^[ \t]*$/.test(lines.text(at.line).slice(0, at.character))) return `line ${at.line + 1}: the statement it would be inserted before does not begin its line`;
  const place = statementListAt(program.body, at);
  if (place === undefined) return `line ${at.line + 1}, column ${at.character + 1}: no statement starts where the assignment would be inserted`;
  const offset = (p: Position) => lines.offset(p);
  for (const occurrence of option.occurrences) {
    const { start, end } = occurrence.range;
    if (comparePositions(start, end) >= 0 || offset(end) > text.length) return `the occurrence at ${where(start)} has an empty or invalid range`;
    if (positionBefore(start, at)) return `the occurrence at ${where(start)} comes before the insertion point (${where(at)})`;
    const holder = place.list.slice(place.index).find((s) => contains(s.range, occurrence.range));
    if (holder === undefined) return `the occurrence at ${where(start)} is not in the statement list the assignment goes into (${where(at)})`;
  }
  for (let i = 0; i < option.occurrences.length; i++) {
    for (let j = i + 1; j < option.occurrences.length; j++) {
      if (intersects(option.occurrences[i]!.range, option.occurrences[j]!.range)) return `its occurrences at ${where(option.occurrences[i]!.range.start)} and ${where(option.occurrences[j]!.range.start)} overlap`;
    }
  }
  return undefined;
}

/** The insertion point of one option inside an occurrence of the other. */
function insertionProblem(option: RedundancyOption, applied: readonly RedundancyOption[]): string | undefined {
  for (const other of applied) {
    for (const theirs of other.occurrences) {
      if (strictlyInside(option.insertBefore.start, theirs.range)) return `its insertion point (${where(option.insertBefore.start)}) lies inside an occurrence of ${other.id}`;
    }
    for (const mine of option.occurrences) {
      if (strictlyInside(other.insertBefore.start, mine.range)) return `its occurrence at ${where(mine.range.start)} holds the insertion point of ${other.id}`;
    }
  }
  return undefined;
}

interface AcceptedOption {
  option: RedundancyOption;
  insertion: TextEdit;
  replacements: TextEdit[];
}

/**
 * The option's own replacements, and the applied options with the
 * replacements that hold one of its occurrences rewritten to use `name`; or
 * why the occurrences cannot be composed with them.
 */
function composeOccurrences(option: RedundancyOption, name: string, accepted: readonly AcceptedOption[]): { own: TextEdit[]; accepted: AcceptedOption[] } | string {
  const updated = accepted.map((a) => ({ ...a, replacements: [...a.replacements] }));
  const own: TextEdit[] = [];
  for (const occurrence of option.occurrences) {
    const hits = updated.flatMap((a) => a.replacements.map((edit, index) => ({ a, edit, index }))).filter((h) => intersects(h.edit.range, occurrence.range));
    if (hits.length === 0) {
      own.push({ range: occurrence.range, newText: occurrence.replacement.replaceAll("{name}", name) });
      continue;
    }
    const hit = hits[0]!;
    if (hits.length > 1 || !contains(hit.edit.range, occurrence.range)) return `its occurrence at ${where(occurrence.range.start)} overlaps the occurrence at ${where(hit.edit.range.start)} of ${hit.a.option.id}, applied before it, without lying within it`;
    const rewritten = substituteExpression(hit.edit.newText, option.expression, name);
    if (rewritten === undefined) return `its occurrence at ${where(occurrence.range.start)} lies in the occurrence at ${where(hit.edit.range.start)} of ${hit.a.option.id}, applied before it, whose replacement \`${hit.edit.newText}\` does not compute \`${option.expression}\``;
    hit.a.replacements[hit.index] = { range: hit.edit.range, newText: rewritten };
  }
  return { own, accepted: updated };
}

/** `text` (an expression) with each outermost sub-expression spelled as `expression` (spaces aside) replaced by `name`; undefined when there is none. */
export function substituteExpression(text: string, expression: string, name: string): string | undefined {
  const prefix = "__value = ";
  const source = `${prefix}${text}`;
  const parsed = parse(source);
  const statement = parsed.program.body[0];
  if (parsed.diagnostics.some((d) => d.severity === "error") || statement?.kind !== "assign") return undefined;
  const wanted = expression.replace(/\s+/g, "");
  const textOf = rangeTexts(source);
  const found: Range[] = [];
  const visit = (node: Expression): void => {
    if (node.kind !== "identifier" && textOf(node.range).replace(/\s+/g, "") === wanted) {
      found.push(node.range);
      return;
    }
    for (const child of childExpressions(node)) visit(child);
  };
  visit(statement.value);
  if (found.length === 0) return undefined;
  return applyEdits(source, found.map((range) => ({ range, newText: name }))).slice(prefix.length);
}

/**
 * A statement between the insertion point and an occurrence assigns a
 * variable the expression reads, or a loop holding an occurrence but not the
 * insertion point assigns one (including its loop variable).
 */
function assignmentProblem(program: Program, option: RedundancyOption): string | undefined {
  const inputs = expressionInputs(option.expression);
  if (typeof inputs === "string") return inputs;
  const at = option.insertBefore.start;
  const writes = assignments(program.body);
  for (const occurrence of option.occurrences) {
    for (const write of writes) {
      if (!inputs.has(write.name)) continue;
      // Written after the insertion point and before the occurrence is evaluated (a statement ending before it).
      if (!positionBefore(write.statement.start, at) && comparePositions(write.statement.end, occurrence.range.start) <= 0) {
        return `${write.name} is assigned at ${where(write.at.start)}, between the new assignment (${where(at)}) and the occurrence at ${where(occurrence.range.start)}`;
      }
      // Written in a loop the occurrence is in but the insertion point is not: the next iteration would see another value.
      for (const loop of write.loops) {
        if (contains(loop, occurrence.range) && !strictlyInside(at, loop)) {
          return `${write.name} is assigned at ${where(write.at.start)}, inside the loop at ${where(loop.start)} that ${option.kind === "lse" ? "it would be hoisted out of" : "repeats the occurrence at " + where(occurrence.range.start)}`;
        }
      }
    }
  }
  return undefined;
}

/** The variables `expression` reads, or why it cannot be read as one expression. */
function expressionInputs(expression: string): Set<string> | string {
  const parsed = parse(`__value = ${expression}\n`);
  const statement = parsed.program.body[0];
  if (parsed.diagnostics.some((d) => d.severity === "error") || parsed.program.body.length !== 1 || statement?.kind !== "assign") {
    return `its expression \`${expression}\` is not one DML expression`;
  }
  return new Set(expressionReadOccurrences(statement.value, new Set()).map((o) => o.name));
}

interface Assignment {
  name: string;
  /** The assigned name's range. */
  at: Range;
  /** The statement that assigns it (a for loop for its variable). */
  statement: Range;
  /** The loops around the assignment, innermost first (a for loop's own variable counts as inside it). */
  loops: Range[];
}

function assignments(body: readonly Statement[], loops: Range[] = []): Assignment[] {
  const found: Assignment[] = [];
  for (const statement of body) {
    switch (statement.kind) {
      case "if":
        found.push(...assignments(statement.thenBody, loops), ...assignments(statement.elseBody ?? [], loops));
        break;
      case "for": {
        const inside = [statement.range, ...loops];
        found.push({ name: statement.variable.name, at: statement.variable.range, statement: statement.range, loops: inside });
        found.push(...assignments(statement.body, inside));
        break;
      }
      case "while":
        found.push(...assignments(statement.body, [statement.range, ...loops]));
        break;
      case "function":
      case "externalFunction":
        break; // a function's variables are its own
      default:
        for (const w of statementWriteOccurrences(statement as SimpleStatement)) found.push({ name: w.name, at: w.range, statement: statement.range, loops });
    }
  }
  return found;
}

/** The statement list holding a statement that starts at `at`, and its index. */
function statementListAt(body: readonly Statement[], at: Position): { list: readonly Statement[]; index: number } | undefined {
  for (let index = 0; index < body.length; index++) {
    const statement = body[index]!;
    if (comparePositions(statement.range.start, at) === 0) return { list: body, index };
    if (!contains(statement.range, { start: at, end: at })) continue;
    for (const inner of childLists(statement)) {
      const found = statementListAt(inner, at);
      if (found) return found;
    }
  }
  return undefined;
}

function childLists(statement: Statement): (readonly Statement[])[] {
  switch (statement.kind) {
    case "if":
      return statement.elseBody ? [statement.thenBody, statement.elseBody] : [statement.thenBody];
    case "for":
    case "while":
    case "function":
      return [statement.body];
    default:
      return [];
  }
}

// ------------------------------------------------------------------ positions and lines

interface LineTable {
  count: number;
  /** The line's text without its line ending. */
  text(line: number): string;
  /** The line's ending: "\r\n", "\n", or (the last line) the script's first ending, else "\n". */
  ending(line: number): string;
  offset(p: Position): number;
}

function lineTable(text: string): LineTable {
  const starts = lineStarts(text);
  const firstEnding = /\r?\n/.exec(text)?.[0] ?? "\n";
  const rawEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1]! : text.length);
  return {
    count: starts.length,
    text: (line) => (line < starts.length ? text.slice(starts[line]!, rawEnd(line)).replace(/\r?\n$/, "") : ""),
    ending: (line) => (line < starts.length ? /\r?\n$/.exec(text.slice(starts[line]!, rawEnd(line)))?.[0] ?? firstEnding : firstEnding),
    offset: (p) => (p.line < starts.length ? starts[p.line]! + p.character : text.length + 1),
  };
}

function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** `inner` lies within `outer`, ends included. */
function contains(outer: Range, inner: Range): boolean {
  return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

/** The two ranges share some text (touching ends do not count). */
function intersects(a: Range, b: Range): boolean {
  return comparePositions(a.start, b.end) < 0 && comparePositions(b.start, a.end) < 0;
}

function strictlyInside(p: Position, range: Range): boolean {
  return comparePositions(range.start, p) < 0 && comparePositions(p, range.end) < 0;
}

function where(p: Position): string {
  return `line ${p.line + 1}, column ${p.character + 1}`;
}
