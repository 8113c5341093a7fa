// Print → parse round trips: the example scripts, then random expression and
// program ASTs (fast-check). A printed tree must parse back without error
// diagnostics to the same tree (ranges and spellings ignored), and printing
// must be idempotent.
import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import type * as A from "../../engine/syntax/ast";
import { astEquals, stripRanges } from "../../engine/syntax/ast-equals";
import { decodeNumber } from "../../engine/syntax/literals";
import { parse } from "../../engine/syntax/parse";
import { printExpression, printProgram } from "../../engine/syntax/printer";

/** The examples folder, whether this file runs from test/syntax or bundled elsewhere. */
function examplesFolder(): string {
  const candidates = [path.resolve(__dirname, "..", "..", "examples"), path.resolve(process.cwd(), "examples"), "/work/main/examples"];
  const found = candidates.find((folder) => existsSync(folder));
  if (!found) throw new Error(`no examples folder among ${candidates.join(", ")}`);
  return found;
}

function errorsOf(diagnostics: A.Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);
}

describe("round trip of the example scripts", () => {
  const folder = examplesFolder();
  const scripts = readdirSync(folder).filter((name) => name.endsWith(".dml")).sort();
  test("there are example scripts", () => assert.ok(scripts.length >= 10, `${scripts.length} scripts in ${folder}`));
  for (const name of scripts) {
    test(name, () => {
      const { program, diagnostics } = parse(readFileSync(path.join(folder, name), "utf8"));
      assert.deepEqual(errorsOf(diagnostics), []);
      const printed = printProgram(program);
      const again = parse(printed);
      assert.deepEqual(errorsOf(again.diagnostics), [], printed);
      if (!astEquals(again.program, program)) assert.deepStrictEqual(stripRanges(again.program), stripRanges(program));
      assert.equal(printProgram(again.program), printed, "printing is idempotent");
    });
  }
});

// ------------------------------------------------------------------ generators

const zero = { line: 0, character: 0 };
const range: A.Range = { start: zero, end: zero };

const keywords = new Set(
  "if else for parfor while in function externalFunction return implemented source as setwd ifdef TRUE FALSE int integer string boolean double unknown Int Integer String Boolean Double Unknown".split(" "),
);

/** Names that look like keywords or builtins but are plain identifiers. */
const trickyNames = ["ifx", "in1", "TRUEx", "Falsey", "format", "seq", "matrix", "frame", "list", "T", "F", "Inf", "NaN", "pi", "forEach", "asX", "sourced", "a_1"];
const dottedNames = ["as.scalar", "as.matrix", "as.double", "is.na", "is.nan", "index.return", "lower.tail", "upper.tri"];

const randomName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,5}$/).filter((name) => !keywords.has(name));
const plainName = fc.oneof(randomName, fc.constantFrom(...trickyNames));
/** A name as the lexer reads one token: plain, dotted or `ns::name`. */
const anyName = fc.oneof(
  { weight: 6, arbitrary: plainName },
  { weight: 1, arbitrary: fc.constantFrom(...dottedNames) },
  { weight: 1, arbitrary: fc.tuple(randomName, randomName).map(([ns, name]) => `${ns}::${name}`) },
);

const identifier = (names: fc.Arbitrary<string>): fc.Arbitrary<A.Identifier> =>
  names.map((name) => ({ kind: "identifier", name, range }));

const numberLiteral: fc.Arbitrary<A.NumberLiteral> = fc
  .oneof(
    fc.constantFrom("0", "1", "1e3", "5.", ".5", "7L", "1.5E-3", "0.0001", "2l", "3.e+2", ".5e-1L"),
    fc.stringMatching(
      /^(?:[0-9]{1,6}[lL]?|[0-9]{1,3}\.[0-9]{0,3}(?:[eE][+-]?[0-9]{1,2})?[lL]?|\.[0-9]{1,3}(?:[eE][+-]?[0-9]{1,2})?[lL]?|[0-9]{1,3}[eE][+-]?[0-9]{1,2}[lL]?)$/,
    ),
  )
  .map((text) => {
    const isIntegerToken = /^[0-9]+[lL]?$/.test(text);
    const { value, isInteger } = decodeNumber(text, isIntegerToken);
    return { kind: "number", text, value, isInteger, range };
  });

const stringLiteral: fc.Arbitrary<A.StringLiteral> = fc
  .string({ unit: fc.constantFrom("a", "Z", " ", '"', "'", "\\", "\n", "\t", "\b", "\f", "\r", "é", "#", "/*", "$x", "%%", "\u0000"), maxLength: 6 })
  .map((value) => ({ kind: "string", value, range }));

