// `dml explain FILE --why LINE`: the derivation of each suggestion on the
// line, the text the editor's "Explain this rewrite" shows
// (engine/suggest/suggestion-derivation.ts); an honest answer when the rules
// find no derivation within the bound or the statement is not there.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, test } from "node:test";
import { suggestionDerivation } from "../../engine/suggest";
import { repoRoot } from "../repo-root";

const bin = path.join(repoRoot, "bin", "dml.js");
const example = path.join(repoRoot, "examples", "sum_product.dml");

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("dml explain --why", () => {
  test("the ALS gradient's suggestion: from the original to the suggested expression, one line a step", () => {
    const r = dml("explain", example, "--why", "24");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split("\n"), [
      "line 24: G = (Uk %*% t(Vk) - X) %*% Vk",
      "  suggested: G = Uk %*% (t(Vk) %*% Vk) - X %*% Vk",
      "  derivation (2 steps):",
      "    (Uk %*% t(Vk) - X) %*% Vk = Uk %*% t(Vk) %*% Vk + -X %*% Vk  [sum-of-add: sum distributes over +]",
      "    Uk %*% t(Vk) %*% Vk + -X %*% Vk = Uk %*% (t(Vk) %*% Vk) - X %*% Vk  [add-negated: a + (-b) = a - b]",
    ]);
  });

  test("a line without a suggestion says so; a bad line number is a usage error", () => {
    const none = dml("explain", example, "--why", "6");
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout.trimEnd(), "sum_product.dml: no suggestion on line 6");
    const bad = dml("explain", example, "--why", "x");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--why needs a line number \(1 or more\), not 'x'/);
  });
});

describe("suggestion derivations", () => {
  const text = "A = rand(rows=20, cols=30, seed=3)\nB = rand(rows=30, cols=10, seed=4)\nq = sum(A %*% B)\nprint(q)\n";
  const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 16 } };

  test("a proof through the script's own temporaries prints them by name", () => {
    const d = suggestionDerivation(text, "t.dml", { range, target: "q", original: "sum(A %*% B)", rewritten: "as.scalar(tmp1 %*% rowSums(B))" }, [{ name: "tmp1", text: "colSums(A)" }]);
    assert.equal(d.verdict, "proven");
    assert.deepEqual(d.lines, [
      "line 3: q = sum(A %*% B)",
      "  suggested: q = as.scalar(tmp1 %*% rowSums(B))",
      "  derivation (1 step):",
      "    sum(A %*% B) = as.scalar(tmp1 %*% rowSums(B))  [sums-commute: sums over two indices commute]",
    ]);
  });

  test("no derivation within the bound is said, with the bound that stopped the search", () => {
    const d = suggestionDerivation(text, "t.dml", { range, target: "q", original: "sum(A %*% B)", rewritten: "sum(A) * sum(B)" });
    assert.equal(d.verdict, "not proven");
    assert.match(d.lines[2]!, /^ {2}no derivation found within the bound: the search (saturated: no rule adds anything new|stopped at the (iteration|e-node|rule-application) limit .*) \(\d+ iterations?, \d+ e-nodes\)\.$/);
  });

  test("a statement that is not where the suggestion was made gets no derivation", () => {
    const moved = { start: { line: 1, character: 4 }, end: { line: 1, character: 16 } };
    const d = suggestionDerivation(text, "t.dml", { range: moved, target: "q", original: "sum(A %*% B)", rewritten: "sum(A) * sum(B)" });
    assert.equal(d.verdict, "unavailable");
    assert.match(d.lines.at(-1)!, /no derivation: the statement is no longer where the suggestion was made/);
  });
});
