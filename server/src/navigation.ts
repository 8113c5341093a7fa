/**
 * Go to definition, references and rename within a document. Variables
 * live in a scope: the top level, or one function (its parameters and
 * body); a function's name is global. The definition of a variable read is
 * the nearest assignment on an earlier line of its scope (else the first
 * one); the definition of a call is the function's definition, in the
 * `source()`d file for `ns::f`.
 */
import { expressionReadOccurrences, statementReadOccurrences, statementWriteOccurrences, type NameOccurrence, statementExpressions, walkExpression, BUILTIN_CONSTANTS, lookupBuiltin, forEachStatement } from "../../engine/program";
import { keywordNames, type Expression, type Position, type Program, type Range, type Statement, positionBefore, rangeContains } from "../../engine/syntax";

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

/** What the name at a position is, for an editor's prepareRename: its range, or a RenameError saying why it cannot be renamed. */
export function prepareRename(program: Program, position: Position): { range: Range; placeholder: string } | undefined {
  const at = nameAt(program, position);
  if (!at) return undefined;
  if (at.kind === "function" && !at.found.definitions.has(at.name)) throw new RenameError(notDefinedHere(at.name));
  const list = at.kind === "function" ? at.found.functions.get(at.name)! : at.scope.variables.filter((o) => o.name === at.name);
  const range = list.find((o) => rangeContains(o.range, position))!.range;
  return { range, placeholder: at.name };
}

/**
 * Edits that rename the variable or function at `position`. Throws
 * RenameError for a name DML does not accept (not an identifier, a keyword,
 * a builtin constant) and for a rename that would change what the program
 * computes: the new name already names a variable of the same scope, a
 * function, or a builtin function (for functions); a builtin or sourced
 * function cannot be renamed. A parameter's named arguments (`f(X=...)`)
 * are renamed with it.
 */
export function rename(program: Program, position: Position, newName: string): { range: Range; newText: string }[] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(newName)) throw new RenameError(`'${newName}' is not a valid DML name (a letter or _, then letters, digits or _)`);
  if (RESERVED.has(newName)) throw new RenameError(`'${newName}' is not a valid DML name: it is ${BUILTIN_CONSTANTS.includes(newName) ? "a builtin constant" : "a keyword"} in DML`);
  const at = nameAt(program, position);
  if (!at) return [];
  if (at.kind === "function" && !at.found.definitions.has(at.name)) throw new RenameError(notDefinedHere(at.name));
  const ranges = references(program, position);
  if (newName === at.name) return ranges.map((range) => ({ range, newText: newName }));
  const refuse = (what: string, range: Range) => {
    throw new RenameError(`cannot rename '${at.name}' to '${newName}': ${what} on line ${range.start.line + 1}; the renamed program would compute something else`);
  };
  const found = at.found;
  const definedAt = found.definitions.get(newName);
  if (definedAt) refuse(`'${newName}' is the function defined`, definedAt);
  if (at.kind === "variable") {
    const clash = at.scope.variables.find((o) => o.name === newName);
    if (clash) refuse(`'${newName}' is already ${clash.write ? "assigned" : "used"} in the same scope`, clash.range);
    const called = (found.functions.get(newName) ?? []).find((o) => rangeContains(at.scope.range, o.range.start));
    if (called) refuse(`'${newName}' is the function called`, called.range);
    return [...ranges, ...namedArguments(program, at.scope, at.name)].map((range) => ({ range, newText: newName }));
  }
  if (lookupBuiltin(newName)) refuse(`'${newName}' is a builtin function (a call would no longer reach the function '${at.name}')`, found.definitions.get(at.name)!);
  for (const call of found.functions.get(at.name)!) {
    const scope = found.scopes.find((s) => rangeContains(s.range, call.range.start));
    const clash = scope?.variables.find((o) => o.name === newName);
    if (clash) refuse(`'${newName}' is a variable where '${at.name}' is called`, clash.range);
  }
  return ranges.map((range) => ({ range, newText: newName }));
}

const RESERVED: ReadonlySet<string> = new Set<string>([...keywordNames, ...BUILTIN_CONSTANTS]);

function notDefinedHere(name: string): string {
  return `'${name}' is ${lookupBuiltin(name) ? "a builtin function" : "not a function defined in this document"}: only variables and the document's own functions can be renamed`;
}

/** Where a parameter of the function whose scope is `scope` is passed by name (`f(name=...)`): the ranges of those names. */
function namedArguments(program: Program, scope: Scope, name: string): Range[] {
  let fn: string | undefined;
  for (const statement of program.body) {
    if ((statement.kind === "function" || statement.kind === "externalFunction") && statement.range === scope.range && statement.params.some((p) => p.name.name === name)) fn = statement.name.name;
  }
  if (fn === undefined) return [];
  const ranges: Range[] = [];
  forEachStatement(program.body, (statement) => {
    for (const e of expressionsOf(statement)) {
      walkExpression(e, (node) => {
        if (node.kind !== "call" || node.callee.name !== fn) return;
        for (const arg of node.args) {
          if (arg.name === name) ranges.push({ start: arg.range.start, end: { line: arg.range.start.line, character: arg.range.start.character + name.length } });
        }
      });
    }
  });
  return ranges;
}

/** The expressions a statement holds itself (not those of its body). */
function expressionsOf(statement: Statement): Expression[] {
  switch (statement.kind) {
    case "if":
    case "while":
      return [statement.condition];
    case "for": {
      const iterable = statement.iterable;
      return [iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])];
    }
    case "function":
    case "externalFunction":
      return [];
    default:
      return statementExpressions(statement);
  }
}
