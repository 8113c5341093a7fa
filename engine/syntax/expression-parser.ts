/**
 * Expression rules of the DML parser, with SystemDS's precedence (highest first):
 * `^` (right), unary `-`/`+`, `%*%`, `%/%` `%%`, `*` `/`, `+` `-`, comparisons,
 * `!`, `&` `&&`, `|` `||` (levels in `binaryPrecedence`). A prefix operator parses its operand at its own
 * level, as ANTLR does, so `-2^2` is `-(2^2)` and `!a == b` is `!(a == b)`,
 * while `a == !b` still parses.
 */
import {
  EmbeddedActionsParser,
  EOF,
  type IOrAlt,
  type IRuleConfig,
  type IToken,
  type ParserMethod,
  type TokenType,
  tokenMatcher,
} from "chevrotain";
import type * as A from "./ast";
import { decodeNumber, decodeString } from "./literals";
import { Level, prefixOperandLevels } from "./precedence";
import { afterTokenRange, spanRange, tokenRange } from "./ranges";
import * as T from "./tokens";

export interface IndexSuffix {
  rows?: A.IndexRange | undefined;
  cols?: A.IndexRange | undefined;
  hasComma: boolean;
  range: A.Range;
}

export abstract class ExpressionParser extends EmbeddedActionsParser {
  /** The text being parsed, for raw slices such as parfor options. */
  protected sourceText = "";
  /** Diagnostics of the error productions (chevrotain's own errors are collected apart). */
  protected problems: A.Diagnostic[] = [];
  /** `ifdef(...)` nodes of the current statement; only the whole right side of an assignment may be one. */
  protected ifdefs: A.IfdefExpression[] = [];

  /**
   * Every rule gets a recovery value: when chevrotain re-syncs after a syntax
   * error, the rule returns a placeholder of the right shape instead of
   * `undefined`, so the actions of the rules above it keep working.
   */
  protected override RULE<F extends (...args: any[]) => any>(
    name: string,
    implementation: F,
    config: IRuleConfig<ReturnType<F>> = {},
  ): ParserMethod<Parameters<F>, ReturnType<F>> {
    return super.RULE(name, implementation, { recoveryValueFunc: () => this.recoveryValue(name) as ReturnType<F>, ...config });
  }

  /** The placeholder a rule returns after a syntax error (see RULE). */
  protected recoveryValue(ruleName: string): unknown {
    const range = this.errorExpression().range;
    const name: A.Identifier = { kind: "identifier", name: "", range };
    switch (ruleName) {
      case "commandLineParameter":
        return { kind: "parameter", name: "", positional: false, range };
      case "dataIdentifier":
      case "reservedWordAsName":
        return name;
      case "callRest":
        return { kind: "call", callee: name, args: [], range };
      case "argument":
        return { value: this.errorExpression(), range };
      case "indexRest":
        return { kind: "index", target: name, hasComma: false, range };
      case "indexSuffix":
        return { hasComma: false, range };
      case "indexRange":
        return { lower: this.errorExpression() };
      case "misplacedIndex":
        return undefined;
      case "ifdefExpression":
        return { kind: "ifdef", parameter: name, defaultValue: this.errorExpression(), range };
      default:
        return this.errorExpression();
    }
  }

  private readonly alternativeCache = new Map<string, IOrAlt<unknown>[]>();

  /**
   * The alternatives of a hot `OR` whose closures use no locals, built once:
   * chevrotain's advice for speed (no closures allocated per call).
   */
  protected alternatives<T>(key: string, build: () => IOrAlt<T>[]): IOrAlt<T>[] {
    let cached = this.alternativeCache.get(key);
    if (!cached) {
      cached = build();
      this.alternativeCache.set(key, cached);
    }
    return cached as IOrAlt<T>[];
  }

  protected report(range: A.Range, message: string, code = "syntax", severity: A.Severity = "error"): void {
    this.problems.push({ severity, message, range, code });
  }

  /** The range from `start` to the end of the last consumed token. */
  protected rangeFrom(start: A.Range | IToken): A.Range {
    const first = "start" in start ? start : tokenRange(start);
    return spanRange(first, tokenRange(this.LA(0)));
  }

  protected is(k: number, type: TokenType): boolean {
    return tokenMatcher(this.LA(k), type);
  }

