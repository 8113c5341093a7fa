/** Text → AST with diagnostics: lexer problems, syntax errors and error productions, never an exception. */
import { EOF, type ILexingError, type IRecognitionException, type IToken } from "chevrotain";
import type { Diagnostic, ParseResult, Program, Range } from "./ast";
import { DmlParser } from "./parser";
import { afterTokenRange, tokenRange } from "./ranges";
import * as T from "./tokens";
import { bracketNestingDiagnostic, deepestBracket, nestingDiagnostic } from "./nesting-depth";

let sharedParser: DmlParser | undefined;

/** The parser is built once (grammar analysis is costly) and reused by every parse. */
function parser(): DmlParser {
  sharedParser ??= new DmlParser();
  return sharedParser;
}

export interface ParseOptions {
  /** Keep the comment tokens (for annotations, folding). */
  keepComments?: boolean;
}

export interface ParseResultWithComments extends ParseResult {
  comments: { text: string; range: Range }[];
}

export function parse(text: string): ParseResult;
export function parse(text: string, options: ParseOptions & { keepComments: true }): ParseResultWithComments;
export function parse(text: string, options: ParseOptions = {}): ParseResult | ParseResultWithComments {
  const lexed = T.dmlLexer.tokenize(text);
  const diagnostics: Diagnostic[] = [
    ...lexed.errors.map((error) => strayCharactersDiagnostic(text, error)),
    ...lexerDiagnostics(text, lexed.groups.problems ?? [], lexed.tokens, lexed.groups.comments ?? []),
  ];
  const tooManyBrackets = bracketNestingDiagnostic(lexed.tokens);
  let { body, diagnostics: syntaxDiagnostics } = tooManyBrackets ? { body: [], diagnostics: [tooManyBrackets] } : parseTokens(text, lexed.tokens, false);
  if (syntaxDiagnostics.some((d) => d.code === "unclosed-brace")) {
    // A '{' lacks its '}': parse again, ending blocks by indentation, so the
    // error lands on the brace that is really open.
    ({ body, diagnostics: syntaxDiagnostics } = parseTokens(text, lexed.tokens, true));
  }
  diagnostics.push(...syntaxDiagnostics);
  const tooDeep = nestingDiagnostic(body);
  if (tooDeep) {
    // Later stages walk the tree recursively: a script this deep gets this error and nothing else.
    diagnostics.push(tooDeep);
    body = [];
  }
  const program: Program = { kind: "program", body, range: wholeRange(text) };
  const result: ParseResult = { program, diagnostics: oneDiagnosticPerPlace(diagnostics) };
  if (!options.keepComments) return result;
  const comments = (lexed.groups.comments ?? []).map((token) => ({ text: token.image, range: tokenRange(token) }));
  return { ...result, comments };
}

function parseTokens(text: string, tokens: IToken[], useIndentation: boolean): { body: Program["body"]; diagnostics: Diagnostic[] } {
  const p = parser();
  try {
    p.startParse(text, tokens, useIndentation);
    const body = p.program();
    return { body, diagnostics: [...p.errors.map(syntaxErrorDiagnostic), ...p.takeProblems()] };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The parser ran out of stack (a chain of `^` or prefix operators, brackets under their limit on a small stack).
    const message = "this script is nested too deeply to be parsed: split its deepest expression into several statements";
    const at = deepestBracket(tokens);
    const range = { start: at, end: at };
    return { body: [], diagnostics: [{ severity: "error", message, range, code: "too-deep" }] };
  }
}

function lexerDiagnostics(text: string, problems: IToken[], tokens: IToken[], comments: IToken[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const token of problems) {
    const range = tokenRange(token);
    if (token.tokenType === T.UnterminatedBlockComment) {
      diagnostics.push({ severity: "error", message: "this /* comment is never closed with */", range: { start: range.start, end: { line: range.start.line, character: range.start.character + 2 } }, code: "unterminated-comment" });
    } else if (token.tokenType === T.StrayText) {
      const shown = token.image.trimEnd();
      diagnostics.push({
        severity: "warning",
        message: `stray '${shown}' ignored (SystemDS's lexer skips it with a warning${shown.length > 1 ? ", the character after it included" : ""})`,
        range: { start: range.start, end: { line: range.start.line, character: range.start.character + shown.length } },
        code: "stray-character",
      });
    }
  }
  for (const token of tokens) {
    if (token.tokenType !== T.BadStringLiteral) continue;
    const image = token.image;
    const closed = image.length > 1 && image.endsWith(image.charAt(0));
    const badEscape = /\\([^btnfr"'\\])/.exec(image);
    if (closed && badEscape) {
      // SystemDS's lexer reports this and goes on: a warning, not an error.
      const message = `unknown escape '\\${badEscape[1]}' in a string: DML knows only \\b \\t \\n \\f \\r \\" \\' \\\\, and SystemDS's lexer drops the text up to it, so this string is not read as written`;
      diagnostics.push({ severity: "warning", message, range: tokenRange(token), code: "bad-string" });
      continue;
    }
    const message = badEscape ? `unknown escape '\\${badEscape[1]}' in a string that is never closed` : "this string is never closed";
    diagnostics.push({ severity: "error", message, range: tokenRange(token), code: "bad-string" });
  }
  const last = comments[comments.length - 1];
  if (last && last.tokenType === T.LineComment && last.endOffset === text.length - 1) {
    diagnostics.push({
      severity: "warning",
      message: "a '#' comment on the last line needs a line break after it (SystemDS reports a lexer error here)",
      range: tokenRange(last),
      code: "comment-at-eof",
    });
  }
  return diagnostics;
}

/** Characters no token starts with: SystemDS's lexer reports and skips them, so they are a warning. */
function strayCharactersDiagnostic(text: string, error: ILexingError): Diagnostic {
  const start = { line: error.line! - 1, character: error.column! - 1 };
  const range = { start, end: { line: start.line, character: start.character + error.length } };
  const characters = text.substr(error.offset, error.length);
  const what = characters === "." ? "stray '.'" : `unexpected character${characters.length > 1 ? "s" : ""} '${characters}'`;
  return { severity: "warning", message: `${what} ignored (SystemDS skips ${characters.length > 1 ? "them" : "it"} with a lexer warning)`, range, code: "stray-character" };
}

function syntaxErrorDiagnostic(error: IRecognitionException): Diagnostic {
  const token = error.token;
  const range = token.tokenType === EOF ? endOfInputRange(error) : tokenRange(token);
  return { severity: "error", message: error.message, range, code: "syntax" };
}

function endOfInputRange(error: IRecognitionException): Range {
  const previous = (error as IRecognitionException & { previousToken?: IToken }).previousToken;
  if (previous && !Number.isNaN(previous.startOffset) && previous.startLine !== undefined) return afterTokenRange(previous);
  return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
}

/** Recovery can report one mistake more than once at the same place: keep the first. */
function oneDiagnosticPerPlace(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const kept: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const key = `${diagnostic.severity}:${diagnostic.range.start.line}:${diagnostic.range.start.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(diagnostic);
  }
  return kept.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

function wholeRange(text: string): Range {
  let line = 0;
  let lastBreak = -1;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { start: { line: 0, character: 0 }, end: { line, character: text.length - lastBreak - 1 } };
}


