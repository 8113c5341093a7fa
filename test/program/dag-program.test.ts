// Program-level DAGs (engine/program/dag-program.ts): one DAG per basic block
// at any depth, loop-constant marks, live-in / live-out sets, and every
// shipped example building without throwing.
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { buildProgramDags, printDag, type BasicBlock, type BlockDag, type BlockDagInfo, type ProgramDags, type StatementBlock } from "../../engine/program";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";
import { lines, programDags, tree } from "./dag-helpers";
import { at } from "../checked-access";

/** The first node whose tree (dag-helpers `tree`) is `text`. */
function nodeByTree(dag: BlockDag, text: string) {
  const node = dag.nodes.find((n) => tree(dag, n.id) === text);
  assert.ok(node, `no node ${text} in\n${printDag(dag)}`);
  return node;
}

/** The block whose first statement starts on 1-based `line`. */
function blockAt(dags: ProgramDags, line: number): BlockDagInfo {
  const info = dags.blocks.find((b) => b.block.range.start.line === line - 1);
  assert.ok(info, `no basic block starts on line ${line}`);
  return info;
}

function example(name: string, liveAtEnd: "nothing" | "everything" = "nothing"): ProgramDags {
  const result = parse(readFileSync(path.join(repoRoot, "examples", name), "utf8"));
  return buildProgramDags(result.program, { liveAtEnd });
}

describe("every basic block gets a DAG", () => {
  test("blocks in if/else, while, for, parfor and function bodies, in source order", () => {
    const src = lines(
      "f = function(double a) return (double b) {",
      "  b = a * 2",
      "}",
      "x = 1",
      "if (x > 0) { y = x } else { y = -x }",
      "while (y < 10) { y = y + 1 }",
      "for (i in 1:3) { parfor (j in 1:2) { z = i + j } }",
      "w = f(y)",
    );
    const dags = programDags(src);
    assert.deepEqual(
      dags.blocks.map((b) => `${b.block.range.start.line + 1}${b.functionName ? ` in ${b.functionName}` : ""} depth ${b.loopDepth}`),
      ["2 in f depth 0", "4 depth 0", "5 depth 0", "5 depth 0", "6 depth 1", "7 depth 2", "8 depth 0"],
    );
    for (const info of dags.blocks) assert.equal(dags.byBlock.get(info.block), info);
  });
});

