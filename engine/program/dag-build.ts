/**
 * A basic block's statements → one hash-consed DAG (dag-types.ts).
 *
 * - `x = e` / `x <- e`: the node of `e` becomes x's value (later reads in
 *   the block resolve to it) and x's entry in `outputs`;
 * - `x += e`: `binary +` of x's current value and e;
 * - `X[i, j] = v`: `leftIndex(X, v, rl, ru, cl, cu)` becomes the new X;
 *   `X[i, j] += v` first adds `index(X, ...)` and v;
 * - `x = ifdef($p, d)`: a `parameter` node with d as input;
 * - `[a, b] = f(...)`: one `call` node per target, `output` 0, 1, ...
 *   (same name and inputs; they stand for one evaluation);
 * - a call statement (`print`, `write`, `stop`, `assert`, any bare call):
 *   its node is a sink;
 * - `source`, `setwd` and an assignment to a `$param` (an error reported by
 *   the syntax stage) assign nothing; the right side is still built.
 *
 * Inside loops (`context.loopWrites` given), nodes are then marked
 * `loopConstant` (dag-loop-constant.ts).
 */
import type { AssignmentStatement, Expression, IndexExpression, MultiAssignmentStatement, Range } from "../syntax";
import { DagBuilder } from "./dag-builder";
import { compileMultiCall } from "./dag-calls";
import type { DagContext } from "./dag-context";
import { binaryNode, compileExpression, indexBounds } from "./dag-expressions";
import { markLoopConstants } from "./dag-loop-constant";
import type { BlockDag } from "./dag-types";
import { indexType, leftIndexType } from "./dag-typing";
import type { BasicBlock, SimpleStatement } from "./statement-block";

export function buildBlockDag(block: BasicBlock, context: DagContext): BlockDag {
  return buildStatementsDag(block.statements, context);
}

/** The DAG of a run of simple statements (a basic block's, or any other). */
export function buildStatementsDag(statements: readonly SimpleStatement[], context: DagContext): BlockDag {
  const b = new DagBuilder(context);
  for (const statement of statements) compileStatement(b, statement);
  const dag = b.finish();
  if (context.loopWrites && context.loopWrites.length > 0) markLoopConstants(dag, context.loopWrites);
  return dag;
}

/**
 * The DAG of predicate expressions (an `if`/`while` condition, `for` bounds):
 * one sink per expression, in order, so `sinks[i].node` is expression i.
 */
export function buildPredicateDag(expressions: readonly Expression[], context: DagContext): BlockDag {
  const b = new DagBuilder(context);
  for (const expression of expressions) b.sink(compileExpression(b, expression), expression.range);
  const dag = b.finish();
  if (context.loopWrites && context.loopWrites.length > 0) markLoopConstants(dag, context.loopWrites);
  return dag;
}

function compileStatement(b: DagBuilder, statement: SimpleStatement): void {
  switch (statement.kind) {
    case "assign":
      assignment(b, statement);
      return;
    case "multiAssign":
      multiAssignment(b, statement);
      return;
    case "callStatement":
      b.sink(compileExpression(b, statement.call), statement.range, true);
      return;
    case "source":
    case "setwd":
      return;
  }
}

function assignment(b: DagBuilder, statement: AssignmentStatement): void {
  const target = statement.target;
  switch (target.kind) {
    case "identifier": {
      let value = compileExpression(b, statement.value);
      if (statement.op === "+=") value = binaryNode(b, "+", b.read(target.name, target.range), value, statement.range);
      b.assign(target.name, value);
      return;
    }
    case "index": {
      const store = indexedStore(b, target, statement.range);
      store.assign(compileExpression(b, statement.value), statement.op === "+=");
      return;
    }
    case "parameter":
      compileExpression(b, statement.value);
      return;
  }
}

function multiAssignment(b: DagBuilder, statement: MultiAssignmentStatement): void {
  // Indexed targets (a syntax error in DML) evaluate their indices first, as statementExpressions orders them.
  const stores = statement.targets.map((target) => (target.kind === "index" ? indexedStore(b, target, statement.range) : undefined));
  const results = compileMultiCall(b, statement.call, statement.targets.length, (e) => compileExpression(b, e));
  statement.targets.forEach((target, i) => {
    const result = results[i];
    if (result === undefined) throw new Error(`the call gave ${results.length} results for ${statement.targets.length} targets`);
    if (target.kind === "identifier") b.assign(target.name, result);
    else stores[i]?.assign(result, false);
  });
}

/** `X[rl:ru, cl:cu] = v`: X and the bounds are read first; `assign` builds the leftIndex node and updates X. */
function indexedStore(b: DagBuilder, target: IndexExpression, range: Range): { assign(value: number, accumulate: boolean): void } {
  const name = target.target.name;
  const matrix = b.read(name, target.target.range);
  const bounds = indexBounds(b, target);
  return {
    assign(value: number, accumulate: boolean) {
      let stored = value;
      if (accumulate) {
        const current = b.add({ kind: "index" }, [matrix, ...bounds], indexType(b.typeOf(matrix)), target.range);
        stored = binaryNode(b, "+", current, value, range);
      }
      const updated = b.add({ kind: "leftIndex" }, [matrix, stored, ...bounds], leftIndexType(b.typeOf(matrix)), range);
      b.assign(name, updated);
    },
  };
}
