/**
 * Statement rules of the DML parser (SystemDS `Dml.g4`), with error
 * productions for the mistakes people make, so that each gets one clear
 * diagnostic and parsing goes on with the rest of the file.
 */
import { EOF, type IToken, type TokenType } from "chevrotain";
import type * as A from "./ast";
import { decodeString } from "./literals";
import { ExpressionParser } from "./expression-parser";
import { syntaxErrorMessages } from "./syntax-error-messages";
import { tokenRange } from "./ranges";
import * as T from "./tokens";

const dataTypeNames = new Set(["matrix", "Matrix", "frame", "Frame", "list", "List", "scalar", "Scalar"]);

/** A statement or `{ ... }` body, and whether it was braced (for the `}; else` rule). */
interface Body {
  statements: A.Statement[];
  braced: boolean;
}

/** Tokens after which an expression goes on: a bare `x` followed by one of these is an expression, not a target. */
const binaryOperatorTypes: TokenType[] = [T.Power, T.BinaryOperator];

export class DmlParser extends ExpressionParser {
  constructor() {
    super(T.parserVocabulary, { recoveryEnabled: true, maxLookahead: 1, errorMessageProvider: syntaxErrorMessages });
    this.performSelfAnalysis();
  }

  /** Ends unclosed blocks by indentation (the second pass after an unclosed '{'). */
  private useIndentation = false;

  /** Resets the per-parse state. */
  startParse(text: string, tokens: IToken[], useIndentation = false): void {
    this.useIndentation = useIndentation;
    this.sourceText = text;
    this.problems = [];
    this.ifdefs = [];
    this.input = tokens;
  }

  protected override recoveryValue(ruleName: string): unknown {
    const range = this.errorExpression().range;
    switch (ruleName) {
      case "program":
      case "parameterList":
      case "returnList":
      case "implementationList":
        return [];
      case "body":
        return { statements: [], braced: false };
      case "block":
        return { statements: [], braced: true };
      case "iterablePredicate":
        return { kind: "range", from: this.errorExpression(), to: this.errorExpression(), range };
      case "loopOption":
        return { name: "", value: this.errorExpression(), text: "", range };
      case "typeSpec":
        return { valueType: "unknown", range };
      case "parameter":
        return { type: { valueType: "unknown", range }, name: { kind: "identifier", name: "", range }, range };
      case "functionDefinition":
      case "statement":
      case "assignment":
      case "multiAssignment":
      case "callStatement":
      case "expressionStatement":
      case "strayElse":
      case "unexpectedToken":
      case "ifStatement":
      case "forStatement":
      case "whileStatement":
      case "sourceStatement":
      case "setwdStatement":
      case "chainedAssignment":
      case "closingCurly":
        return undefined;
      default:
        return super.recoveryValue(ruleName);
    }
  }

  takeProblems(): A.Diagnostic[] {
    return this.problems;
  }

  public program = this.RULE("program", (): A.Statement[] => {
    const body: A.Statement[] = [];
    this.MANY({
      GATE: () => this.LA(1).tokenType !== EOF,
      DEF: () => {
        const statement = this.OR([
          { GATE: () => this.startsFunctionDefinition(), ALT: () => this.SUBRULE(this.functionDefinition) },
          { ALT: () => this.SUBRULE(this.statement) },
        ]);
        this.ACTION(() => statement && body.push(statement));
      },
    });
    return body;
  });

  /** `name = function` or `name = externalFunction` at LA(1). */
  private startsFunctionDefinition(): boolean {
    return (
      this.is(1, T.Identifier) &&
      (this.is(2, T.Equals) || this.is(2, T.LeftArrow)) &&
      (this.is(3, T.keyword("function")) || this.is(3, T.keyword("externalFunction")))
    );
  }

  // ------------------------------------------------------------- statements