  /** Index k past the bracket or parenthesis that opens at LA(k), or -1 if it is never closed. */
  protected skipBalanced(k: number): number {
    let depth = 0;
    for (let i = k; ; i++) {
      const type = this.LA(i).tokenType;
      if (type === EOF) return -1;
      if (type === T.LBracket || type === T.LParen || type === T.LCurly) depth++;
      else if (type === T.RBracket || type === T.RParen || type === T.RCurly) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
  }

  /** `[a, b] = f(...)` starts at LA(k): a bracket whose match is followed by `=` or `<-`. */
  protected startsMultiAssignment(k: number): boolean {
    if (!this.is(k, T.LBracket)) return false;
    const after = this.skipBalanced(k);
    return after > 0 && (this.is(after, T.Equals) || this.is(after, T.LeftArrow));
  }

  // ------------------------------------------------------------- precedence

  /**
   * Precedence climbing over the left-associative infix levels: operands are
   * power expressions; an operator of level `l >= minLevel` takes as its right
   * operand everything that binds tighter than `l`. One rule for all levels
   * keeps the parser shallow on deeply nested scripts.
   */
  public expression = this.RULE("expression", (minLevel: number = Level.Or): A.Expression => {
    let left = this.SUBRULE(this.powerExpression);
    this.MANY({
      GATE: () => (T.binaryPrecedence.get(this.LA(1).tokenType) ?? 0) >= minLevel,
      DEF: () => {
        const op = this.CONSUME(T.BinaryOperator);
        const right = this.SUBRULE2(this.expression, { ARGS: [(T.binaryPrecedence.get(op.tokenType) ?? 0) + 1] });
        left = this.ACTION(() => this.binary(op, left, right));
      },
    });
    return left;
  });

  private powerExpression = this.RULE("powerExpression", (): A.Expression => {
    const base = this.SUBRULE(this.prefixExpression);
    let result = base;
    this.OPTION(() => {
      const op = this.CONSUME(T.Power);
      const exponent = this.SUBRULE(this.powerExpression);
      result = this.ACTION(() => this.binary(op, base, exponent));
    });
    return result;
  });

  /** A prefix operator and its operand, or a primary (one rule, to keep nesting shallow). */
  private prefixExpression = this.RULE("prefixExpression", (): A.Expression =>
    this.OR(this.alternatives("prefixExpression", () => [
      {
        ALT: () => {
          const op = this.CONSUME(T.AdditiveOperator);
          const operand = this.SUBRULE(this.powerExpression);
          return this.ACTION(() => this.unary(op, operand));
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(T.Not);
          const operand = this.SUBRULE(this.expression, { ARGS: [prefixOperandLevels["!"]] });
          return this.ACTION(() => this.unary(op, operand));
        },
      },
      // Primaries.
      { ALT: () => this.numberLiteral(this.CONSUME(T.IntegerLiteral)) },
      { ALT: () => this.numberLiteral(this.CONSUME(T.DoubleLiteral)) },
      { ALT: () => this.stringLiteral(this.CONSUME(T.StringLiteral)) },
      { ALT: () => this.stringLiteral(this.CONSUME(T.BadStringLiteral)) },
      { ALT: () => this.booleanLiteral(this.CONSUME(T.keyword("TRUE")), true) },
      { ALT: () => this.booleanLiteral(this.CONSUME(T.keyword("FALSE")), false) },
      { ALT: () => this.SUBRULE(this.parenthesized) },
      { ALT: () => this.SUBRULE(this.expressionList) },
      { ALT: () => this.SUBRULE(this.commandLineParameter) },
      { ALT: () => this.SUBRULE(this.nameExpression) },
      { ALT: () => this.SUBRULE(this.ifdefExpression) },
      { ALT: () => this.SUBRULE(this.reservedWordAsName) },
    ])),
  );

  /** The inner expression, its range widened to the parentheses (so an enclosing operator's range covers them). */
  private parenthesized = this.RULE("parenthesized", (): A.Expression => {
    const open = this.CONSUME(T.LParen);
    const inner = this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
    const result = this.ACTION(() => ({ ...inner, range: this.rangeFrom(open) }));
    this.SUBRULE(this.misplacedIndex);
    return result;
  });

  private expressionList = this.RULE("expressionList", (): A.Expression => {
    const open = this.CONSUME(T.LBracket);
    const items: A.Expression[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: T.Comma,
      DEF: () => {
        const item = this.SUBRULE(this.expression);
        this.ACTION(() => items.push(item));
      },
    });
    this.CONSUME(T.RBracket);
    return this.ACTION(() => ({ kind: "list", items, range: this.rangeFrom(open) }));
  });

