/** Syntax error messages in words a person uses: "expected ')' but found 'x'". */
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from "chevrotain";

/** What each grammar rule stands for, when it could not be matched. */
const ruleDescriptions: Record<string, string> = {
  expression: "an expression",
  prefixExpression: "an expression",
  powerExpression: "an expression",
  statement: "a statement",
  body: "a statement or a '{' block",
  dataIdentifier: "a variable name",
  typeSpec: "a type such as double or matrix[double]",
  iterablePredicate: "a range such as 1:n or seq(from, to, by)",
  commandLineParameter: "a $parameter",
  functionDefinition: "'function'",
  forStatement: "'for' or 'parfor'",
};

function describe(token: IToken | undefined): string {
  if (!token || token.tokenType === EOF) return "the end of the file";
  const image = token.image.length > 30 ? token.image.slice(0, 27) + "..." : token.image;
  return `'${image}'`;
}

function label(type: TokenType): string {
  return type.LABEL ?? type.name;
}

export const syntaxErrorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    return `expected ${label(expected)} but found ${describe(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `unexpected ${describe(firstRedundant)}`;
  },
  buildNoViableAltMessage({ actual, ruleName }) {
    const wanted = ruleDescriptions[ruleName] ?? "something else";
    return `expected ${wanted} but found ${describe(actual[0])}`;
  },
  buildEarlyExitMessage({ actual, ruleName }) {
    const wanted = ruleDescriptions[ruleName] ?? "something else";
    return `expected ${wanted} but found ${describe(actual[0])}`;
  },
};
