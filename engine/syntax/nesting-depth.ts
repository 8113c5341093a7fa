/**
 * How deeply a parsed script nests, and the error when it nests deeper than
 * the rest of the tool can follow. Every later stage (the checks, the DAG
 * builder, the sizes, the printer, the interpreter) walks the syntax tree
 * recursively; a chain of thousands of operands (`x + x + ... + x`) or
 * thousands of nested blocks would overflow their stacks. The parse result
 * gets one located error instead ("expression nested too deeply (N levels;
 * limit L)"), and a script with a syntax error is not analysed further.
 *
 * The depth is measured without recursion (an explicit stack), so measuring
 * cannot overflow either. A level is one syntax node inside another
 * (statement, expression, argument): `a + b + c` is 3 levels (two binary
 * nodes, then an identifier), `if (c) { x = 1 }` is 4.
 */
import type { Diagnostic, Range } from "./ast";

/** Deepest nesting of syntax nodes a script may have; real DML stays far below (a sum of 200 terms is ~200). */
const MAX_NESTING_DEPTH = 1000;

/**
 * Deepest nesting of brackets a script may have. The parser follows each
 * bracket with several recursive rules (call, argument, expression), so
 * brackets are bounded far lower than syntax nodes; real DML nests a few.
 */
const MAX_BRACKET_DEPTH = 150;

interface Deepest {
  depth: number;
  /** The first node found at depth `limit + 1`, where the error is reported. */
  tooDeep?: Range;
}

/** The nesting depth of the syntax nodes under `root` (any AST node or list of nodes). */
function nestingDepth(root: unknown, limit = MAX_NESTING_DEPTH): Deepest {
  const result: Deepest = { depth: 0 };
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth });
      continue;
    }
    if (!isSyntaxNode(node)) continue;
    const level = depth + 1;
    if (level > result.depth) result.depth = level;
    if (level > limit && result.tooDeep === undefined) result.tooDeep = node.range;
    const fields = node as unknown as Record<string, unknown>;
    for (const key in fields) {
      const value = fields[key];
      if (key === "range" || value === null || typeof value !== "object") continue;
      stack.push({ node: value, depth: level });
    }
  }
  return result;
}

/** The located error for a script nested deeper than `limit`, or undefined when it is not. */
export function nestingDiagnostic(root: unknown, limit = MAX_NESTING_DEPTH): Diagnostic | undefined {
  const { depth, tooDeep } = nestingDepth(root, limit);
  if (tooDeep === undefined) return undefined;
  const at = tooDeep.start;
  return {
    severity: "error",
    message: `expression nested too deeply (${depth} levels; limit ${limit}): split it into several statements`,
    range: { start: at, end: at },
    code: "too-deep",
  };
}

/**
 * Before parsing: the first bracket (`(`, `[`, `{`) that opens more than
 * `limit` levels, so that the recursive-descent parser is never asked to
 * follow it. Counts over the token images; closing brackets of the wrong
 * kind only close (the parser reports the mismatch).
 */
export function bracketNestingDiagnostic(tokens: readonly BracketToken[], limit = MAX_BRACKET_DEPTH): Diagnostic | undefined {
  const { deepest, first } = bracketDepth(tokens, limit);
  if (first === undefined) return undefined;
  return {
    severity: "error",
    message: `expression nested too deeply (${deepest} levels of brackets; limit ${limit}): split it into several statements`,
    range: { start: first, end: first },
    code: "too-deep",
  };
}

/**
 * Where a parse that ran out of stack is reported: the first bracket of the
 * deepest nesting, else the start of the script (a chain of `^` or of prefix
 * operators nests without brackets).
 */
export function deepestBracket(tokens: readonly BracketToken[]): { line: number; character: number } {
  const { deepest } = bracketDepth(tokens, Number.POSITIVE_INFINITY);
  return deepest > 0 ? bracketDepth(tokens, deepest - 1).first! : { line: 0, character: 0 };
}

interface BracketToken {
  image: string;
  startLine?: number;
  startColumn?: number;
}

/** The deepest bracket nesting of the tokens, and the first bracket that opens more than `limit` levels. */
function bracketDepth(tokens: readonly BracketToken[], limit: number): { deepest: number; first?: { line: number; character: number } } {
  let depth = 0;
  let deepest = 0;
  let first: { line: number; character: number } | undefined;
  for (const token of tokens) {
    const c = token.image;
    if (c === "(" || c === "[" || c === "{") {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth > limit && first === undefined) first = { line: (token.startLine ?? 1) - 1, character: (token.startColumn ?? 1) - 1 };
    } else if (c === ")" || c === "]" || c === "}") {
      if (depth > 0) depth--;
    }
  }
  return first === undefined ? { deepest } : { deepest, first };
}

function isSyntaxNode(value: unknown): value is { kind: string; range: Range } {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string" && typeof (value as { range?: unknown }).range === "object";
}