  private statement = this.RULE(
    "statement",
    (): A.Statement | undefined => {
      const statement = this.OR(this.alternatives("statement", () => [
        { ALT: () => this.SUBRULE(this.sourceStatement) },
        { ALT: () => this.SUBRULE(this.setwdStatement) },
        { ALT: () => this.SUBRULE(this.ifStatement) },
        { ALT: () => this.SUBRULE(this.forStatement) },
        { ALT: () => this.SUBRULE(this.whileStatement) },
        {
          GATE: () => this.startsFunctionDefinition(),
          ALT: () => {
            const definition = this.SUBRULE(this.functionDefinition) as A.FunctionDefinition | A.ExternalFunctionDefinition | undefined;
            this.ACTION(() =>
              definition && this.report(definition.name.range, "functions can only be defined at the top level of a file, not inside a block", "nested-function"),
            );
            return definition;
          },
          IGNORE_AMBIGUITIES: true,
        },
        { GATE: () => this.startsMultiAssignment(1), ALT: () => this.SUBRULE(this.multiAssignment) },
        { GATE: () => this.startsCallStatement(), ALT: () => this.SUBRULE(this.callStatement), IGNORE_AMBIGUITIES: true },
        { GATE: () => this.startsAssignment(), ALT: () => this.SUBRULE(this.assignment), IGNORE_AMBIGUITIES: true },
        { ALT: () => this.SUBRULE(this.strayElse) },
        { ALT: () => this.SUBRULE(this.expressionStatement), IGNORE_AMBIGUITIES: true },
        { ALT: () => this.SUBRULE(this.unexpectedToken), IGNORE_AMBIGUITIES: true },
      ]));
      this.ACTION(() => this.checkIfdefPlacement(statement));
      return statement;
    },
  );

  /** `f(...)` at LA(1), not followed by an operator that would make it part of an expression. */
  private startsCallStatement(): boolean {
    if (!this.is(1, T.Identifier) || !this.is(2, T.LParen)) return false;
    const after = this.skipBalanced(2);
    return after < 0 || !binaryOperatorTypes.some((type) => this.is(after, type));
  }

  /** `x =`, `x <-`, `x +=`, `X[...] =`, `$x =` at LA(1) (a keyword as the name is reported later). */
  private startsAssignment(): boolean {
    const first = this.LA(1).tokenType;
    const namelike = first === T.Identifier || first === T.NamedParameter || first === T.PositionalParameter || this.is(1, T.NamelikeKeyword);
    if (!namelike) return false;
    let next = 2;
    if (this.is(2, T.LBracket)) {
      next = this.skipBalanced(2);
      if (next < 0) return first === T.Identifier;
    }
    return this.is(next, T.Equals) || this.is(next, T.LeftArrow) || this.is(next, T.PlusAssign);
  }

  private assignment = this.RULE("assignment", (): A.Statement => {
    const target = this.SUBRULE(this.dataIdentifier);
    const op = this.OR([
      { ALT: () => this.CONSUME(T.Equals) },
      { ALT: () => this.CONSUME(T.LeftArrow) },
      { ALT: () => this.CONSUME(T.PlusAssign) },
    ]);
    const value = this.SUBRULE(this.expression);
    this.MANY(() => this.CONSUME(T.Semicolon));
    this.SUBRULE(this.chainedAssignment);
    return this.ACTION((): A.AssignmentStatement => {
      if (target.kind === "parameter") {
        this.report(target.range, `cannot assign to the command-line parameter $${target.name}`, "assign-parameter");
      }
      if (value.kind === "ifdef" && op.tokenType === T.PlusAssign) {
        this.report(value.range, "ifdef(...) can only follow '=' or '<-'", "ifdef-placement");
      }
      return { kind: "assign", target, op: op.image as A.AssignmentOperator, value, range: this.rangeFrom(target.range) };
    });
  });

  /** `x = y = 3`: reported once, the extra `= 3` is read and dropped. */
  private chainedAssignment = this.RULE("chainedAssignment", (): void => {
    this.OPTION(() => {
      const op = this.OR([{ ALT: () => this.CONSUME(T.Equals) }, { ALT: () => this.CONSUME(T.LeftArrow) }]);
      this.SUBRULE(this.expression);
      this.ACTION(() =>
        this.report(
          tokenRange(op),
          "chained assignment is not allowed in DML: assign each variable in its own statement",
          "chained-assignment",
        ),
      );
    });
  });

