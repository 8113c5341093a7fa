/**
 * Go to definition, references and rename within a document. Variables
 * live in a scope: the top level, or one function (its parameters and
 * body); a function's name is global. The definition of a variable read is
 * the nearest assignment on an earlier line of its scope (else the first
 * one); the definition of a call is the function's definition, in the
 * `source()`d file for `ns::f`.
 */
import { expressionReadOccurrences, statementReadOccurrences, statementWriteOccurrences, type NameOccurrence } from "../../engine/program/variable-occurrences";
import { walkExpression } from "../../engine/program/expression-walk";
import { forEachStatement } from "../../engine/program/statement-walk";
import type { Expression, Position, Program, Range, Statement } from "../../engine/syntax";
import { positionBefore, rangeContains } from "../../engine/syntax/ranges";

interface Occurrence extends NameOccurrence {
  write: boolean;
}

interface Scope {
  range: Range;
  variables: Occurrence[];
}

const NO_CONSTANTS: ReadonlySet<string> = new Set();


function scopes(program: Program): { scopes: Scope[]; functions: Map<string, NameOccurrence[]>; definitions: Map<string, Range> } {
  const functions = new Map<string, NameOccurrence[]>();
  const definitions = new Map<string, Range>();
  const call = (name: string, range: Range) => {
    const list = functions.get(name);
    if (list) list.push({ name, range });
    else functions.set(name, [{ name, range }]);
  };
  const calls = (e: Expression) =>
    walkExpression(e, (node) => {
      if (node.kind === "call") call(node.callee.name, node.callee.range);
    });
  const collect = (body: readonly Statement[], out: Occurrence[], nested: Scope[]): void => {
    for (const statement of body) {
      switch (statement.kind) {
        case "function":
        case "externalFunction": {
          definitions.set(statement.name.name, statement.name.range);
          call(statement.name.name, statement.name.range);
          const inner: Occurrence[] = statement.params.map((p) => ({ name: p.name.name, range: p.name.range, write: true }));
          for (const r of statement.returns) inner.push({ name: r.name.name, range: r.name.range, write: true });
          if (statement.kind === "function") collect(statement.body, inner, nested);
          nested.push({ range: statement.range, variables: inner });
          break;
        }
        case "if":
          out.push(...expressionReadOccurrences(statement.condition, NO_CONSTANTS).map((o) => ({ ...o, write: false })));
          calls(statement.condition);
          collect(statement.thenBody, out, nested);
          if (statement.elseBody) collect(statement.elseBody, out, nested);
          break;
        case "while":
          out.push(...expressionReadOccurrences(statement.condition, NO_CONSTANTS).map((o) => ({ ...o, write: false })));
          calls(statement.condition);
          collect(statement.body, out, nested);
          break;
        case "for": {
          const iterable = statement.iterable;
          for (const e of [iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])]) {
            out.push(...expressionReadOccurrences(e, NO_CONSTANTS).map((o) => ({ ...o, write: false })));
            calls(e);
          }
          out.push({ name: statement.variable.name, range: statement.variable.range, write: true });
          collect(statement.body, out, nested);
          break;
        }
        default: {
          out.push(...statementReadOccurrences(statement, NO_CONSTANTS).map((o) => ({ ...o, write: false })));
          out.push(...statementWriteOccurrences(statement).map((o) => ({ ...o, write: true })));
          if (statement.kind === "assign") calls(statement.value);
          else if (statement.kind === "multiAssign" || statement.kind === "callStatement") calls(statement.call);
        }
      }
    }
  };
  const top: Occurrence[] = [];
  const nested: Scope[] = [];
  collect(program.body, top, nested);
  return { scopes: [...nested, { range: program.range, variables: top }], functions, definitions };
}

/** The name under the cursor: a variable of the innermost scope holding the position, or a function. */
function nameAt(program: Program, position: Position) {
  const found = scopes(program);
  for (const scope of found.scopes) {
    if (!rangeContains(scope.range, position)) continue;
    const variable = scope.variables.find((o) => rangeContains(o.range, position));
    if (variable) return { kind: "variable" as const, name: variable.name, scope, found };
    break;
  }
  for (const [name, list] of found.functions) if (list.some((o) => rangeContains(o.range, position))) return { kind: "function" as const, name, found };
  return undefined;
}

/** A file named by `source(path)`: where it is and its parsed program; undefined when it cannot be read. */
export type SourcedFile = (sourcePath: string) => { file: string; program: Program } | undefined;

/** The definition of the name at `position`: a range in this document, or in a sourced file (`file` set). */
export function definition(program: Program, position: Position, sourced?: SourcedFile): { file?: string; range: Range } | undefined {
  const at = nameAt(program, position);
  if (!at) return undefined;
  if (at.kind === "function") {
    const local = at.found.definitions.get(at.name);
    if (local) return { range: local };
    const separator = at.name.indexOf("::");
    return separator < 0 || !sourced ? undefined : sourcedDefinition(program, at.name.slice(0, separator), at.name.slice(separator + 2), sourced);
  }
  const writes = at.scope.variables.filter((o) => o.name === at.name && o.write).sort((a, b) => (positionBefore(a.range.start, b.range.start) ? -1 : 1));
  // A read sees the assignments of earlier lines (on its own line, the target is assigned after the read).
  const earlier = writes.filter((o) => o.range.start.line < position.line || rangeContains(o.range, position));
  const range = (earlier[earlier.length - 1] ?? writes[0])?.range;
  return range && { range };
}

/** `ns::f`: the definition of `f` in the file of `source(...) as ns`. */
function sourcedDefinition(program: Program, namespace: string, name: string, sourced: SourcedFile): { file: string; range: Range } | undefined {
  let path: string | undefined;
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "source" && statement.namespace?.name === namespace) path ??= statement.path;
  });
  const file = path === undefined ? undefined : sourced(path);
  if (!file) return undefined;
  const definition = file.program.body.find((s) => (s.kind === "function" || s.kind === "externalFunction") && s.name.name === name);
  return definition && (definition.kind === "function" || definition.kind === "externalFunction") ? { file: file.file, range: definition.name.range } : undefined;
}

export function references(program: Program, position: Position): Range[] {
  const at = nameAt(program, position);
  if (!at) return [];
  const list = at.kind === "function" ? at.found.functions.get(at.name)! : at.scope.variables.filter((o) => o.name === at.name);
  return list.map((o) => o.range).sort((a, b) => (positionBefore(a.start, b.start) ? -1 : 1));
}

export class RenameError extends Error {}

const KEYWORDS = new Set(["if", "else", "for", "parfor", "while", "function", "return", "source", "in", "as", "TRUE", "FALSE", "externalFunction", "setwd", "ifdef"]);

/** Edits that rename the variable or function at `position`; throws RenameError for a bad new name. */
export function rename(program: Program, position: Position, newName: string): { range: Range; newText: string }[] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(newName) || KEYWORDS.has(newName)) throw new RenameError(`'${newName}' is not a valid DML name`);
  return references(program, position).map((range) => ({ range, newText: newName }));
}
