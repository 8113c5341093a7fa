/**
 * DML token types, as SystemDS's ANTLR grammar `Dml.g4` defines them.
 *
 * Every token type belongs to the category `AnyToken`, so the parser's
 * error productions can consume "whatever comes next".
 */
import { createToken, Lexer, type TokenType } from "chevrotain";
import type { BinaryOperator as BinaryOperatorText } from "./ast";
import { binaryLevels } from "./precedence";

export const AnyToken = createToken({ name: "AnyToken", pattern: Lexer.NA });

const allTokens: TokenType[] = [];

function token(config: Parameters<typeof createToken>[0]): TokenType {
  const type = createToken({ ...config, categories: [AnyToken] });
  allTokens.push(type);
  return type;
}

// Skipped and side-channel tokens. Comments are kept in a group of their own.
export const WhiteSpace = token({ name: "WhiteSpace", pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, line_breaks: true });
export const LineComment = token({ name: "LineComment", pattern: /#[^\n]*/, group: "comments" });
export const BlockComment = token({
  name: "BlockComment",
  pattern: /\/\*[\s\S]*?\*\//,
  group: "comments",
  line_breaks: true,
});
/** `/*` without a closing `*\/`: runs to the end of the file; reported as an error. */
export const UnterminatedBlockComment = token({
  name: "UnterminatedBlockComment",
  pattern: /\/\*[\s\S]*/,
  group: "problems",
  line_breaks: true,
});

// Literals. A string may span lines; its only escapes are \b \t \n \f \r \" \' \\.
export const StringLiteral = token({
  name: "StringLiteral",
  pattern: /"(?:[^"\\]|\\[btnfr"'\\])*"|'(?:[^'\\]|\\[btnfr"'\\])*'/,
  line_breaks: true,
  label: "a string",
});
/** A string with an unknown escape, or without its closing quote (which then ends at the line end). */
export const BadStringLiteral = token({
  name: "BadStringLiteral",
  pattern: /"(?:[^"\\\n]|\\[^\n])*"?|'(?:[^'\\\n]|\\[^\n])*'?/,
  line_breaks: true,
  label: "a string",
});
export const DoubleLiteral = token({
  name: "DoubleLiteral",
  pattern:
    /\d+\.\d*(?:[eE][+-]?\d+[lL]?)?[lL]?|\d+[eE][+-]?\d+[lL]?[lL]?|\.\d+(?:[eE][+-]?\d+[lL]?)?[lL]?/,
  label: "a number",
});
export const IntegerLiteral = token({ name: "IntegerLiteral", pattern: /\d+[lL]?/, label: "a number" });

export const Identifier = createToken({
  name: "Identifier",
  // The fixed dotted names, then `name` or `ns::name`.
  pattern:
    /as\.(?:scalar|matrix|frame|list|double|integer|logical|boolean)|index\.return|empty\.return|lower\.(?:tail|tri)|upper\.tri|is\.(?:nan|na|infinite)|[A-Za-z][A-Za-z0-9_]*(?:::[A-Za-z][A-Za-z0-9_]*)?/,
  categories: [AnyToken],
  label: "a name",
});

/** Reserved words of the grammar; none of them can name a variable. */
export const keywordNames = [
  "externalFunction",
  "implemented",
  "function",
  "Integer",
  "integer",
  "unknown",
  "Unknown",
  "Boolean",
  "boolean",
  "parfor",
  "return",
  "source",
  "String",
  "string",
  "Double",
  "double",
  "ifdef",
  "setwd",
  "while",
  "FALSE",
  "TRUE",
  "else",
  "for",
  "int",
  "Int",
  "if",
  "in",
  "as",
] as const;
export type KeywordName = (typeof keywordNames)[number];

export const Keyword = createToken({ name: "Keyword", pattern: Lexer.NA });
export const ValueTypeKeyword = createToken({ name: "ValueTypeKeyword", pattern: Lexer.NA });
/** Keywords that never start a statement; met where a name belongs, they are a misused name. */
export const NamelikeKeyword = createToken({ name: "NamelikeKeyword", pattern: Lexer.NA });
const valueTypeNames = new Set(["int", "integer", "string", "boolean", "double", "unknown"]);
const namelikeNames = new Set(["in", "as", "implemented"]);

export const keywords = new Map<KeywordName, TokenType>();
for (const name of keywordNames) {
  const categories = [AnyToken, Keyword];
  if (valueTypeNames.has(name.toLowerCase())) categories.push(ValueTypeKeyword, NamelikeKeyword);
  if (namelikeNames.has(name)) categories.push(NamelikeKeyword);
  const type = createToken({
    name: `Keyword_${name}`,
    pattern: name,
    longer_alt: Identifier,
    categories,
    label: `'${name}'`,
  });
  keywords.set(name, type);
  allTokens.push(type);
}
allTokens.push(Identifier);

