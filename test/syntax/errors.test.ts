import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Diagnostic } from "../../engine/syntax/ast";
import { formStatementBlocks, printBlocks } from "../../engine/program";
import { parse } from "../../engine/syntax/parse";
import { at } from "../checked-access";

/** `line:col-line:col severity code` with 1-based positions, as an editor shows them. */
function where(d: Diagnostic): string {
  const { start, end } = d.range;
  return `${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1} ${d.severity} ${d.code}`;
}

/** The kinds and first lines of the top-level statements that survived. */
function outline(text: string): string[] {
  return parse(text).program.body.map((s) => `${s.kind}@${s.range.start.line + 1}`);
}

/** Each mistake sits between valid statements; it gets one diagnostic and the rest still parses. */
function check(text: string, expected: string[], statements: string[]): void {
  const { diagnostics } = parse(text);
  assert.deepEqual(diagnostics.map(where), expected);
  assert.deepEqual(outline(text), statements);
}

describe("syntax errors: one diagnostic at the right place, parsing goes on", () => {
  it("f(x)[1,1]: only names can be indexed", () => {
    check("a = 1\ny = f(x)[1,1]\nz = 2\n", ["2:9-2:14 error index-non-variable"], ["assign@1", "assign@2", "assign@3"]);
    const d = at(parse("y = f(x)[1,1]\n").diagnostics, 0);
    assert.match(d.message, /only a variable can be indexed/);
  });

  it("(A+B)[1,1]: only names can be indexed", () => {
    check("y = (A+B)[1,1]\nz = 2\n", ["1:10-1:15 error index-non-variable"], ["assign@1", "assign@2"]);
  });

  it("x = y = 3: chained assignment", () => {
    check("a = 1\nx = y = 3\nz = 2\n", ["2:7-2:8 error chained-assignment"], ["assign@1", "assign@2", "assign@3"]);
    assert.match(at(parse("x = y = 3").diagnostics, 0).message, /chained assignment is not allowed/);
  });

  it("ifdef($a, 1) + 1: ifdef must be the whole right side", () => {
    check("a = 1\nx = ifdef($a, 1) + 1\nz = 2\n", ["2:5-2:17 error ifdef-placement"], ["assign@1", "assign@2", "assign@3"]);
    check("print(ifdef($a, 1))\n", ["1:7-1:19 error ifdef-placement"], ["callStatement@1"]);
    check("x = ifdef(a, 1)\n", ["1:11-1:12 error ifdef-parameter"], ["assign@1"]);
  });

  it("{ ... }; else: no ';' between '}' and 'else'", () => {
    check(
      "if (a) {\n  x = 1\n}; else {\n  x = 2\n}\nz = 2\n",
      ["3:2-3:3 error semicolon-before-else"],
      ["if@1", "assign@6"],
    );
    const statement = at(parse("if (a) { x = 1 }; else { x = 2 }").program.body, 0);
    assert.equal(statement.kind === "if" && statement.elseBody?.length, 1);
  });

  it("';' before else after a single-statement body is fine", () => {
    check("if (a) x = 1; else x = 2\n", [], ["if@1"]);
  });

  it("a keyword as a variable name", () => {
    check("a = 1\nin = 5\nz = in + 1\n", ["2:1-2:3 error reserved-word", "3:5-3:7 error reserved-word"], ["assign@1", "assign@2", "assign@3"]);
    check("int = 5\n", ["1:1-1:4 error reserved-word"], ["assign@1"]);
    check("for (as in 1:3) x = 1\n", ["1:6-1:8 error reserved-word"], ["for@1"]);
    assert.match(at(parse("in = 5").diagnostics, 0).message, /'in' is a reserved word/);
  });

  it("x + 1 as a statement", () => {
    check("a = 1\nx + 1\nz = 2\n", ["2:1-2:6 error expression-statement"], ["assign@1", "assign@3"]);
    check("f(x) * 2\n", ["1:1-1:9 error expression-statement"], []);
  });

  it("an unclosed '{' is reported at the brace", () => {
    // `z = 2`, indented like the `while`, is taken to follow the unclosed block.
    check("a = 1\nwhile (a) {\n  x = 1\nz = 2\n", ["2:11-2:12 error unclosed-brace"], ["assign@1", "while@2", "assign@4"]);
    assert.match(at(parse("while (a) {\n").diagnostics, 0).message, /'\{' opened at line 1 is never closed/);
  });

  it("a nested unclosed '{' is found by indentation, not blamed on the outer one", () => {
    check(
      "while (a) {\n  if (b) {\n    x = 1\n\n}\ny = 2\n",
      ["2:10-2:11 error unclosed-brace"],
      ["while@1", "assign@6"],
    );
    check(
      "for (i in 1:3) {\n  if (b) {\n    x = 1\n  y = 2\n}\nz = 3\n",
      ["2:10-2:11 error unclosed-brace"],
      ["for@1", "assign@6"],
    );
  });

  it("odd indentation in a valid script is never an error", () => {
    check("  if (b) {\nx = 1\n}\n    while (c) {\n}\n", [], ["if@1", "while@4"]);
  });

  it("an unclosed function body stops at the next top-level function", () => {
    check(
      "f = function(int a) return (int b) {\n  b = a\n\ng = function(int a) return (int b) {\n  b = a\n}\n",
      ["1:36-1:37 error unclosed-brace"],
      ["function@1", "function@4"],
    );
  });

  it("a missing ')' is found and the next statements survive", () => {
    check("if (x > 1 {\n  y = 2\n}\nz = 1\n", ["1:11-1:12 error syntax"], ["if@1", "assign@4"]);
    assert.equal(at(parse("if (x > 1 {\n}").diagnostics, 0).message, "expected ')' but found '{'");
  });

  it("a function defined inside a block", () => {
    check("if (a) {\n  f = function(int x) { y = 1 }\n}\n", ["2:3-2:4 error nested-function"], ["if@1"]);
  });

  it("'else' without 'if', and a stray '}'", () => {
    check("x = 1\nelse y = 2\n", ["2:1-2:5 error stray-else"], ["assign@1", "assign@2"]);
    check("x = 1\n}\ny = 2\n", ["2:1-2:2 error unexpected-token"], ["assign@1", "assign@3"]);
  });

  it("multi-assignment needs a call and plain names", () => {
    check("[a, b] = x + 1\n", ["1:10-1:15 error multi-assign-value"], ["multiAssign@1"]);
    check("[a, B[1,1]] = f(x)\n", ["1:5-1:11 error multi-assign-target"], ["multiAssign@1"]);
  });

  it("assigning to a $parameter", () => {
    check("$x = 1\n", ["1:1-1:3 error assign-parameter"], ["assign@1"]);
  });

  it("types: bool is not a type, MATRIX is not a data type", () => {
    check("f = function(bool b) { x = 1 }\n", ["1:14-1:18 error unknown-type"], ["function@1"]);
    assert.match(at(parse("f = function(bool b) { x = 1 }").diagnostics, 0).message, /did you mean 'boolean'/);
    check("f = function(tensor[double] b) { x = 1 }\n", ["1:14-1:20 error unknown-type"], ["function@1"]);
  });

  it("seq is the only call allowed as a loop range", () => {
    check("for (i in foo(1, 3)) x = i\n", ["1:11-1:14 error loop-iterable"], ["for@1"]);
  });

  it("literals: bad escapes, unterminated strings and comments, huge integers", () => {
    check('x = "a\\d"\ny = 1\n', ["1:5-1:10 warning bad-string"], ["assign@1", "assign@2"]);
    check('x = "abc\ny = 1\n', ["1:5-1:9 error bad-string"], ["assign@1", "assign@2"]);
    check("x = 1\n/* open\n", ["2:1-2:3 error unterminated-comment"], ["assign@1"]);
    check("x = 99999999999999999999\n", ["1:5-1:25 error number-literal"], ["assign@1"]);
    check("x = 9223372036854775807\n", [], ["assign@1"]);
  });

  it("externalFunction parses and is warned as unsupported", () => {
    check(
      'f = externalFunction(matrix[double] A) return (matrix[double] B) implemented in (classname="org.X", exectype="mem")\nx = 1\n',
      ["1:1-1:2 warning external-function"],
      ["externalFunction@1", "assign@2"],
    );
  });
});