const booleanLiteral: fc.Arbitrary<A.BooleanLiteral> = fc.boolean().map((value) => ({ kind: "boolean", value, range }));

const parameter: fc.Arbitrary<A.CommandLineParameter> = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,5}$/).map((name): A.CommandLineParameter => ({ kind: "parameter", name, positional: false, range })),
  fc.integer({ min: 1, max: 99 }).map((n): A.CommandLineParameter => ({ kind: "parameter", name: String(n), positional: true, range })),
);

const leaf: fc.Arbitrary<A.Expression> = fc.oneof(numberLiteral, stringLiteral, booleanLiteral, identifier(anyName), parameter);

const allOperators: A.BinaryOperator[] = ["^", "%*%", "%/%", "%%", "*", "/", "+", "-", ">", ">=", "<", "<=", "==", "!=", "&", "&&", "|", "||"];
const validOperators = allOperators.filter((op) => op !== "&&" && op !== "||");

/** `X[...]` in every shape: `X[i, j]`, `X[, j]`, `X[i, ]`, `X[,]`, `X[i]`, `X[]`, with `a:b` ranges. */
function indexExpression(expr: fc.Arbitrary<A.Expression>, target = identifier(anyName)): fc.Arbitrary<A.IndexExpression> {
  const part: fc.Arbitrary<A.IndexRange> = fc
    .tuple(expr, fc.option(expr, { nil: undefined }))
    .map(([lower, upper]) => (upper ? { lower, upper } : { lower }));
  const optionalPart = fc.option(part, { nil: undefined });
  return fc
    .tuple(target, optionalPart, optionalPart, fc.boolean())
    .map(([target, rows, cols, hasComma]): A.IndexExpression => ({
      kind: "index",
      target,
      ...(rows ? { rows } : {}),
      ...(hasComma && cols ? { cols } : {}),
      hasComma,
      range,
    }));
}

function callExpression(expr: fc.Arbitrary<A.Expression>): fc.Arbitrary<A.CallExpression> {
  const argument: fc.Arbitrary<A.Argument> = fc
    .tuple(fc.option(fc.oneof(plainName, fc.constantFrom(...dottedNames)), { nil: undefined, freq: 3 }), expr)
    .map(([name, value]) => (name === undefined ? { value, range } : { name, value, range }));
  return fc
    .tuple(identifier(anyName), fc.array(argument, { maxLength: 3 }))
    .map(([callee, args]): A.CallExpression => ({ kind: "call", callee, args, range }));
}

/** Random expressions over `operators`, nested up to `maxDepth`. */
function expressionArbitrary(operators: A.BinaryOperator[], maxDepth: number): fc.Arbitrary<A.Expression> {
  return fc.letrec<{ expr: A.Expression }>((tie) => {
    const expr = tie("expr");
    return {
      expr: fc.oneof(
        { maxDepth, depthIdentifier: `expr${maxDepth}`, withCrossShrink: true },
        { weight: 3, arbitrary: leaf },
        {
          weight: 5,
          arbitrary: fc
            .tuple(fc.constantFrom(...operators), expr, expr)
            .map(([op, left, right]): A.Expression => ({ kind: "binary", op, left, right, range })),
        },
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.constantFrom<A.UnaryOperator>("-", "+", "!"), expr)
            .map(([op, operand]): A.Expression => ({ kind: "unary", op, operand, range })),
        },
        { weight: 1, arbitrary: callExpression(expr) },
        { weight: 1, arbitrary: indexExpression(expr) },
        {
          weight: 1,
          arbitrary: fc.array(expr, { minLength: 1, maxLength: 3 }).map((items): A.Expression => ({ kind: "list", items, range })),
        },
      ),
    };
  }).expr;
}

// Statements.

const statementExpr = expressionArbitrary(validOperators, 3);

const target: fc.Arbitrary<A.DataIdentifier> = fc.oneof(
  { weight: 3, arbitrary: identifier(anyName) },
  { weight: 1, arbitrary: indexExpression(statementExpr) },
);

const typeSpec: fc.Arbitrary<A.TypeSpec> = fc
  .tuple(
    fc.option(fc.constantFrom("matrix", "Matrix", "frame", "Frame", "list", "List", "scalar", "Scalar"), { nil: undefined }),
    fc.constantFrom("int", "integer", "Int", "Integer", "double", "Double", "string", "String", "boolean", "Boolean", "unknown", "Unknown"),
  )
  .map(([dataType, valueType]) => (dataType ? { dataType, valueType, range } : { valueType, range }));