export function keyword(name: KeywordName): TokenType {
  return keywords.get(name)!;
}

export const NamedParameter = token({ name: "NamedParameter", pattern: /\$[A-Za-z][A-Za-z0-9_]*/, label: "a $parameter" });
export const PositionalParameter = token({ name: "PositionalParameter", pattern: /\$\d+/, label: "a $parameter" });

// Operators: longest spellings first.
export const LeftArrow = token({ name: "LeftArrow", pattern: "<-", label: "'<-'" });
export const PlusAssign = token({ name: "PlusAssign", pattern: "+=", label: "'+='" });

/** Every infix operator but `^`; its precedence level is in `binaryPrecedence`. */
export const BinaryOperator = createToken({ name: "BinaryOperator", pattern: Lexer.NA, label: "an operator" });
/** `+` and `-`, which are also prefix operators. */
export const AdditiveOperator = createToken({ name: "AdditiveOperator", pattern: Lexer.NA, label: "'+' or '-'" });

/** Precedence level of each infix operator token (`^` is parsed apart: it is right-associative). */
export const binaryPrecedence = new Map<TokenType, number>();

function operator(pattern: string, name: string, extraCategory?: TokenType): TokenType {
  const level = pattern === "^" ? undefined : binaryLevels[pattern as BinaryOperatorText];
  const categories = [AnyToken];
  if (level !== undefined) categories.push(BinaryOperator);
  if (extraCategory) categories.push(extraCategory);
  const type = createToken({ name, pattern, categories, label: `'${pattern}'` });
  if (level !== undefined) binaryPrecedence.set(type, level);
  allTokens.push(type);
  return type;
}
// Longer spellings first.
export const MatMul = operator("%*%", "MatMul");
export const IntDiv = operator("%/%", "IntDiv");
export const Modulus = operator("%%", "Modulus");
export const LessEqual = operator("<=", "LessEqual");
export const GreaterEqual = operator(">=", "GreaterEqual");
export const EqualEqual = operator("==", "EqualEqual");
export const NotEqual = operator("!=", "NotEqual");
export const AndAnd = operator("&&", "AndAnd");
export const OrOr = operator("||", "OrOr");
export const Less = operator("<", "Less");
export const Greater = operator(">", "Greater");
export const And = operator("&", "And");
export const Or = operator("|", "Or");
export const Not = operator("!", "Not");
export const Power = operator("^", "Power");
export const Plus = operator("+", "Plus", AdditiveOperator);
export const Minus = operator("-", "Minus", AdditiveOperator);
export const Star = operator("*", "Star");
export const Slash = operator("/", "Slash");
export const Equals = token({ name: "Equals", pattern: "=", label: "'='" });
export const LParen = token({ name: "LParen", pattern: "(", label: "'('" });
export const RParen = token({ name: "RParen", pattern: ")", label: "')'" });
export const LBracket = token({ name: "LBracket", pattern: "[", label: "'['" });
export const RBracket = token({ name: "RBracket", pattern: "]", label: "']'" });
export const LCurly = token({ name: "LCurly", pattern: "{", label: "'{'" });
export const RCurly = token({ name: "RCurly", pattern: "}", label: "'}'" });
export const Comma = token({ name: "Comma", pattern: ",", label: "','" });
export const Semicolon = token({ name: "Semicolon", pattern: ";", label: "';'" });
export const Colon = token({ name: "Colon", pattern: ":", label: "':'" });

/**
 * The start of a longer token that does not go on (`.` not before a digit,
 * `%` not in `%*%` `%/%` `%%`, `$` not before a name or number). SystemDS's
 * lexer reports it and drops it together with the character after it, so
 * `x = a.b` reads `x = a`; here too, with a warning. Must come last.
 */
export const StrayText = token({ name: "StrayText", pattern: /[.%$][\s\S]?/, group: "problems", line_breaks: true });


/** Lexer order: comments and literals, keywords before names, longer operators first. Characters no token starts with are lexer errors, skipped as SystemDS skips them. */
export const tokenTypes: readonly TokenType[] = allTokens;

/** Every token type the parser knows, the abstract categories included. */
export const parserVocabulary: TokenType[] = [
  ...allTokens,
  AnyToken,
  Keyword,
  ValueTypeKeyword,
  NamelikeKeyword,
  BinaryOperator,
  AdditiveOperator,
];

export const dmlLexer = new Lexer(allTokens as TokenType[], {
  positionTracking: "full",
  ensureOptimizations: false,
});
