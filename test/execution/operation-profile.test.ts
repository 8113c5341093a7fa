// The operation profile of runs (engine/execution/operation-profiler.ts):
// each operation timed against its estimate, the block report naming the
// operation farthest from its estimate, and the calibration observations.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { DEFAULT_MACHINE_CONSTANTS } from "../../engine/cost";
import { blockReports, executionSession, MIN_OBSERVED_SECONDS, observationsOf, OperationProfiler, type PlanMode } from "../../engine/execution";

/** A large product next to tiny operations: with constants that price every operation as nearly free, the product is the one farthest off its estimate. */
const SLOW_PRODUCT = `X = matrix(0.5, rows=400, cols=400)
v = rand(rows=300, cols=1, seed=2)
Y = X %*% X
a = sum(v) + 1
b = a * 2
print(sum(Y) + b)
`;

function profiledRun(script: string, plan: PlanMode, profiler: OperationProfiler) {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan, profiler, print: (line) => printed.push(line) });
  const result = session.runScript(script);
  assert.ok(result.ok, result.errors.join("\n"));
  const profile = profiler.take();
  return { printed, reports: blockReports(runner.blockTimings(), profile), profile };
}

test("the block report names the operation that was off: a product estimated as nearly free", () => {
  const profiler = new OperationProfiler({ constants: { ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: 1e16, memoryBandwidthBytesPerSecond: 1e14, writeBandwidthBytesPerSecond: 1e14 } });
  const { reports } = profiledRun(SLOW_PRODUCT, "as-written", profiler);
  assert.equal(reports.length, 1);
  const [block] = reports;
  assert.equal(block!.mode, "as-written");
  assert.equal(block!.runs, 1);
  const worst = block!.operations[0]!;
  assert.equal(worst.text, "X %*% X");
  assert.equal(worst.line, 2);
  assert.equal(worst.operationClass, "dense matmul");
  assert.ok(worst.estimatedSeconds < 1e-5, `estimated ${worst.estimatedSeconds}`);
  assert.ok(worst.measuredSeconds > 1e-4, `measured ${worst.measuredSeconds}`);
  assert.match(block!.worst!, /^line 3: X %\*% X: estimated [\d.]+ (ns|µs), measured [\d.]+ (µs|ms|s) \([\d,.]+× slower\)$/);
  assert.ok(block!.operationCount >= 6, `operations ${block!.operationCount}`);
});

test("with the default constants the product is estimated, and the block's estimate is the sum of its operations'", () => {
  const profiler = new OperationProfiler();
  const { reports } = profiledRun(SLOW_PRODUCT, "as-written", profiler);
  const block = reports[0]!;
  const product = block.operations.find((op) => op.text === "X %*% X");
  assert.ok(product, "the product is among the operations farthest from their estimates");
  // 2 * 400^3 FLOPs at 1 GFLOP/s.
  assert.ok(Math.abs(product.modelSeconds - 0.128) < 0.002, `model ${product.modelSeconds}`);
  assert.equal(product.estimatedSeconds, product.modelSeconds, "no corrections: the estimate is the model's");
  // The plan's estimate (default constants) equals the sum of the operations' estimates.
  assert.ok(Math.abs(block.estimatedSeconds - block.planSeconds) <= 1e-9 + 1e-6 * block.planSeconds, `${block.estimatedSeconds} vs ${block.planSeconds}`);
});

test("corrections multiply the estimates of their class only", () => {
  const corrections = new Map([["dense matmul", 4]] as const);
  const profiler = new OperationProfiler({ corrections });
  const { reports } = profiledRun(SLOW_PRODUCT, "as-written", profiler);
  const ops = reports[0]!.operations;
  const product = ops.find((op) => op.text === "X %*% X")!;
  assert.equal(product.estimatedSeconds, product.modelSeconds * 4);
  for (const op of ops.filter((o) => o.operationClass !== "dense matmul")) assert.equal(op.estimatedSeconds, op.modelSeconds, op.text);
});