describe("lexer problems SystemDS tolerates are warnings", () => {
  it("a stray '.'", () => {
    check("x = 1 .\ny = 2\n", ["1:7-1:8 warning stray-character"], ["assign@1", "assign@2"]);
  });

  it("a '#' comment at the end of the file without a newline", () => {
    check("x = 1\n# end", ["2:1-2:6 warning comment-at-eof"], ["assign@1"]);
    check("x = 1\n# end\n", [], ["assign@1"]);
  });

  it("a stray '.', '%' or '$' takes the next character with it, as in SystemDS: x = a.b reads x = a", () => {
    check("x = a.b\ny = x.T + 1\n", ["1:6-1:8 warning stray-character", "2:6-2:8 warning stray-character"], ["assign@1", "assign@2"]);
    const { program } = parse("y = x.T + 1\n");
    const statement = at(program.body, 0);
    assert.equal(statement.kind === "assign" && statement.value.kind, "binary");
    check("x = a %x\n", ["1:7-1:9 warning stray-character"], ["assign@1"]);
  });

  it("source without 'as name' is read, with a warning", () => {
    check('source("Misc.dml");\nx = 1\n', ["1:1-1:20 warning source-namespace"], ["source@1", "assign@2"]);
  });

  it("unknown characters", () => {
    check("x = 1 @\n", ["1:7-1:8 warning stray-character"], ["assign@1"]);
  });
});