  protected commandLineParameter = this.RULE("commandLineParameter", (): A.CommandLineParameter => {
    const token = this.OR([{ ALT: () => this.CONSUME(T.NamedParameter) }, { ALT: () => this.CONSUME(T.PositionalParameter) }]);
    return this.ACTION(() => ({
      kind: "parameter",
      name: token.image.slice(1),
      positional: token.tokenType === T.PositionalParameter,
      range: tokenRange(token),
    }));
  });

  /** A name, a call `f(...)` or an indexed name `X[...]`. */
  private nameExpression = this.RULE("nameExpression", (): A.Expression => {
    const name = this.CONSUME(T.Identifier);
    let result: A.Expression | undefined;
    this.OPTION({
      GATE: () => this.is(1, T.LParen) || !this.startsMultiAssignment(1),
      DEF: () => {
        result = this.OR([
          { ALT: () => this.SUBRULE(this.callRest, { ARGS: [name] }) },
          { ALT: () => this.SUBRULE(this.indexRest, { ARGS: [name] }) },
        ]);
      },
    });
    return this.ACTION(() => result ?? this.identifier(name));
  });

  /** The arguments after a callee name, then SystemDS's optional `;` run. */
  protected callRest = this.RULE("callRest", (callee: IToken): A.CallExpression => {
    const args: A.Argument[] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const arg = this.SUBRULE(this.argument);
        this.ACTION(() => args.push(arg));
      },
    });
    this.CONSUME(T.RParen);
    this.MANY(() => this.CONSUME(T.Semicolon));
    const call = this.ACTION((): A.CallExpression => ({
      kind: "call",
      callee: this.identifier(callee),
      args,
      range: this.rangeFrom(callee),
    }));
    this.SUBRULE(this.misplacedIndex);
    return call;
  });

  private argument = this.RULE("argument", (): A.Argument => {
    let name: IToken | undefined;
    this.OPTION({
      GATE: () => this.is(2, T.Equals),
      DEF: () => {
        name = this.CONSUME(T.Identifier);
        this.CONSUME(T.Equals);
      },
    });
    const value = this.SUBRULE(this.expression);
    return this.ACTION((): A.Argument => {
      if (!name) return { value, range: value.range };
      return { name: name.image, value, range: spanRange(tokenRange(name), value.range) };
    });
  });

  protected indexRest = this.RULE("indexRest", (target: IToken): A.IndexExpression => {
    const suffix = this.SUBRULE(this.indexSuffix);
    return this.ACTION(() => this.indexExpression(this.identifier(target), suffix));
  });

  /** `[rows, cols]` where either part may be empty and each is `e` or `e:e`. */
  protected indexSuffix = this.RULE("indexSuffix", (): IndexSuffix => {
    const open = this.CONSUME(T.LBracket);
    let rows: A.IndexRange | undefined;
    let cols: A.IndexRange | undefined;
    let hasComma = false;
    this.OPTION(() => {
      rows = this.SUBRULE(this.indexRange);
    });
    this.OPTION2(() => {
      this.CONSUME(T.Comma);
      hasComma = true;
      this.OPTION3(() => {
        cols = this.SUBRULE2(this.indexRange);
      });
    });
    this.CONSUME(T.RBracket);
    return this.ACTION(() => ({ rows, cols, hasComma, range: this.rangeFrom(open) }));
  });

  private indexRange = this.RULE("indexRange", (): A.IndexRange => {
    const lower = this.SUBRULE(this.expression);
    let upper: A.Expression | undefined;
    this.OPTION(() => {
      this.CONSUME(T.Colon);
      upper = this.SUBRULE2(this.expression);
    });
    return this.ACTION(() => (upper ? { lower, upper } : { lower }));
  });

  /** `f(x)[1, 1]` and `(A + B)[1, 1]`: SystemDS can index only names. */
  private misplacedIndex = this.RULE("misplacedIndex", (): void => {
    this.OPTION({
      GATE: () =>
        this.is(1, T.LBracket) && this.LA(1).startLine === this.LA(0).endLine && !this.startsMultiAssignment(1),
      DEF: () => {
        const suffix = this.SUBRULE(this.indexSuffix);
        this.ACTION(() =>
          this.report(
            suffix.range,
            "only a variable can be indexed: assign this expression to a variable first, then index the variable",
            "index-non-variable",
          ),
        );
      },
    });
  });

  /** `ifdef($p, default)`; whether it stands where it may is checked per statement. */
  protected ifdefExpression = this.RULE("ifdefExpression", (): A.IfdefExpression => {
    const start = this.CONSUME(T.keyword("ifdef"));
    this.CONSUME(T.LParen);
    const parameter = this.SUBRULE(this.dataIdentifier);
    this.CONSUME(T.Comma);
    const defaultValue = this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
    return this.ACTION(() => {
      if (parameter.kind !== "parameter") {
        this.report(parameter.range, "the first argument of ifdef must be a $parameter, such as $X", "ifdef-parameter");
      }
      const node: A.IfdefExpression = { kind: "ifdef", parameter, defaultValue, range: this.rangeFrom(start) };
      this.ifdefs.push(node);
      return node;
    });
  });

  /** What may stand left of `=`: `x`, `X[i, j]` or `$x` (an error reported by the statement). */
  protected dataIdentifier = this.RULE("dataIdentifier", (): A.DataIdentifier =>
    this.OR([
      { ALT: () => this.SUBRULE(this.commandLineParameter) },
      {
        ALT: () => {
          const name = this.CONSUME(T.Identifier);
          let index: A.IndexExpression | undefined;
          this.OPTION(() => {
            index = this.SUBRULE(this.indexRest, { ARGS: [name] });
          });
          return this.ACTION(() => index ?? this.identifier(name));
        },
      },
      {
        ALT: () => {
          const name = this.SUBRULE(this.reservedWordAsName);
          let index: A.IndexExpression | undefined;
          this.OPTION2(() => {
            const suffix = this.SUBRULE(this.indexSuffix);
            index = this.ACTION(() => this.indexExpression(name, suffix));
          });
          return this.ACTION(() => index ?? name);
        },
      },
    ]),
  );

  /** A keyword where a name belongs (`in = 1`): reported, then read as that name so parsing goes on. */
  protected reservedWordAsName = this.RULE("reservedWordAsName", (): A.Identifier => {
    const token = this.CONSUME(T.NamelikeKeyword);
    return this.ACTION(() => {
      this.report(
        tokenRange(token),
        `'${token.image}' is a reserved word in DML and cannot be used as a name`,
        "reserved-word",
      );
      return this.identifier(token);
    });
  });

  // ------------------------------------------------------------- node makers

  protected identifier(token: IToken): A.Identifier {
    return { kind: "identifier", name: token.image, range: tokenRange(token) };
  }

  /** `target[rows, cols]`: an omitted part is left out of the node. */
  private indexExpression(target: A.Identifier, suffix: IndexSuffix): A.IndexExpression {
    return {
      kind: "index",
      target,
      ...(suffix.rows ? { rows: suffix.rows } : {}),
      ...(suffix.cols ? { cols: suffix.cols } : {}),
      hasComma: suffix.hasComma,
      range: spanRange(target.range, suffix.range),
    };
  }

  protected errorExpression(): A.ErrorExpression {
    const token = this.LA(1);
    const range = token.tokenType === EOF ? afterTokenRange(this.LA(0)) : tokenRange(token);
    return { kind: "error", range };
  }

  private binary(op: IToken, left: A.Expression, right: A.Expression): A.BinaryExpression {
    if (op.tokenType === T.AndAnd || op.tokenType === T.OrOr) {
      // SystemDS's grammar accepts '&&' and '||' (BooleanAndExpression/BooleanOrExpression): valid, but no short-circuit.
      const single = op.image[0];
      this.report(
        tokenRange(op),
        `'${op.image}' works like '${single}' in DML: both sides are always evaluated (it never short-circuits)`,
        "doubled-logical-operator",
        "hint",
      );
    }
    return { kind: "binary", op: op.image as A.BinaryOperator, left, right, range: spanRange(left.range, right.range) };
  }

  private unary(op: IToken, operand: A.Expression): A.UnaryExpression {
    return { kind: "unary", op: op.image as A.UnaryOperator, operand, range: spanRange(tokenRange(op), operand.range) };
  }

  private numberLiteral(token: IToken): A.NumberLiteral {
    return this.ACTION(() => {
      const decoded = decodeNumber(token.image, token.tokenType === T.IntegerLiteral);
      if (decoded.problem) this.report(tokenRange(token), decoded.problem, "number-literal");
      return { kind: "number", text: token.image, value: decoded.value, isInteger: decoded.isInteger, range: tokenRange(token) };
    });
  }

  private stringLiteral(token: IToken): A.StringLiteral {
    return this.ACTION(() => ({ kind: "string", value: decodeString(token.image), range: tokenRange(token) }));
  }

  private booleanLiteral(token: IToken, value: boolean): A.BooleanLiteral {
    return this.ACTION(() => ({ kind: "boolean", value, range: tokenRange(token) }));
  }
}