test("a loop body's operations count every iteration; observations are one per operation that took long enough", () => {
  const script = `X = rand(rows=200, cols=200, seed=3)
s = 0
for (i in 1:4) {
  Y = X %*% X
  s = s + sum(Y[1:50, 1:50])
}
print(s)
`;
  const profiler = new OperationProfiler();
  const { reports, profile } = profiledRun(script, "rewritten", profiler);
  const body = reports.find((r) => r.startLine === 3)!;
  assert.equal(body.runs, 4);
  assert.equal(body.mode, "rewritten");
  const product = body.operations.find((op) => op.text === "X %*% X")!;
  assert.equal(product.runs, 4);
  const observations = observationsOf(profile);
  const products = observations.filter((o) => o.operationClass === "dense matmul");
  assert.equal(products.length, 1);
  assert.equal(products[0]!.estimatedSeconds, product.modelSeconds);
  assert.ok(observations.every((o) => o.measuredSeconds > 0 && o.estimatedSeconds > 0));
  // The sum of 50 x 50 cells is estimated at 10 µs a run: below the floor, the interpreter's overhead would dominate it.
  // (Excluded by its estimate, whatever this machine measures; the sum of all of Y, 160 µs a run, was kept or not by
  // whether the run measured it above the floor, and a busy machine did.)
  const small = body.operations.find((op) => op.text === "sum(Y[1:50, 1:50])")!;
  assert.ok(small.modelSeconds / small.runs < MIN_OBSERVED_SECONDS, `${small.modelSeconds / small.runs} s a run`);
  assert.equal(observations.filter((o) => o.operationClass === "aggregate").length, 0);
  assert.equal(profiler.take().length, 0, "take() forgets what it returned");
  // Each operation's own time: together never more than the blocks' time (nothing counted twice).
  const operationsTime = profile.flatMap((b) => b.operations).reduce((sum, op) => sum + op.measuredSeconds, 0);
  const blocksTime = reports.reduce((sum, b) => sum + b.measuredSeconds, 0);
  assert.ok(operationsTime > 0 && operationsTime <= blocksTime, `${operationsTime} vs ${blocksTime}`);
});

test("a fused operator is one entry, priced as the operator; the nodes it covers are not timed apart", () => {
  const script = `X = rand(rows=400, cols=30, seed=1)
v = rand(rows=30, cols=1, seed=4)
w = rand(rows=400, cols=1, seed=5)
r = t(X) %*% (w * (X %*% v))
print(sum(r))
`;
  const fused = profiledRun(script, "fused", new OperationProfiler());
  const written = profiledRun(script, "as-written", new OperationProfiler());
  assert.equal(fused.printed[0], written.printed[0]);
  const block = fused.reports[0]!;
  assert.ok(block.fusedOperators >= 1, `fused operators: ${block.fusedOperators}; unfused: ${block.unfused.join("; ")}`);
  const all = fused.profile.flatMap((b) => b.operations);
  const operator = all.find((op) => op.operationClass === "fused row")!;
  assert.ok(operator, all.map((op) => op.text).join(", "));
  assert.equal(operator.text, "fused row operator: t(X) %*% (w * (X %*% v))");
  assert.equal(operator.line, 3);
  assert.equal(operator.runs, 1);
  assert.ok(operator.modelSeconds > 0 && operator.measuredSeconds > 0);
  assert.ok(!all.some((op) => op.text === "X %*% v" || op.text === "(X %*% v)"), "the product inside the operator is not an entry of its own");
  assert.ok(written.profile.flatMap((b) => b.operations).some((op) => op.text === "(X %*% v)" || op.text === "X %*% v"), "as written, it is");
  // With the default constants the operations' estimates add up to the planner's cost of the fused plan.
  assert.ok(Math.abs(block.estimatedSeconds - block.planSeconds) <= 1e-6 * block.planSeconds, `${block.estimatedSeconds} vs ${block.planSeconds}`);
});
