// The runtime worker's sessions (client/src/run-sessions.ts): runs in the plan
// mode of the `dmlLens.run.plan` setting with the same values in every mode, a
// changed setting switches the session and keeps its variables, each reply
// reports per block estimated vs measured time in the mode that ran, and a
// finished run adds its observations to the calibration feedback.
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { DEFAULT_MACHINE_CONSTANTS, loadObservedTimes, observedFilePath, saveMachineConstants } from "../../engine/cost";
import { DEFAULT_PLAN_MODE, PLAN_MODES, type PlanMode } from "../../engine/execution";
import { RunSessions } from "../../client/src/run-sessions";
import { RUN_PLAN_SETTING, runPlanSetting } from "../../client/src/run-plan-setting";
import { resultsHtml } from "../../client/src/results-html";
import type { RunRequest } from "../../client/src/runtime-protocol";
import { repoRoot } from "../repo-root";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-sessions-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `X = rand(rows=60, cols=20, seed=7)
v = rand(rows=20, cols=1, seed=9)
w = t(X) %*% (X %*% v)
s = sum(X * X) + sum(X ^ 2)
for (i in 1:3) {
  s = s + sum(w * i)
}
print(sum(w))
print(s)
`;

let nextId = 1;
function request(scriptPath: string, text: string, plan?: PlanMode): RunRequest {
  return { id: nextId++, scriptPath, texts: [text], params: {}, ...(plan ? { plan } : {}) };
}

function sessions(machine: string, record = false) {
  return new RunSessions({ shouldInterrupt: () => false, machineFile: machine, recordObservations: record });
}

test("every plan mode prints the same values, and the reply reports the mode and per block timings", () => {
  const printed = new Map<PlanMode, number[]>();
  for (const plan of PLAN_MODES) {
    const runs = sessions(path.join(dir, "modes", "machine.json"));
    const reply = runs.run(request(path.join(dir, `modes-${plan}.dml`), SCRIPT, plan));
    assert.ok(reply.ok, reply.errors.join("\n"));
    assert.equal(reply.plan, plan);
    assert.equal(reply.previousPlan, undefined);
    printed.set(plan, reply.output.map(Number));
    const blocks = reply.blocks!;
    assert.ok(blocks.length >= 3, `blocks: ${blocks.length}`);
    assert.ok(blocks.every((b) => b.mode === plan));
    // The cell runs whole: its blocks are the script's (lines 1-4, the loop body, the prints).
    assert.deepEqual(blocks.map((b) => [b.startLine, b.endLine, b.runs]), [[0, 3, 1], [5, 5, 3], [7, 8, 1]]);
    const [first, loop] = blocks;
    assert.ok(loop!.measuredSeconds > 0 && loop!.estimatedSeconds > 0);
    assert.ok(first!.operationCount >= 5, `operations of lines 1-4: ${first!.operationCount}`);
    assert.match(first!.worst!, /^line [1-4]: .+: estimated .+, measured .+ \(.+\)$/);
    // Per top-level statement, the time of its operations (the loop's body counts for the loop).
    assert.deepEqual(reply.statements!.map((st) => [st.startLine, st.endLine]), [[0, 0], [1, 1], [2, 2], [3, 3], [4, 6], [7, 7], [8, 8]]);
    assert.ok(reply.statements!.every((st) => st.ms >= 0) && reply.statements!.reduce((sum, st) => sum + st.ms, 0) <= reply.ms + 1e-9);
    assert.ok(reply.statements![4]!.ms > 0, "the loop's statement has the time of its body's operations");
  }
  const [fused, rewritten, written] = PLAN_MODES.map((p) => printed.get(p)!);
  assert.equal(written!.length, 2);
  for (const other of [fused!, rewritten!]) other.forEach((x, k) => assert.ok(Math.abs(x - written![k]!) <= 1e-9 * Math.abs(written![k]!), `${x} vs ${written![k]}`));
});

test("a changed setting switches the session to the new plan and keeps its variables", () => {
  const runs = sessions(path.join(dir, "switch", "machine.json"));
  const script = path.join(dir, "switch.dml");
  const first = runs.run(request(script, "A = matrix(2, rows=3, cols=3)\nb = 2\n"));
  assert.ok(first.ok, first.errors.join("\n"));
  assert.equal(first.plan, DEFAULT_PLAN_MODE);
  assert.equal(runs.planOf(script), "fused");
  const second = runs.run(request(script, "\n\nprint(sum(A %*% A) + b)\n", "as-written"));
  assert.ok(second.ok, second.errors.join("\n"));
  assert.deepEqual(second.output, ["110.0"]);
  assert.equal(second.plan, "as-written");
  assert.equal(second.previousPlan, "fused");
  assert.equal(runs.planOf(script), "as-written");
  assert.ok(second.blocks!.every((b) => b.mode === "as-written"));
  assert.ok(second.variables.some((v) => v.name === "A"), "the variables of the earlier session are still there");
  const third = runs.run(request(script, "\n\n\nB = A + 1\n", "as-written"));
  assert.equal(third.previousPlan, undefined, "the same plan: the same session");
  assert.equal(third.blocks!.length, 1, "only the blocks of this run are reported");
  assert.equal(third.blocks![0]!.startLine, 3);
});

