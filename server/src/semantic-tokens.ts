/**
 * Semantic tokens from the lexer: comments, strings, numbers, keywords,
 * value types, `$params`, operators, and names classified as builtin
 * functions (defaultLibrary), user functions or variables. Encoded as LSP
 * wants: five integers per token, positions relative to the previous one,
 * multi-line tokens split per line.
 */
import { tokenMatcher, type IToken } from "chevrotain";
import { lookupBuiltin } from "../../engine/program";
import {
  BinaryOperatorToken as BinaryOperator,
  dmlLexer,
  DoubleLiteralToken as DoubleLiteral,
  IdentifierToken as Identifier,
  IntegerLiteralToken as IntegerLiteral,
  KeywordToken as Keyword,
  NamedParameterToken as NamedParameter,
  PositionalParameterToken as PositionalParameter,
  StringLiteralToken as StringLiteral,
  ValueTypeKeywordToken as ValueTypeKeyword,
} from "../../engine/syntax";

export const TOKEN_TYPES = ["comment", "string", "number", "keyword", "type", "parameter", "operator", "function", "variable"] as const;
export const TOKEN_MODIFIERS = ["defaultLibrary"] as const;

type TokenType = (typeof TOKEN_TYPES)[number];

const DATA_TYPES = new Set(["matrix", "scalar", "frame", "list", "Matrix", "Scalar", "Frame", "List"]);

function classify(token: IToken, previous: IToken | undefined, next: IToken | undefined, userFunctions: ReadonlySet<string>): { type: TokenType; builtin?: boolean } | undefined {
  if (tokenMatcher(token, StringLiteral)) return { type: "string" };
  if (tokenMatcher(token, DoubleLiteral) || tokenMatcher(token, IntegerLiteral)) return { type: "number" };
  if (tokenMatcher(token, ValueTypeKeyword)) return { type: "type" };
  if (tokenMatcher(token, Keyword)) return { type: "keyword" };
  if (tokenMatcher(token, NamedParameter) || tokenMatcher(token, PositionalParameter)) return { type: "parameter" };
  if (tokenMatcher(token, BinaryOperator)) return { type: "operator" };
  if (tokenMatcher(token, Identifier)) {
    // matrix[double] in a signature; rows= in a call.
    if (DATA_TYPES.has(token.image) && next?.image === "[") return { type: "type" };
    if (next?.image === "=" && (previous?.image === "(" || previous?.image === ",")) return { type: "parameter" };
    const called = next?.image === "(";
    if (userFunctions.has(token.image)) return { type: "function" };
    if (called && lookupBuiltin(token.image)) return { type: "function", builtin: true };
    return { type: called ? "function" : "variable" };
  }
  return undefined;
}

/** The LSP integer encoding of the document's semantic tokens. */
export function semanticTokens(text: string): number[] {
  const lexed = dmlLexer.tokenize(text);
  const comments = (lexed.groups.comments ?? []) as IToken[];
  const tokens = [...lexed.tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset);
  const userFunctions = new Set<string>();
  tokens.forEach((t, k) => {
    // `name = function(`: a user function definition.
    if (tokenMatcher(t, Identifier) && tokens[k + 1]?.image === "=" && tokens[k + 2]?.image === "function") userFunctions.add(t.image);
  });
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  const emit = (line: number, char: number, length: number, type: TokenType, builtin: boolean) => {
    if (length <= 0) return;
    data.push(line - lastLine, line === lastLine ? char - lastChar : char, length, TOKEN_TYPES.indexOf(type), builtin ? 1 : 0);
    lastLine = line;
    lastChar = char;
  };
  tokens.forEach((token, k) => {
    const kind = comments.includes(token) ? { type: "comment" as const } : classify(token, tokens[k - 1], tokens[k + 1], userFunctions);
    if (!kind) return;
    const lines = token.image.split("\n");
    let line = token.startLine! - 1;
    let char = token.startColumn! - 1;
    for (const part of lines) {
      emit(line, char, part.length, kind.type, "builtin" in kind && kind.builtin === true);
      line++;
      char = 0;
    }
  });
  return data;
}
