// Statement blocks as SystemDS forms them (engine/program): block boundaries
// and the exact read / write / gen / kill sets of every rule, on small DML
// snippets, plus every shipped example script.
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { formStatementBlocks, printBlocks, type FormBlocksOptions, type ProgramBlocks, type StatementBlock } from "../../engine/program";
import type { Program, Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

function parsed(source: string): Program {
  const result = parse(source);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(errors, [], `unexpected syntax errors in:\n${source}`);
  return result.program;
}

function form(source: string, options?: FormBlocksOptions): ProgramBlocks {
  return formStatementBlocks(parsed(source), options);
}

/** The printed blocks (functions first, then main), with gen and kill when asked. */
function blocks(source: string, liveness = false, options?: FormBlocksOptions): string {
  return printBlocks(form(source, options), { liveness });
}

function lines(...text: string[]): string {
  return text.join("\n");
}

describe("basic blocks: merging of simple statements", () => {
  test("straight-line code with print, assert, non-csv write, source, setwd, ifdef and += is one block", () => {
    const src = lines(
      'source("u.dml") as u',
      'setwd("d")',
      "X = read($X)",
      "s = sum(X)",
      'print("s=" + s)',
      "assert(s > 0)",
      "write(X, $out)",
      "k = ifdef($k, m)",
      "k += s",
    );
    assert.equal(blocks(src, true), "basic 1-9 reads [X, s, m, k] writes [X, s, k] gen [m] kill [X, s, k]");
  });

  test("an empty program has no blocks", () => {
    assert.deepEqual(form(""), { main: [], functions: [] });
    assert.equal(blocks("# only a comment\n"), "");
  });

  test("a basic block's range spans its first to its last statement", () => {
    const main = form("a = 1\n\n  b = a + 1\nc = b").main;
    assert.equal(main.length, 1);
    assert.deepEqual(at(main, 0).range, { start: { line: 0, character: 0 }, end: { line: 3, character: 5 } });
  });

  test("gen holds reads not written earlier in the block, checked before the statement's own write", () => {
    assert.equal(blocks("i = i + 1\nj = i * 2\nk = j + z", true), "basic 1-3 reads [i, j, z] writes [i, j, k] gen [i, z] kill [i, j, k]");
  });
});

describe("reads and writes of statements", () => {
  test("indexed assignment reads the target, its indices and the value, and writes the target", () => {
    assert.equal(blocks("X[i, j] = v"), "basic 1 reads [X, i, j, v] writes [X]");
    assert.equal(blocks("X[a:b, ] = Y[, c:d]"), "basic 1 reads [X, a, b, Y, c, d] writes [X]");
  });

  test("+= reads its target, plain or indexed", () => {
    assert.equal(blocks("x += e", true), "basic 1 reads [x, e] writes [x] gen [x, e] kill [x]");
    assert.equal(blocks("X[, 2] += v"), "basic 1 reads [X, v] writes [X]");
  });

  test("a plain assignment does not read its target", () => {
    assert.equal(blocks("x = y"), "basic 1 reads [y] writes [x]");
  });

  test("call statements read their arguments and write nothing", () => {
    assert.equal(blocks('print("a " + a)\nassert(b > c)\nwrite(X, fname, format="text", sep=sp)'), "basic 1-3 reads [a, b, c, X, fname, sp] writes []");
  });

  test("callees, named-argument names, $params and literals are not variables", () => {
    assert.equal(blocks("Y = rand(rows=$n, cols=ncol, min=0, seed=-1) + t(A)"), "basic 1 reads [ncol, A] writes [Y]");
    assert.equal(blocks('z = [a, 1, "s", TRUE]'), "basic 1 reads [a] writes [z]");
  });

  test("Inf, NaN and pi are constants unless the program assigns them", () => {
    assert.equal(blocks("x = pi * r + Inf - NaN"), "basic 1 reads [r] writes [x]");
    assert.equal(blocks("pi = 3\nx = pi * r + Inf"), "basic 1-2 reads [pi, r] writes [pi, x]");
    assert.equal(blocks("for (NaN in 1:2) { y = NaN }"), "for 1 reads [NaN] writes [NaN, y]\n  basic 1 reads [NaN] writes [y]");
    // case-sensitive, as in SystemDS's BuiltinConstant enum
    assert.equal(blocks("x = PI + inf"), "basic 1 reads [PI, inf] writes [x]");
  });
});

describe("control statements get a block of their own", () => {
  test("stop() splits; print and assert do not", () => {
    const src = lines("a = 1", 'print("x")', 'stop("no")', "b = a", "assert(b)");
    assert.equal(blocks(src), lines("basic 1-2 reads [] writes [a]", "basic(stop) 3 reads [] writes []", "basic 4-5 reads [a, b] writes [b]"));
  });

  test("a literal csv write splits (any case); other formats and $format merge", () => {
    const src = lines('write(X, "a.csv", format="csv")', 'write(X, "a", format="CSV")', 'write(X, "b", format="binary")', "write(X, $f, format=$fmt)");
    assert.equal(
      blocks(src),
      lines("basic(csv-write) 1 reads [X] writes []", "basic(csv-write) 2 reads [X] writes []", "basic 3-4 reads [X] writes []"),
    );
  });

  test("every multi-assignment splits, user function or multi-return builtin", () => {
    const src = lines("a = 1", "[Q, R] = qr(A)", "b = 2", "[c] = g(a, b)", "d = c", "g = function(double x, double y) return (double z) { z = x + y }");
    assert.equal(
      form(src).main.map((b) => printBlocks([b])).join("\n"),
      lines(
        "basic 1 reads [] writes [a]",
        "basic(multi-assignment) 2 reads [A] writes [Q, R]",
        "basic 3 reads [] writes [b]",
        "basic(multi-assignment) 4 reads [a, b] writes [c]",
        "basic 5 reads [c] writes [d]",
      ),
    );
  });

  test("an assignment whose right side is a user-function call splits, also when the function is defined later", () => {
    const src = lines("X = rand(rows=2, cols=2)", "Y = f(X)", "W = Y + 1", "f = function(matrix[double] A) return (matrix[double] B) { B = A * 2 }");
    assert.equal(
      blocks(src),
      lines(
        "function f(A) -> (B) 4 reads [A] writes [B]",
        "  basic 4 reads [A] writes [B]",
        "basic 1 reads [] writes [X]",
        "basic(function-call) 2 reads [X] writes [Y]",
        "basic 3 reads [Y] writes [W]",
      ),
    );
  });

  test("+= and indexed targets with a user-function call split too", () => {
    const src = lines("f = function(double a) return (double b) { b = a }", "x = 1", "x += f(x)", "X[i, ] = f(x)", "y = x");
    assert.equal(
      form(src).main.map((b) => printBlocks([b])).join("\n"),
      lines(
        "basic 2 reads [] writes [x]",
        "basic(function-call) 3 reads [x] writes [x]",
        "basic(function-call) 4 reads [X, i, x] writes [X]",
        "basic 5 reads [x] writes [y]",
      ),
    );
  });

  test("a user function called as a statement splits; a builtin call statement merges", () => {
    const src = lines("f = function(double a) { print(a) }", "a = 1", "f(a)", "print(a)", "b = 2");
    assert.equal(
      form(src).main.map((b) => printBlocks([b])).join("\n"),
      lines("basic 2 reads [] writes [a]", "basic(function-call) 3 reads [a] writes []", "basic 4-5 reads [a] writes [b]"),
    );
  });

  test("namespaced calls ns::f are user-function calls", () => {
    const src = lines('source("nn/affine.dml") as affine', "W = affine::init(d, m)", "out = affine::forward(X, W) + 1", "z = 0");
    assert.equal(
      blocks(src),
      lines(
        "basic 1 reads [] writes []",
        "basic(function-call) 2 reads [d, m] writes [W]",
        "basic(nested-function-call) 3 reads [X, W] writes [out]",
        "basic 4 reads [] writes [z]",
      ),
    );
  });

  test("statements with nested user-function calls are cut around (stand-in for SystemDS's hoisting)", () => {
    const src = lines(
      "f = function(double a) return (double b) { b = a }",
      "a = 1",
      "x = f(a) + 1",
      "print(f(x))",
      "M[f(a), 1] = 0",
      "y = sum(a)",
    );
    assert.equal(
      form(src).main.map((b) => printBlocks([b])).join("\n"),
      lines(
        "basic 2 reads [] writes [a]",
        "basic(nested-function-call) 3 reads [a] writes [x]",
        "basic(nested-function-call) 4 reads [x] writes []",
        "basic(nested-function-call) 5 reads [M, a] writes [M]",
        "basic 6 reads [a] writes [y]",
      ),
    );
  });

  test("a user function hides the builtin of the same name, even stop and write", () => {
    const src = lines("stop = function(string m) { print(m) }", 'a = 1', 'stop("x")', "sum = function(double v) return (double s) { s = v }", "b = sum(a)", "c = b");
    assert.equal(
      form(src).main.map((b) => printBlocks([b])).join("\n"),
      lines(
        "basic 2 reads [] writes [a]",
        "basic(function-call) 3 reads [] writes []",
        "basic(function-call) 5 reads [a] writes [b]",
        "basic 6 reads [b] writes [c]",
      ),
    );
  });

  test("DML-bodied builtins are builtins unless named in extraFunctions", () => {
    const src = lines("a = 1", "B = lm(X=X, y=y)", "c = 2");
    assert.equal(blocks(src), "basic 1-3 reads [X, y] writes [a, B, c]");
    assert.equal(
      blocks(src, false, { extraFunctions: ["lm"] }),
      lines("basic 1 reads [] writes [a]", "basic(function-call) 2 reads [X, y] writes [B]", "basic 3 reads [] writes [c]"),
    );
  });

  test("time() calls split; names and strings containing TIME do not", () => {
    const src = lines("t0 = time()", "x = 0", "x += 2", "el = time() - t0", "TIMEOUT = 3", 'print("TIME " + TIMEOUT)', "print(time())", "z = 1");
    assert.equal(
      blocks(src, true),
      lines(
        "basic(time) 1 reads [] writes [t0] gen [] kill [t0]",
        "basic 2-3 reads [x] writes [x] gen [] kill [x]",
        "basic(time) 4 reads [t0] writes [el] gen [t0] kill [el]",
        "basic 5-6 reads [TIMEOUT] writes [TIMEOUT] gen [] kill [TIMEOUT]",
        "basic(time) 7 reads [] writes [] gen [] kill []",
        "basic 8 reads [] writes [z] gen [] kill [z]",
      ),
    );
  });

  test("a user function named time is a user-function call, not the builtin", () => {
    const src = lines("time = function() return (double t) { t = 1 }", "a = 1", "b = time() + a");
    assert.equal(form(src).main.map((b) => printBlocks([b])).join("\n"), lines("basic 2 reads [] writes [a]", "basic(nested-function-call) 3 reads [a] writes [b]"));
  });
});

describe("control-flow blocks", () => {
  test("if: reads are the condition and both branches; kill is what both branches assign; stop splits a branch", () => {
    const src = lines("a = 1", "if (a > 0) { b = a * 2 } else { b = 0; stop(\"neg\") }", "c = b + 1");
    assert.equal(
      blocks(src, true),
      lines(
        "basic 1 reads [] writes [a] gen [] kill [a]",
        "if 2 reads [a] writes [b] gen [a] kill [b]",
        "  then",
        "    basic 2 reads [a] writes [b] gen [a] kill [b]",
        "  else",
        "    basic 2 reads [] writes [b] gen [] kill [b]",
        "    basic(stop) 2 reads [] writes [] gen [] kill []",
        "basic 3 reads [b] writes [c] gen [b] kill [c]",
      ),
    );
  });

  test("if without else kills nothing; branch gen ignores names the branch assigned first", () => {
    const src = lines("if (p) {", "  x = 1", "  y = x + q", "}");
    assert.equal(
      blocks(src, true),
      lines("if 1-4 reads [p, x, q] writes [x, y] gen [p, q] kill []", "  then", "    basic 2-3 reads [x, q] writes [x, y] gen [q] kill [x, y]"),
    );
    const withElse = lines("if (p) { x = 1; y = 2 } else { x = u }");
    assert.equal(
      blocks(withElse, true),
      lines(
        "if 1 reads [p, u] writes [x, y] gen [p, u] kill [x]",
        "  then",
        "    basic 1 reads [] writes [x, y] gen [] kill [x, y]",
        "  else",
        "    basic 1 reads [u] writes [x] gen [u] kill [x]",
      ),
    );
  });

  test("else if is an if nested in the else branch", () => {
    const src = "if (a) { x = 1 } else if (b) { x = 2 } else { x = 3 }";
    assert.equal(
      blocks(src, true),
      lines(
        "if 1 reads [a, b] writes [x] gen [a, b] kill [x]",
        "  then",
        "    basic 1 reads [] writes [x] gen [] kill [x]",
        "  else",
        "    if 1 reads [b] writes [x] gen [b] kill [x]",
        "      then",
        "        basic 1 reads [] writes [x] gen [] kill [x]",
        "      else",
        "        basic 1 reads [] writes [x] gen [] kill [x]",
      ),
    );
  });

  test("for writes and kills its loop variable, which never reaches gen", () => {
    const src = lines("s = 0", "for (i in 1:n) { s = s + i; X[i, 1] = s }", "while (s > 10) { s = s - 1 }");
    assert.equal(
      blocks(src, true),
      lines(
        "basic 1 reads [] writes [s] gen [] kill [s]",
        "for 2 reads [n, s, i, X] writes [i, s, X] gen [n, s, X] kill [i, s, X]",
        "  basic 2 reads [s, i, X] writes [s, X] gen [s, i, X] kill [s, X]",
        "while 3 reads [s] writes [s] gen [s] kill [s]",
        "  basic 3 reads [s] writes [s] gen [s] kill [s]",
      ),
    );
  });

  test("parfor: seq(from, to, by) bounds are read; options are raw text and read nothing", () => {
    const src = "parfor (j in seq(lo, hi, step), check=0, mode=REMOTE_SPARK, par=k) { R[j, ] = colSums(X) }";
    assert.equal(
      blocks(src, true),
      lines(
        "parfor 1 reads [lo, hi, step, R, j, X] writes [j, R] gen [lo, hi, step, R, X] kill [j, R]",
        "  basic 1 reads [R, j, X] writes [R] gen [R, j, X] kill [R]",
      ),
    );
    assert.equal(at(form(src).main, 0).kind, "parfor");
  });

  test("kills of nested loops do not count for the enclosing block; an if's kill does", () => {
    const src = lines(
      "while (go) {",
      "  for (k in 1:3) { a = 1 }",
      "  b = a",
      "  if (c) { d = 1 } else { d = 2 }",
      "  e = d",
      "}",
    );
    assert.equal(
      blocks(src, true),
      lines(
        "while 1-6 reads [go, a, c, d] writes [k, a, b, d, e] gen [go, a, c] kill [b, d, e]",
        "  for 2 reads [] writes [k, a] gen [] kill [k, a]",
        "    basic 2 reads [] writes [a] gen [] kill [a]",
        "  basic 3 reads [a] writes [b] gen [a] kill [b]",
        "  if 4 reads [c] writes [d] gen [c] kill [d]",
        "    then",
        "      basic 4 reads [] writes [d] gen [] kill [d]",
        "    else",
        "      basic 4 reads [] writes [d] gen [] kill [d]",
        "  basic 5 reads [d] writes [e] gen [d] kill [e]",
      ),
    );
  });

  test("while(FALSE){} is an empty block that cuts (the SystemDS DAG-cut idiom)", () => {
    const src = lines("A = X %*% Y", "while(FALSE){}", "B = A + 1");
    assert.equal(
      blocks(src, true),
      lines("basic 1 reads [X, Y] writes [A] gen [X, Y] kill [A]", "while 2 reads [] writes [] gen [] kill []", "basic 3 reads [A] writes [B] gen [A] kill [B]"),
    );
  });

  test("bodies merge and split by the same rules", () => {
    const src = lines(
      "f = function(double v) return (double w) { w = v }",
      "for (i in 1:n) {",
      "  a = i",
      "  b = f(a)",
      "  c = b",
      "  d = c",
      "}",
    );
    assert.equal(
      printBlocks(form(src).main),
      lines(
        "for 2-7 reads [n, i, a, b, c] writes [i, a, b, c, d]",
        "  basic 3 reads [i] writes [a]",
        "  basic(function-call) 4 reads [a] writes [b]",
        "  basic 5-6 reads [b, c] writes [c, d]",
      ),
    );
  });
});

describe("function definitions", () => {
  test("definitions go to functions and do not split the main blocks around them", () => {
    const src = lines("a = 1", "g = function(matrix[double] Y, int k = 2) return (double a, double b) {", "  a = 0", "  while (a < k) { a = a + 1 }", "  b = a + sum(Y)", "}", "c = a");
    const program = form(src);
    assert.equal(program.functions.length, 1);
    const g = at(program.functions, 0);
    assert.deepEqual([g.name, g.params, g.returns, g.external], ["g", ["Y", "k"], ["a", "b"], false]);
    assert.equal(
      printBlocks(program, { liveness: true }),
      lines(
        "function g(Y, k) -> (a, b) 2-6 reads [a, k, Y] writes [a, b] gen [k, Y] kill [a, b]",
        "  basic 3 reads [] writes [a] gen [] kill [a]",
        "  while 4 reads [a, k] writes [a] gen [a, k] kill [a]",
        "    basic 4 reads [a] writes [a] gen [a] kill [a]",
        "  basic 5 reads [a, Y] writes [b] gen [a, Y] kill [b]",
        "basic 1-7 reads [a] writes [a, c] gen [] kill [a, c]",
      ),
    );
  });

  test("functions are listed in source order; externalFunction has no body", () => {
    const src = lines(
      "h = function() { print(1) }",
      "x = 1",
      'e = externalFunction(int a) return (int b) implemented in (classname="C", exectype="mem")',
    );
    const program = form(src);
    assert.deepEqual(
      program.functions.map((f) => [f.name, f.external, f.bodyBlocks.length]),
      [
        ["h", false, 1],
        ["e", true, 0],
      ],
    );
    assert.equal(printBlocks(program), lines("function h() -> () 1 reads [] writes []", "  basic 1 reads [] writes []", "externalFunction e(a) -> (b) 3 reads [] writes []", "basic 2 reads [] writes [x]"));
  });
});

// ------------------------------------------------------------ the examples

/** Every statement a block sequence holds directly (nested definitions excluded), in order. */
function statementsOf(blocks: readonly StatementBlock[]): Statement[] {
  return blocks.flatMap((b): Statement[] => (b.kind === "basic" ? b.statements : [b.statement]));
}

/** Checks that blocks cover `body` exactly once and in order, recursively into control bodies. */
function assertCovers(blocks: readonly StatementBlock[], body: readonly Statement[], where: string): void {
  const expected = body.filter((s) => s.kind !== "function" && s.kind !== "externalFunction");
  const covered = statementsOf(blocks);
  assert.equal(covered.length, expected.length, `${where}: statement count`);
  covered.forEach((s, i) => assert.equal(s, expected[i], `${where}: statement ${i + 1}`));
  for (const block of blocks) {
    switch (block.kind) {
      case "basic":
        assert.ok(block.statements.length === 1 || block.cut === undefined, `${where}: a cut block holds one statement`);
        break;
      case "if":
        assertCovers(block.thenBlocks, block.statement.thenBody, `${where} (then)`);
        assertCovers(block.elseBlocks, block.statement.elseBody ?? [], `${where} (else)`);
        break;
      case "while":
      case "for":
      case "parfor":
        assertCovers(block.bodyBlocks, block.statement.body, `${where} (loop body)`);
        break;
    }
  }
}

describe("example scripts", () => {
  // Next to this file under tsx; from the working directory (the repository root) when bundled elsewhere.
  const dir = path.join(repoRoot, "examples");
  const files = readdirSync(dir).filter((f) => f.endsWith(".dml")).sort();

  test("there are example scripts", () => {
    assert.ok(files.length > 0);
  });

  for (const file of files) {
    test(`${file}: blocks cover every statement exactly once`, () => {
      const program = parsed(readFileSync(path.join(dir, file), "utf8"));
      const result = formStatementBlocks(program);
      assertCovers(result.main, program.body, file);
      const definitions = program.body.filter((s) => s.kind === "function" || s.kind === "externalFunction");
      assert.deepEqual(
        result.functions.map((f) => f.statement),
        definitions,
      );
      for (const f of result.functions) if (f.statement.kind === "function") assertCovers(f.bodyBlocks, f.statement.body, `${file}: ${f.name}`);
      // adjacent mergeable runs are maximal: two uncut basic blocks never follow each other
      const check = (blocks: readonly StatementBlock[]) => {
        blocks.forEach((b, i) => {
          const next = blocks[i + 1];
          if (b.kind === "basic" && !b.cut && next?.kind === "basic") assert.ok(next.cut !== undefined, `${file}: two mergeable blocks in a row`);
          if (b.kind === "if") [b.thenBlocks, b.elseBlocks].forEach(check);
          if (b.kind === "while" || b.kind === "for" || b.kind === "parfor") check(b.bodyBlocks);
        });
      };
      check(result.main);
      assert.ok(printBlocks(result).length > 0);
    });
  }

  test("l2svm.dml: the load and init cells form one block before the training loop", () => {
    const program = parsed(readFileSync(path.join(dir, "l2svm.dml"), "utf8"));
    const main = formStatementBlocks(program).main;
    assert.deepEqual(
      main.map((b) => b.kind),
      ["basic", "while", "basic"],
    );
    assert.deepEqual(at(main, 0).writes, ["X", "Y", "lambda", "tol", "maxi", "n", "d", "w", "Xw", "g_old", "s", "iter", "continue"]);
    assert.deepEqual(at(main, 2).reads, ["X", "w", "Y", "n", "acc"]);
    assert.deepEqual(at(main, 2).gen, ["X", "w", "Y", "n"]);
  });
});