  private multiAssignment = this.RULE("multiAssignment", (): A.Statement => {
    const open = this.CONSUME(T.LBracket);
    const targets: A.DataIdentifier[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: T.Comma,
      DEF: () => {
        const target = this.SUBRULE(this.dataIdentifier);
        this.ACTION(() => targets.push(target));
      },
    });
    this.CONSUME(T.RBracket);
    const op = this.OR([{ ALT: () => this.CONSUME(T.Equals) }, { ALT: () => this.CONSUME(T.LeftArrow) }]);
    const value = this.SUBRULE(this.expression);
    this.MANY(() => this.CONSUME(T.Semicolon));
    return this.ACTION((): A.MultiAssignmentStatement => {
      for (const target of targets) {
        if (target.kind !== "identifier") {
          this.report(target.range, "the targets of a multi-assignment must be plain variable names", "multi-assign-target");
        }
      }
      let call: A.CallExpression;
      if (value.kind === "call") call = value;
      else {
        if (value.kind !== "error") {
          this.report(value.range, "the right side of a multi-assignment must be a single function call", "multi-assign-value");
        }
        call = { kind: "call", callee: { kind: "identifier", name: "", range: value.range }, args: [], range: value.range };
      }
      return { kind: "multiAssign", targets, op: op.image as "=" | "<-", call, range: this.rangeFrom(open) };
    });
  });

  private callStatement = this.RULE("callStatement", (): A.Statement => {
    const name = this.CONSUME(T.Identifier);
    const call = this.SUBRULE(this.callRest, { ARGS: [name] });
    this.MANY(() => this.CONSUME(T.Semicolon));
    return this.ACTION((): A.CallStatement => ({ kind: "callStatement", call, range: call.range }));
  });

  /** `x + 1` where a statement belongs: the whole expression is read and reported. */
  private expressionStatement = this.RULE("expressionStatement", (): A.Statement | undefined => {
    const value = this.SUBRULE(this.expression);
    this.MANY(() => this.CONSUME(T.Semicolon));
    this.ACTION(() => {
      if (value.kind === "error" || this.errorReportedOnLine(value.range.start.line)) return;
      this.report(
        value.range,
        "this expression is not a statement: assign its value to a variable (x = ...) or print it",
        "expression-statement",
      );
    });
    return undefined;
  });

  private strayElse = this.RULE("strayElse", (): undefined => {
    const token = this.CONSUME(T.keyword("else"));
    this.ACTION(() => this.report(tokenRange(token), "'else' without a matching 'if'", "stray-else"));
    return undefined;
  });

  /** Anything that cannot start a statement; skipped up to the next token that can. */
  private unexpectedToken = this.RULE("unexpectedToken", (): undefined => {
    const token = this.CONSUME(T.AnyToken);
    this.ACTION(() => {
      if (this.errorReportedOnLine(token.startLine! - 1)) return;
      const what = token.tokenType === T.RCurly ? "'}' without a matching '{'" : `unexpected '${token.image}'`;
      this.report(tokenRange(token), `${what}: a statement was expected here`, "unexpected-token");
    });
    return undefined;
  });

  /**
   * Whether an error was reported on this (0-based) line already: what is
   * left of a broken statement on its line is a consequence, not a new error.
   */
  private errorReportedOnLine(line: number): boolean {
    const lastProblem = this.problems[this.problems.length - 1];
    if (lastProblem?.severity === "error" && lastProblem.range.end.line >= line) return true;
    const lastError = this.errors[this.errors.length - 1];
    const token = lastError?.token;
    return token !== undefined && token.startLine !== undefined && !Number.isNaN(token.startLine) && token.startLine - 1 === line;
  }

  private checkIfdefPlacement(statement: A.Statement | undefined): void {
    for (const ifdef of this.ifdefs) {
      if (statement?.kind === "assign" && statement.value === ifdef) continue;
      this.report(ifdef.range, "ifdef(...) must be the whole right side of an assignment: x = ifdef($p, default)", "ifdef-placement");
    }
    this.ifdefs = [];
  }

  // ---------------------------------------------------------- control flow

  private ifStatement = this.RULE("ifStatement", (): A.Statement => {
    const start = this.CONSUME(T.keyword("if"));
    this.CONSUME(T.LParen);
    const condition = this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
    const thenBody = this.SUBRULE(this.body);
    let elseBody: Body | undefined;
    this.OPTION({
      GATE: () => this.is(1, T.keyword("else")) || (thenBody.braced && this.semicolonsThenElse()),
      DEF: () => {
        this.MANY(() => {
          const semicolon = this.CONSUME(T.Semicolon);
          this.ACTION(() =>
            this.report(tokenRange(semicolon), "';' is not allowed between '}' and 'else'", "semicolon-before-else"),
          );
        });
        this.CONSUME(T.keyword("else"));
        elseBody = this.SUBRULE2(this.body);
      },
    });
    return this.ACTION((): A.IfStatement => ({
      kind: "if",
      condition,
      thenBody: thenBody.statements,
      ...(elseBody ? { elseBody: elseBody.statements } : {}),
      range: this.rangeFrom(start),
    }));
  });

  private semicolonsThenElse(): boolean {
    let k = 1;
    while (this.is(k, T.Semicolon)) k++;
    return k > 1 && this.is(k, T.keyword("else"));
  }

  private forStatement = this.RULE("forStatement", (): A.Statement => {
    const start = this.OR([{ ALT: () => this.CONSUME(T.keyword("for")) }, { ALT: () => this.CONSUME(T.keyword("parfor")) }]);
    this.CONSUME(T.LParen);
    const variable = this.OR2([
      {
        ALT: () => {
          const token = this.CONSUME(T.Identifier);
          return this.ACTION(() => this.identifier(token));
        },
      },
      { ALT: () => this.SUBRULE(this.reservedWordAsName) },
    ]);
    this.CONSUME(T.keyword("in"));
    const iterable = this.SUBRULE(this.iterablePredicate);
    const options: A.LoopOption[] = [];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      const option = this.SUBRULE(this.loopOption);
      this.ACTION(() => options.push(option));
    });
    this.CONSUME(T.RParen);
    const body = this.SUBRULE(this.body);
    return this.ACTION((): A.ForStatement => ({
      kind: "for",
      parallel: start.image === "parfor",
      variable,
      iterable,
      options,
      body: body.statements,
      range: this.rangeFrom(start),
    }));
  });

  /** `from:to`, where `:` binds loosest, or `seq(from, to[, by])`. */
  private iterablePredicate = this.RULE("iterablePredicate", (): A.IterablePredicate =>
    this.OR([
      {
        GATE: () => this.startsSeqIterable(),
        ALT: () => {
          const callee = this.CONSUME(T.Identifier);
          this.CONSUME(T.LParen);
          const from = this.SUBRULE(this.expression);
          this.CONSUME(T.Comma);
          const to = this.SUBRULE2(this.expression);
          let by: A.Expression | undefined;
          this.OPTION(() => {
            this.CONSUME2(T.Comma);
            by = this.SUBRULE3(this.expression);
          });
          this.CONSUME(T.RParen);
          return this.ACTION((): A.IterablePredicate => {
            if (callee.image !== "seq") {
              this.report(tokenRange(callee), `a loop can iterate over from:to or seq(from, to, by), not ${callee.image}(...)`, "loop-iterable");
            }
            return { kind: "seq", callee: this.identifier(callee), from, to, ...(by ? { by } : {}), range: this.rangeFrom(callee) };
          });
        },
        IGNORE_AMBIGUITIES: true,
      },
      {
        ALT: () => {
          const from = this.SUBRULE4(this.expression);
          this.CONSUME(T.Colon);
          const to = this.SUBRULE5(this.expression);
          return this.ACTION((): A.IterablePredicate => ({ kind: "range", from, to, range: this.rangeFrom(from.range) }));
        },
      },
    ]),
  );

  /** `name(...)` that ends the iterable (followed by `)` or `, option`): SystemDS's seq form. */
  private startsSeqIterable(): boolean {
    if (!this.is(1, T.Identifier) || !this.is(2, T.LParen)) return false;
    const after = this.skipBalanced(2);
    return after > 0 && (this.is(after, T.RParen) || this.is(after, T.Comma));
  }

  private loopOption = this.RULE("loopOption", (): A.LoopOption => {
    const name = this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    const first = this.ACTION(() => this.LA(1));
    const value = this.SUBRULE(this.expression);
    return this.ACTION(() => {
      const text = this.sourceText.slice(first.startOffset, this.LA(0).endOffset! + 1);
      return { name: name.image, value, text, range: this.rangeFrom(name) };
    });
  });

  private whileStatement = this.RULE("whileStatement", (): A.Statement => {
    const start = this.CONSUME(T.keyword("while"));
    this.CONSUME(T.LParen);
    const condition = this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
    const body = this.SUBRULE(this.body);
    return this.ACTION((): A.WhileStatement => ({ kind: "while", condition, body: body.statements, range: this.rangeFrom(start) }));
  });

  /** One statement, or `{ statements }`, each followed by any number of `;`. */
  private body = this.RULE("body", (): Body =>
    this.OR({
      // One token decides: '{' always opens a block (even one never closed).
      MAX_LOOKAHEAD: 1,
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.block) },
        {
          ALT: () => {
            const statement = this.SUBRULE(this.statement);
            this.MANY(() => this.CONSUME(T.Semicolon));
            return this.ACTION(() => ({ statements: statement ? [statement] : [], braced: false }));
          },
        },
      ],
    }),
  );

  private block = this.RULE("block", (open?: IToken): Body => {
    open = this.CONSUME(T.LCurly);
    const opening = open;
    const statements: A.Statement[] = [];
    this.MANY({
      GATE: () => !this.is(1, T.RCurly) && !this.blockEndsBefore(opening),
      DEF: () => {
        const statement = this.SUBRULE(this.statement);
        this.MANY2(() => this.CONSUME(T.Semicolon));
        this.ACTION(() => statement && statements.push(statement));
      },
    });
    this.SUBRULE(this.closingCurly, { ARGS: [open] });
    return { statements, braced: true };
  });

  /**
   * When a block opened by `open` was never closed, where it ends: at the end
   * of the file, or at a function definition at the start of a line. In the
   * second pass after an unclosed '{' (`useIndentation`), also at a line that
   * is indented no deeper than the line of `open`, so the error lands on the
   * brace that lacks its '}' rather than on an outer one.
   */
  private blockEndsBefore(open: IToken): boolean {
    const next = this.LA(1);
    if (next.tokenType === EOF) return true;
    if (this.startsFunctionDefinition() && next.startColumn === 1) return true;
    if (!this.useIndentation || next.startLine === this.LA(0).endLine) return false;
    const indentation = this.indentationOfLine(open.startOffset);
    return next.tokenType === T.RCurly ? next.startColumn! - 1 < indentation : next.startColumn! - 1 <= indentation;
  }

  private indentationOfLine(offset: number): number {
    let start = offset;
    while (start > 0 && this.sourceText[start - 1] !== "\n") start--;
    let end = start;
    while (this.sourceText[end] === " " || this.sourceText[end] === "\t") end++;
    return end - start;
  }

  private closingCurly = this.RULE("closingCurly", (open: IToken): void => {
    this.OR([
      { GATE: () => !this.blockEndsBefore(open), ALT: () => this.CONSUME(T.RCurly) },
      {
        ALT: () =>
          this.ACTION(() =>
            this.report(tokenRange(open), `'{' opened at line ${open.startLine} is never closed: a '}' is missing`, "unclosed-brace"),
          ),
        IGNORE_AMBIGUITIES: true,
      },
    ]);
  });

  // ------------------------------------------------------------- functions

  private functionDefinition = this.RULE("functionDefinition", (): A.FunctionDefinition | A.ExternalFunctionDefinition => {
    const nameToken = this.CONSUME(T.Identifier);
    this.OR([{ ALT: () => this.CONSUME(T.Equals) }, { ALT: () => this.CONSUME(T.LeftArrow) }]);
    return this.OR2([
      {
        ALT: () => {
          this.CONSUME(T.keyword("function"));
          const params = this.SUBRULE(this.parameterList, { ARGS: [true] });
          const returns = this.SUBRULE(this.returnList);
          const body = this.SUBRULE(this.block);
          this.MANY(() => this.CONSUME(T.Semicolon));
          return this.ACTION((): A.FunctionDefinition => ({
            kind: "function",
            name: this.identifier(nameToken),
            params,
            returns,
            body: body.statements,
            range: this.rangeFrom(nameToken),
          }));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.keyword("externalFunction"));
          const params = this.SUBRULE2(this.parameterList, { ARGS: [false] });
          const returns = this.SUBRULE2(this.returnList);
          this.CONSUME(T.keyword("implemented"));
          this.CONSUME(T.keyword("in"));
          const implementation = this.SUBRULE(this.implementationList);
          this.MANY2(() => this.CONSUME2(T.Semicolon));
          return this.ACTION((): A.ExternalFunctionDefinition => {
            const range = this.rangeFrom(nameToken);
            this.report(
              tokenRange(nameToken),
              "externalFunction is no longer supported by SystemDS: this function cannot be called",
              "external-function",
              "warning",
            );
            return { kind: "externalFunction", name: this.identifier(nameToken), params, returns, implementation, range };
          });
        },
      },
    ]);
  });

  private parameterList = this.RULE("parameterList", (withDefaults: boolean): A.Parameter[] => {
    const params: A.Parameter[] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const param = this.SUBRULE(this.parameter, { ARGS: [withDefaults] });
        this.ACTION(() => params.push(param));
      },
    });
    this.CONSUME(T.RParen);
    return params;
  });

  private returnList = this.RULE("returnList", (): A.Parameter[] => {
    let returns: A.Parameter[] = [];
    this.OPTION(() => {
      this.CONSUME(T.keyword("return"));
      returns = this.SUBRULE(this.parameterList, { ARGS: [false] });
    });
    return returns;
  });

  private parameter = this.RULE("parameter", (withDefaults: boolean): A.Parameter => {
    const type = this.SUBRULE(this.typeSpec);
    const name = this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(T.Identifier);
          return this.ACTION(() => this.identifier(token));
        },
      },
      { ALT: () => this.SUBRULE(this.reservedWordAsName) },
    ]);
    let defaultValue: A.Expression | undefined;
    this.OPTION(() => {
      const equals = this.CONSUME(T.Equals);
      defaultValue = this.SUBRULE(this.expression);
      this.ACTION(() => {
        if (!withDefaults) this.report(tokenRange(equals), "only input parameters can have default values", "parameter-default");
      });
    });
    return this.ACTION(() => ({ type, name, ...(defaultValue ? { defaultValue } : {}), range: this.rangeFrom(type.range) }));
  });

  /** `int`, `Double`, `matrix[double]`, `Frame[Unknown]`. */
  private typeSpec = this.RULE("typeSpec", (): A.TypeSpec =>
    this.OR([
      {
        ALT: () => {
          const valueType = this.CONSUME(T.ValueTypeKeyword);
          return this.ACTION(() => ({ valueType: valueType.image, range: tokenRange(valueType) }));
        },
      },
      {
        ALT: () => {
          const dataType = this.CONSUME(T.Identifier);
          let valueType: IToken | undefined;
          this.OPTION(() => {
            this.CONSUME(T.LBracket);
            valueType = this.CONSUME2(T.ValueTypeKeyword);
            this.CONSUME(T.RBracket);
          });
          return this.ACTION((): A.TypeSpec => {
            const range = this.rangeFrom(dataType);
            if (!valueType) {
              const hint = dataType.image === "bool" ? ": did you mean 'boolean'?" : "";
              this.report(range, `unknown type '${dataType.image}'${hint}`, "unknown-type");
              return { valueType: dataType.image, range };
            }
            if (!dataTypeNames.has(dataType.image)) {
              this.report(tokenRange(dataType), `unknown data type '${dataType.image}': expected matrix, frame, list or scalar`, "unknown-type");
            }
            return { dataType: dataType.image, valueType: valueType.image, range };
          });
        },
      },
    ]),
  );

  private implementationList = this.RULE("implementationList", (): A.ExternalFunctionDefinition["implementation"] => {
    const entries: A.ExternalFunctionDefinition["implementation"] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const name = this.CONSUME(T.Identifier);
        this.CONSUME(T.Equals);
        const value = this.CONSUME(T.StringLiteral);
        this.ACTION(() => entries.push({ name: name.image, value: decodeString(value.image), range: this.rangeFrom(name) }));
      },
    });
    this.CONSUME(T.RParen);
    return entries;
  });

  // -------------------------------------------------------- source / setwd

  private sourceStatement = this.RULE("sourceStatement", (): A.Statement => {
    const start = this.CONSUME(T.keyword("source"));
    this.CONSUME(T.LParen);
    const path = this.CONSUME(T.StringLiteral);
    this.CONSUME(T.RParen);
    let namespace: IToken | undefined;
    this.OPTION(() => {
      this.CONSUME(T.keyword("as"));
      namespace = this.CONSUME(T.Identifier);
    });
    this.MANY(() => this.CONSUME(T.Semicolon));
    return this.ACTION((): A.SourceStatement => {
      const file = decodeString(path.image);
      const range = this.rangeFrom(start);
      if (!namespace) {
        this.report(range, "source(...) without 'as name' is rejected by current SystemDS: add 'as name' and call its functions as name::f", "source-namespace", "warning");
      }
      return namespace ? { kind: "source", path: file, namespace: this.identifier(namespace), range } : { kind: "source", path: file, range };
    });
  });

  private setwdStatement = this.RULE("setwdStatement", (): A.Statement => {
    const start = this.CONSUME(T.keyword("setwd"));
    this.CONSUME(T.LParen);
    const path = this.CONSUME(T.StringLiteral);
    this.CONSUME(T.RParen);
    this.MANY(() => this.CONSUME(T.Semicolon));
    return this.ACTION((): A.SetwdStatement => ({ kind: "setwd", path: decodeString(path.image), range: this.rangeFrom(start) }));
  });
}