describe("loop-constant marking", () => {
  const src = lines(
    "A = read($A)",
    "X = read($X)",
    "w = rand(rows=ncol(X), cols=1, seed=1)",
    "i = 0",
    "while (i < 10) {",
    "  G = t(A) %*% A",
    "  w = w - 0.1 * (G %*% w)",
    "  q = X %*% w",
    "  i = i + 1",
    "}",
  );

  test("t(A) %*% A in a loop that never writes A is loop-constant; X %*% w with w updated is not", () => {
    const body = blockAt(programDags(src), 6).dag;
    assert.equal(nodeByTree(body, "matmul(transpose(A), A)").loopConstant, true);
    assert.equal(nodeByTree(body, "transpose(A)").loopConstant, true);
    assert.equal(nodeByTree(body, "matmul(matmul(transpose(A), A), w)").loopConstant, false);
    assert.equal(nodeByTree(body, "matmul(X, (w - (0.1 * matmul(matmul(transpose(A), A), w))))").loopConstant, false);
    assert.equal(nodeByTree(body, "X").loopConstant, true);
    assert.equal(nodeByTree(body, "w").loopConstant, false);
    assert.equal(nodeByTree(body, "i").loopConstant, false);
    assert.match(printDag(body), /= matmul\(%\d+, %\d+\) : matrix<double>  \[loop-constant\]  @6:7/);
  });

  test("blocks outside loops carry no marks", () => {
    const first = at(programDags(src).blocks, 0).dag;
    assert.ok(first.nodes.every((n) => n.loopConstant === undefined && n.invariantLoops === undefined));
  });

  test("rand without seed, read and user-function calls are never loop-constant; literals, $params and seeded rand are", () => {
    const loop = lines(
      "for (k in 1:3) {",
      "  R = rand(rows=2, cols=2)",
      "  S = rand(rows=2, cols=2, seed=5)",
      '  D = read("d.csv")',
      "  n = $n + 1",
      "  u = g(1)",
      "}",
      "g = function(double a) return (double b) { b = a }",
    );
    const dags = programDags(loop);
    const body = dags.blocks.find((b) => b.loopDepth === 1 && b.block.statements.length === 4)!.dag;
    assert.equal(nodeByTree(body, "rand(rows=2, cols=2)").loopConstant, false);
    assert.equal(nodeByTree(body, "rand(rows=2, cols=2, seed=5)").loopConstant, true);
    assert.equal(nodeByTree(body, 'read("d.csv")').loopConstant, false);
    assert.equal(nodeByTree(body, "($n + 1)").loopConstant, true);
    const call = dags.blocks.find((b) => b.block.cut === "function-call")!.dag;
    assert.equal(nodeByTree(call, "user:g(1)").loopConstant, false);
  });

  test("a for loop's variable is written by the loop", () => {
    const dags = programDags(lines("X = rand(rows=3, cols=3, seed=1)", "for (i in 1:3) {", "  r = X[i, ]", "  T = t(X)", "}"));
    const body = blockAt(dags, 3).dag;
    assert.equal(nodeByTree(body, 'index(X, i, i, ":", ":")').loopConstant, false);
    assert.equal(nodeByTree(body, "transpose(X)").loopConstant, true);
  });

  test("nested loops: invariantLoops counts the innermost loops that leave a node unchanged", () => {
    const dags = example("als_cg.dml");
    const inner = blockAt(dags, 32).dag; // HS = (W * (S %*% t(V))) %*% V + lambda * S, in the inner loop
    const tV = nodeByTree(inner, "transpose(V)");
    assert.deepEqual([tV.invariantLoops, tV.loopConstant], [1, false]);
    const W = nodeByTree(inner, "W");
    assert.deepEqual([W.invariantLoops, W.loopConstant], [2, true]);
    const SV = nodeByTree(inner, "matmul(S, transpose(V))");
    assert.deepEqual([SV.invariantLoops, SV.loopConstant], [0, false]);
    assert.match(printDag(inner), /= transpose\(%\d+\) : matrix<double>  \[constant in 1 inner loop\]/);
  });

  test("kmeans: sum(X2) is loop-constant, the distances are not", () => {
    const body = blockAt(example("kmeans.dml"), 20).dag;
    assert.equal(nodeByTree(body, "full-sum(X2)").loopConstant, true);
    assert.equal(nodeByTree(body, "matmul(X, transpose(C))").loopConstant, false);
  });
});

