// The results view's page for a finished SystemDS run: bounded output (the
// last lines, with a count of those only in the output channel), the status
// and the exit code.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { resultsHtml } from "../../client/src/results-html";
import { lastLines, systemdsResultsPage } from "../../client/src/systemds-results";

test("lastLines keeps the last N lines in order and says how many earlier ones the channel has", () => {
  const few = lastLines(3);
  few.add("a");
  few.add("b");
  assert.deepEqual(few.lines(), ["a", "b"]);
  const many = lastLines(3);
  for (let k = 1; k <= 10; k++) many.add(`line ${k}`);
  assert.deepEqual(many.lines(), ['(7 earlier lines are in the output channel "DML on SystemDS")', "line 8", "line 9", "line 10"]);
  const one = lastLines(2);
  for (const l of ["x", "y", "z"]) one.add(l);
  assert.deepEqual(one.lines(), ['(1 earlier line is in the output channel "DML on SystemDS")', "y", "z"]);
});

test("a SystemDS run's page: done with exit code 0, failed otherwise, stopped when cancelled; output and errors shown, escaped", () => {
  const done = systemdsResultsPage({ script: "driver.dml", exitCode: 0, stopped: false, output: ["total 620.0"], errors: [], ms: 2500 });
  assert.equal(done.title, "driver.dml on SystemDS (exit code 0)");
  assert.equal(done.reply.ok, true);
  const html = resultsHtml(done, "csp");
  assert.match(html, /<div class="meta" id="status"[^>]*>done in 2\.50 s/);
  assert.match(html, /<pre id="output">total 620\.0<\/pre>/);
  const failed = systemdsResultsPage({ script: "driver.dml", exitCode: 255, stopped: false, output: [], errors: ["org.apache.sysds.api.DMLException: <oops>"], ms: 10 });
  assert.equal(failed.title, "driver.dml on SystemDS (exit code 255)");
  assert.match(resultsHtml(failed, "csp"), /id="status"[^>]*>failed in 10\.0 ms[\s\S]*<pre class="error" id="errors">org\.apache\.sysds\.api\.DMLException: &lt;oops&gt;<\/pre>/);
  const stopped = systemdsResultsPage({ script: "driver.dml", exitCode: 143, stopped: true, output: [], errors: [], ms: 10 });
  assert.equal(stopped.title, "driver.dml on SystemDS (stopped)");
  assert.match(resultsHtml(stopped, "csp"), /id="status"[^>]*>interrupted in/);
});