test("a finished run adds its observations beside the machine file; a failed one does not", () => {
  const machine = path.join(dir, "record", "machine.json");
  const runs = sessions(machine, true);
  const failed = runs.run(request(path.join(dir, "record.dml"), "X = matrix(1, rows=300, cols=300)\nY = X %*% X\nZ = Y %*% matrix(1, rows=2, cols=2)\n"));
  assert.equal(failed.ok, false);
  assert.equal(existsSync(observedFilePath(machine)), false);
  const ok = runs.run(request(path.join(dir, "record.dml"), "X = matrix(1, rows=300, cols=300)\nY = X %*% X\nprint(sum(Y))\n"));
  assert.ok(ok.ok, ok.errors.join("\n"));
  const observed = loadObservedTimes(observedFilePath(machine));
  assert.ok(observed, readFileSync(observedFilePath(machine), "utf8"));
  assert.equal(observed.ratios["dense matmul"]?.length, 1, JSON.stringify(observed.ratios));
});

test("the setting: values outside the enum are the default; package.json declares the modes", () => {
  assert.equal(runPlanSetting("rewritten"), "rewritten");
  assert.equal(runPlanSetting("as-written"), "as-written");
  assert.equal(runPlanSetting("fusedd"), "fused");
  assert.equal(runPlanSetting(undefined), "fused");
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, { default: string; enum: string[]; enumDescriptions: string[] }> } } };
  const setting = pkg.contributes.configuration.properties[RUN_PLAN_SETTING]!;
  assert.equal(setting.default, DEFAULT_PLAN_MODE);
  assert.deepEqual([...setting.enum].sort(), [...PLAN_MODES].sort());
  assert.equal(setting.enumDescriptions.length, setting.enum.length);
});

test("the results view shows the block table and names the operation farthest from its estimate", () => {
  const runs = sessions(path.join(dir, "view", "machine.json"));
  const reply = runs.run(request(path.join(dir, "view.dml"), SCRIPT, "rewritten"));
  const real = resultsHtml({ title: "view.dml: cell 1", reply }, "csp");
  assert.match(real, /<h3>Blocks <span class="dims">plan: rewritten<\/span><\/h3>/);
  assert.match(real, /<th>line<\/th><th>runs<\/th><th>estimated<\/th><th>measured<\/th><th>ratio<\/th><th>plan<\/th><th>compiled<\/th>/);
  assert.match(real, /<tr><td>6<\/td><td>3<\/td>/, "the loop body's row: three runs");
  const block = reply.blocks![0]!;
  // A block 65x slower than estimated, and one close to its estimate.
  const slow = { ...block, startLine: 2, endLine: 3, runs: 1, rewrites: 1, fusedOperators: 2, unfused: ["row: no kernel"], compilations: 1, compileMs: 12, estimatedSeconds: 0.0002, measuredSeconds: 0.013, worst: "line 3: t(X) %*% (…): estimated 200 µs, measured 13.0 ms (65× slower)" };
  const fine = { ...block, startLine: 5, endLine: 5, estimatedSeconds: 0.01, measuredSeconds: 0.012, worst: "line 6: s + sum(w * i): estimated 10 ms, measured 12 ms (1.2× slower)" };
  const html = resultsHtml({ title: "view.dml: cell 1", reply: { ...reply, blocks: [slow, fine] } }, "csp");
  assert.match(html, /<tr><td>3-4<\/td><td>1<\/td><td>200 µs<\/td><td>13\.0 ms<\/td><td>65×<\/td><td title="row: no kernel">1 rewritten, 2 fused, 1 unfused<\/td><td>1× 12\.0 ms<\/td><\/tr>/);
  assert.match(html, /<ul id="block-worst"><li>block at line 3 \(65×\): line 3: t\(X\) %\*% \(…\): estimated 200 µs, measured 13\.0 ms \(65× slower\)<\/li><\/ul>/, "only the block far off its estimate names its operation");
  const noBlocks = resultsHtml({ title: "t", reply: { ...reply, blocks: [] } }, "csp");
  assert.doesNotMatch(noBlocks, /id="blocks"/);
});

test("a calibration between two runs prices the next run: the worker reloads the machine file before each run", () => {
  const machine = path.join(dir, "recalibrated", "machine.json");
  const runs = sessions(machine);
  const script = path.join(dir, "recalibrated.dml");
  const text = "X = matrix(0.5, rows=200, cols=200)\nY = X %*% X\n";
  const productOf = (reply: ReturnType<RunSessions["run"]>) => reply.blocks!.flatMap((b) => b.operations).find((op) => op.text === "X %*% X")!;
  const before = productOf(runs.run(request(script, text)));
  saveMachineConstants({ ...DEFAULT_MACHINE_CONSTANTS, flopsPerSecond: DEFAULT_MACHINE_CONSTANTS.flopsPerSecond / 10 }, machine);
  const after = productOf(runs.run(request(script, text)));
  // 2 * 200^3 FLOPs at 1 and at 0.1 GFLOP/s, plus writing 320 kB at 5 GB/s.
  assert.ok(Math.abs(before.modelSeconds - (0.016 + 64e-6)) < 1e-12, `${before.modelSeconds}`);
  assert.ok(Math.abs(after.modelSeconds - (0.16 + 64e-6)) < 1e-12, `${after.modelSeconds}`);
});