describe("live-in and live-out", () => {
  test("l2svm.dml", () => {
    const dags = example("l2svm.dml");
    const live = dags.blocks.map((b) => [b.block.range.start.line + 1, b.liveIn, b.liveOut]);
    assert.deepEqual(live, [
      [6, [], ["X", "Y", "lambda", "tol", "maxi", "n", "w", "Xw", "g_old", "s", "iter", "continue"]],
      [23, ["X", "s", "lambda", "w"], ["Xd", "wd", "dd", "step_sz", "inner", "continue1"]],
      [30, ["Xw", "step_sz", "Xd", "Y", "wd", "dd", "inner"], ["step_sz", "continue1", "inner"]],
      [40, ["w", "step_sz", "s", "Xw", "Xd", "Y", "lambda", "X", "iter", "g_old", "tol"], ["w", "Xw", "continue", "s", "g_old", "iter"]],
      [57, ["X", "w", "Y", "n"], []],
    ]);
    // d (only used for w's size) and the loop temporaries out, sv, g, h are dead after their blocks
    assert.deepEqual(at(dags.blocks, 0).dag.liveOut, at(dags.blocks, 0).liveOut);
  });

  test("als_cg.dml: m, n and the first loss are dead after the load block; U, V survive the inner loops", () => {
    const dags = example("als_cg.dml");
    const load = blockAt(dags, 8);
    assert.deepEqual(load.liveOut, ["X", "rank", "lambda", "maxi", "W", "U", "V", "it"]);
    assert.deepEqual(blockAt(dags, 32).liveOut, ["U", "R", "norm_R2", "S", "inner"]);
    assert.deepEqual(blockAt(dags, 57).liveOut, ["it"]);
  });

  test("a session keeps every variable at the end: only values reassigned before any read are dead", () => {
    const dags = example("l2svm.dml", "everything");
    // out and sv of the line search are reassigned after the loop before they are read; tmp_Xw, g and h are not reassigned: their last values are the session's
    assert.deepEqual(blockAt(dags, 30).liveOut, ["tmp_Xw", "g", "h", "step_sz", "continue1", "inner"]);
    assert.deepEqual(blockAt(dags, 57).liveOut, ["acc"]);
    assert.deepEqual(blockAt(dags, 6).liveOut.includes("d"), true, "d is never reassigned: live at the end");
    const loop = programDags(lines("i = 0", "while (i < 3) {", "  t = i * 2", "  u = t + 1", "  i = i + 1", "}", "t = 0"), { liveAtEnd: "everything" });
    assert.deepEqual(blockAt(loop, 3).liveOut, ["u", "i"], "t is reassigned after the loop before any read");
  });

  test("a variable read by a loop's condition or body is live at the end of the body", () => {
    const dags = programDags(lines("x = 0", "y = 0", "while (x < 5) {", "  t = y + 1", "  x = x + 1", "  y = t", "}"));
    assert.deepEqual(blockAt(dags, 4).liveOut, ["x", "y"]);
    assert.deepEqual(blockAt(dags, 1).liveOut, ["x", "y"]);
  });

  test("function bodies end with their results live", () => {
    const dags = programDags("f = function(double a) return (double b) {\n  c = a + 1\n  b = c * 2\n  d = 3\n}");
    assert.deepEqual(at(dags.blocks, 0).liveOut, ["b"]);
    assert.deepEqual(at(dags.blocks, 0).liveIn, ["a"]);
  });

  test("if: a branch's writes are live-out when read after the join", () => {
    const dags = programDags(lines("a = 1", "if (a > 0) {", "  b = 2", "  c = 3", "} else {", "  b = 4", "}", "print(b)"));
    assert.deepEqual(blockAt(dags, 3).liveOut, ["b"]);
    assert.deepEqual(blockAt(dags, 6).liveOut, ["b"]);
  });
});

describe("the examples", () => {
  const dir = path.join(repoRoot, "examples");
  const files = readdirSync(dir).filter((f) => f.endsWith(".dml")).sort();

  test("there are examples", () => assert.ok(files.length >= 10));

  for (const file of files) {
    test(`${file}: every basic block has a sound DAG, inputs = live-in, no type errors`, () => {
      const dags = example(file);
      const basic: BasicBlock[] = [];
      const collect = (blocks: readonly StatementBlock[]) => {
        for (const b of blocks) {
          if (b.kind === "basic") basic.push(b);
          else if (b.kind === "if") (collect(b.thenBlocks), collect(b.elseBlocks));
          else collect(b.bodyBlocks);
        }
      };
      collect(dags.programBlocks.main);
      for (const f of dags.programBlocks.functions) collect(f.bodyBlocks);
      assert.equal(dags.blocks.length, basic.length);
      for (const block of basic) assert.ok(dags.byBlock.has(block));
      for (const info of dags.blocks) {
        const { dag } = info;
        dag.nodes.forEach((node, id) => {
          assert.equal(node.id, id);
          for (const input of node.inputs) assert.ok(input < id);
          if (node.op.kind === "matmul" || node.op.kind === "transpose") assert.equal(node.type.dataType, "matrix");
          if (info.loopDepth > 0) assert.equal(typeof node.loopConstant, "boolean");
        });
        assert.deepEqual([...dag.inputs.keys()].sort(), [...info.liveIn].sort());
        for (const name of info.liveOut) assert.ok(dag.outputs.has(name));
        assert.ok(printDag(dag).length > 0);
      }
      assert.deepEqual(dags.diagnostics, []);
    });
  }
});
