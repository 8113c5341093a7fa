/** Code lenses over cells, dims inlay hints, signature help. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { cellLenses, dimsHints, RUN_ABOVE_COMMAND, RUN_CELL_COMMAND, signatureHelp } from "../../server/src/editor-aids";

const script = ["# %% data", "X = rand(rows=100, cols=20, seed=1)", "s = sum(X)", "", "# %% model", "w = t(X) %*% X", "y = X %*% w"].join("\n");

test("Run Cell on every marker, Run Above from the second cell on", () => {
  assert.deepEqual(
    cellLenses(script).map((l) => [l.line, l.title, l.command, l.cell]),
    [
      [0, "Run Cell", RUN_CELL_COMMAND, 1],
      [4, "Run Cell", RUN_CELL_COMMAND, 2],
      [4, "Run Above", RUN_ABOVE_COMMAND, 2],
    ],
  );
  assert.deepEqual(cellLenses("x = 1\n"), []);
});

test("dims after each matrix assignment in the range; scalars get none", () => {
  const hints = dimsHints(analyzeText(script), { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } });
  assert.deepEqual(
    hints.map((h) => [h.position.line, h.position.character, h.label]),
    [
      [1, 1, ": 100×20"],
      [5, 1, ": 20×20"],
      [6, 1, ": 100×20"],
    ],
  );
  assert.equal(dimsHints(analyzeText(script), { start: { line: 5, character: 0 }, end: { line: 5, character: 9 } }).length, 1);
  // Digit groups: 10,000×5,000.
  const large = dimsHints(analyzeText("X = rand(rows=10000, cols=5000)\n"), { start: { line: 0, character: 0 }, end: { line: 0, character: 40 } });
  assert.deepEqual(large.map((h) => h.label), [": 10,000×5,000"]);
});

test("signature help: the parameter by position or by the name being typed", () => {
  const at = (text: string) => signatureHelp(text, { line: 0, character: text.length });
  const rand = at("X = rand(rows=10, cols=");
  assert.ok(rand);
  assert.match(rand.label, /^rand\(\[rows\], \[cols\],/);
  assert.equal(rand.parameters[rand.active], "cols");
  const byPosition = at("X = read($X, ");
  assert.equal(byPosition?.parameters[byPosition.active], "format");
  assert.equal(at("x = 1 + "), undefined);
});