describe("robustness", () => {
  it("deep nesting: 150 nested calls and 150 parentheses parse, even cold", () => {
    const calls = "x = " + "f(".repeat(150) + "1" + ")".repeat(150) + "\n";
    assert.deepEqual(parse(calls).diagnostics, []);
    const parens = "x = " + "(".repeat(150) + "1" + ")".repeat(150) + "\n";
    assert.deepEqual(parse(parens).diagnostics, []);
  });

  it("brackets nested deeper than the limit get a located error at the first bracket past it, before the parser recurses", () => {
    const deep = "x = " + "(".repeat(20000) + "1" + ")".repeat(20000) + "\n";
    const { diagnostics, program } = parse(deep);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message, d.range.start.line, d.range.start.character]),
      [["too-deep", "expression nested too deeply (20000 levels of brackets; limit 150): split it into several statements", 0, 4 + 150]],
    );
    assert.deepEqual(program.body, []);
    assert.deepEqual(parse("x = (1)\n").diagnostics, [], "the parser works again afterwards");
  });

  it("a chain of 10,000 '^' or prefix operators (no brackets) gives a diagnostic, not a crash", () => {
    for (const text of ["x = " + Array.from({ length: 10000 }, () => "2").join("^") + "\n", "x = " + "-".repeat(10000) + "2\n"]) {
      const { diagnostics } = parse(text);
      assert.deepEqual(diagnostics.map((d) => d.code), ["too-deep"]);
      assert.match(diagnostics[0]!.message, /nested too deeply/);
    }
    assert.deepEqual(parse("x = 2^3\n").diagnostics, [], "the parser works again afterwards");
  });

  it("a flat expression of 999 operands parses; one of 3,000 or 20,000 gets a located error (later stages walk trees recursively)", () => {
    const chain = (n: number) => "x = " + Array.from({ length: n }, (_, i) => `a${i}`).join(" + ") + "\n";
    assert.deepEqual(parse(chain(999)).diagnostics, []);
    for (const n of [3000, 20000]) {
      const { diagnostics, program } = parse(chain(n));
      assert.equal(diagnostics.length, 1);
      assert.equal(diagnostics[0]!.code, "too-deep");
      assert.equal(diagnostics[0]!.message, `expression nested too deeply (${n + 1} levels; limit 1000): split it into several statements`);
      assert.equal(diagnostics[0]!.range.start.line, 0);
      assert.ok(diagnostics[0]!.range.start.character > 4, "at the node past the limit, not the start of the line");
      assert.deepEqual(program.body, []);
    }
  });

  it("empty and whitespace-only files", () => {
    assert.deepEqual(parse("").program.body, []);
    assert.deepEqual(parse("\n\n  # c\n").diagnostics, []);
  });

  it("every prefix of a valid script parses without throwing", () => {
    const script = 'f = function(matrix[double] X, int k = 2) return (matrix[double] Y) {\n  Y = X %*% t(X) + k\n}\nparfor (i in 1:3, check=0) {\n  if (i > 1) { x = "a\\n" } else x = 2;\n}\n[A] = f(rand(rows=2, cols=2))\n';
    for (let i = 0; i <= script.length; i++) parse(script.slice(0, i));
  });
});

describe("after a syntax error the rest of the file still yields its blocks", () => {
  const mistakes = [
    "y = f(x)[1,1]",
    "x = y = 3",
    "x = ifdef($a, 1) + 1",
    "if (a) { x = 1 }; else { x = 2 }",
    "in = 5",
    "x + 1",
    "if (x > 1 { y = 2 }",
  ];
  for (const mistake of mistakes) {
    it(mistake, () => {
      const text = `a = 1\nb = a + 1\n${mistake}\nwhile (b < 10) {\n  b = b * 2\n}\nc = b\n`;
      const { program, diagnostics } = parse(text);
      assert.equal(diagnostics.filter((d) => d.severity === "error").length, 1, JSON.stringify(diagnostics));
      assert.equal(at(diagnostics, 0).range.start.line, 2);
      const printed = printBlocks(formStatementBlocks(program));
      assert.match(printed, /^basic 1-[23] reads \[a[,\]]/);
      assert.match(printed, /\nwhile 4-6 reads \[b\] writes \[b\]\n {2}basic 5 reads \[b\] writes \[b\]\nbasic 7 reads \[b\] writes \[c\]$/);
    });
  }

  it("an unclosed '{' keeps the blocks before it", () => {
    const { program } = parse("a = 1\nb = a + 1\nwhile (b < 10) {\n  b = b * 2\nc = b\n");
    assert.equal(
      printBlocks(formStatementBlocks(program)),
      "basic 1-2 reads [a] writes [a, b]\nwhile 3-4 reads [b] writes [b]\n  basic 4 reads [b] writes [b]\nbasic 5 reads [b] writes [c]",
    );
  });
});

describe("fuzzing: any token soup parses without throwing", () => {
  const pieces = ["x", "f", "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "<-", "+=", "+", "-", "*", "^", "%*%", "!", "&&", "==",
    "if", "else", "for", "parfor", "while", "in", "function", "return", "ifdef", "source", "as", "int", "matrix[double]",
    "1", "2.5", "\"s\"", "$p", "TRUE", "\n", " ", "#c\n", "/*", "*/", ".", "@", "'"];
  it("never throws and keeps every diagnostic inside the text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const text = parts.join(" ");
        const { diagnostics } = parse(text);
        const lines = text.split("\n");
        for (const d of diagnostics) {
          assert.ok(d.range.start.line < lines.length && d.range.end.line < lines.length, JSON.stringify(d));
          assert.ok(d.message.length > 0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