function parameterArbitrary(withDefaults: boolean): fc.Arbitrary<A.Parameter> {
  const defaultValue = withDefaults ? fc.option(statementExpr, { nil: undefined }) : fc.constant(undefined);
  return fc
    .tuple(typeSpec, identifier(plainName), defaultValue)
    .map(([type, name, value]) => (value ? { type, name, defaultValue: value, range } : { type, name, range }));
}

const iterable: fc.Arbitrary<A.IterablePredicate> = fc.oneof(
  fc
    .tuple(statementExpr, statementExpr)
    .map(([from, to]): A.IterablePredicate => ({ kind: "range", from, to, range })),
  fc
    .tuple(statementExpr, statementExpr, fc.option(statementExpr, { nil: undefined }))
    .map(([from, to, by]): A.IterablePredicate => ({
      kind: "seq",
      callee: { kind: "identifier", name: "seq", range },
      from,
      to,
      ...(by ? { by } : {}),
      range,
    })),
);

const loopOption: fc.Arbitrary<A.LoopOption> = fc
  .tuple(fc.constantFrom("check", "par", "mode", "taskpartitioner", "tasksize", "opt", "log", "profile"), fc.oneof(leaf, statementExpr))
  .map(([name, value]) => ({ name, value, text: "", range }));

/** Statements that may stand in a block (function definitions only at the top level). */
const statement: fc.Arbitrary<A.Statement> = fc.letrec<{ statement: A.Statement; block: A.Statement[] }>((tie) => {
  const block = tie("block");
  const simple: fc.Arbitrary<A.Statement> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(target, fc.constantFrom<A.AssignmentOperator>("=", "<-", "+="), statementExpr)
        .map(([target, op, value]): A.Statement => ({ kind: "assign", target, op, value, range })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(identifier(plainName), fc.constantFrom<"=" | "<-">("=", "<-"), parameter, statementExpr)
        .map(([target, op, p, defaultValue]): A.Statement => ({
          kind: "assign",
          target,
          op,
          value: { kind: "ifdef", parameter: p, defaultValue, range },
          range,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(identifier(plainName), { minLength: 1, maxLength: 3 }), fc.constantFrom<"=" | "<-">("=", "<-"), callExpression(statementExpr))
        .map(([targets, op, call]): A.Statement => ({ kind: "multiAssign", targets, op, call, range })),
    },
    { weight: 1, arbitrary: callExpression(statementExpr).map((call): A.Statement => ({ kind: "callStatement", call, range })) },
  );
  const ifStatement: fc.Arbitrary<A.IfStatement> = fc
    .tuple(statementExpr, block, fc.option(block, { nil: undefined }))
    .map(([condition, thenBody, elseBody]) => ({ kind: "if", condition, thenBody, ...(elseBody ? { elseBody } : {}), range }));
  return {
    statement: fc.oneof(
      { maxDepth: 2, depthIdentifier: "statement", withCrossShrink: true },
      { weight: 4, arbitrary: simple },
      { weight: 1, arbitrary: ifStatement },
      {
        // an else-if chain: the else body is exactly one if
        weight: 1,
        arbitrary: fc
          .tuple(statementExpr, block, ifStatement)
          .map(([condition, thenBody, elseIf]): A.Statement => ({ kind: "if", condition, thenBody, elseBody: [elseIf], range })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.boolean(), identifier(plainName), iterable, fc.array(loopOption, { maxLength: 2 }), block)
          .map(([parallel, variable, iterable, options, body]): A.Statement => ({ kind: "for", parallel, variable, iterable, options, body, range })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(statementExpr, block).map(([condition, body]): A.Statement => ({ kind: "while", condition, body, range })),
      },
    ),
    block: fc.array(tie("statement"), { maxLength: 3 }),
  };
}).statement;

const pathString = fc.string({ unit: fc.constantFrom("a", "/", ".", "_", " ", '"', "\\"), maxLength: 10 });

const topLevel: fc.Arbitrary<A.Statement> = fc.oneof(
  { weight: 6, arbitrary: statement },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        identifier(plainName),
        fc.array(parameterArbitrary(true), { maxLength: 3 }),
        fc.array(parameterArbitrary(false), { maxLength: 2 }),
        fc.array(statement, { maxLength: 3 }),
      )
      .map(([name, params, returns, body]): A.Statement => ({ kind: "function", name, params, returns, body, range })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        identifier(plainName),
        fc.array(parameterArbitrary(false), { maxLength: 2 }),
        fc.array(parameterArbitrary(false), { maxLength: 2 }),
        fc.array(fc.tuple(plainName, pathString), { maxLength: 2 }),
      )
      .map(([name, params, returns, entries]): A.Statement => ({
        kind: "externalFunction",
        name,
        params,
        returns,
        implementation: entries.map(([key, value]) => ({ name: key, value, range })),
        range,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(pathString, fc.option(identifier(plainName), { nil: undefined }))
      .map(([path, namespace]): A.Statement => (namespace ? { kind: "source", path, namespace, range } : { kind: "source", path, range })),
  },
  { weight: 1, arbitrary: pathString.map((path): A.Statement => ({ kind: "setwd", path, range })) },
);

const programArbitrary: fc.Arbitrary<A.Program> = fc
  .array(topLevel, { maxLength: 6 })
  .map((body) => ({ kind: "program", body, range }));

// ------------------------------------------------------------------- properties

/** `x = <e>` parsed back: its diagnostics and its right side. */
function reparseExpression(e: A.Expression): { text: string; errors: A.Diagnostic[]; value: A.Expression | undefined } {
  const text = `x = ${printExpression(e)}\n`;
  const { program, diagnostics } = parse(text);
  const [only] = program.body;
  const value = program.body.length === 1 && only?.kind === "assign" ? only.value : undefined;
  return { text, errors: diagnostics.filter((d) => d.severity === "error"), value };
}

function assertSameTree(actual: unknown, expected: unknown, text: string): void {
  if (!astEquals(actual, expected)) assert.deepStrictEqual(stripRanges(actual), stripRanges(expected), text);
}

describe("round trip of random ASTs", () => {
  test("expressions: printed, they parse back without errors to the same tree", () => {
    fc.assert(
      fc.property(expressionArbitrary(validOperators, 5), (e) => {
        const { text, errors, value } = reparseExpression(e);
        assert.deepEqual(errors.map((d) => d.message), [], text);
        assertSameTree(value, e, text);
      }),
      { numRuns: 1000 },
    );
  });

  test("expressions with && and ||: the same tree, the only errors being those operators", () => {
    fc.assert(
      fc.property(expressionArbitrary(allOperators, 4), (e) => {
        const { text, errors, value } = reparseExpression(e);
        assert.deepEqual(errors.filter((d) => d.code !== "doubled-logical-operator").map((d) => d.message), [], text);
        assertSameTree(value, e, text);
      }),
      { numRuns: 300 },
    );
  });

  test(
    "for loops whose from:to starts with a call followed by an operator",
    () => {
      for (const text of ["for (i in nrow(X) - 1:n) {}\n", "for (i in f(a)^2:3) {}\n", "parfor (i in seq(1, 2) * 2:3) {}\n"]) {
        const { program, diagnostics } = parse(text);
        assert.deepEqual(errorsOf(diagnostics), [], text);
        assert.equal(printProgram(program), text);
      }
      const from = fc
        .tuple(callExpression(statementExpr), fc.constantFrom(...validOperators), statementExpr)
        .map(([left, op, right]): A.Expression => ({ kind: "binary", op, left, right, range }));
      fc.assert(
        fc.property(fc.boolean(), from, statementExpr, (parallel, from, to) => {
          const loop: A.Statement = {
            kind: "for",
            parallel,
            variable: { kind: "identifier", name: "i", range },
            iterable: { kind: "range", from, to, range },
            options: [],
            body: [],
            range,
          };
          const text = printProgram({ kind: "program", body: [loop], range });
          const again = parse(text);
          assert.deepEqual(errorsOf(again.diagnostics), [], text);
          assertSameTree(again.program.body, [loop], text);
        }),
        { numRuns: 50 },
      );
    },
  );

  test("programs: printed, they parse back without errors to the same tree, and printing is idempotent", () => {
    fc.assert(
      fc.property(programArbitrary, (program) => {
        const text = printProgram(program);
        const again = parse(text);
        assert.deepEqual(errorsOf(again.diagnostics), [], text);
        assertSameTree(again.program.body, program.body, text);
        assert.equal(printProgram(again.program), text);
      }),
      { numRuns: 300 },
    );
  });
});
