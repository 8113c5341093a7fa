// `dml bench prove`, the simplifications row: the median proof time over the
// `# prove:` pairs, and a loud failure when an `# unequal:` pair is proven
// (or a `# prove:` pair is not).
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { runSimplificationProveBench } from "../../cli/bench-prove";

const root = mkdtempSync(path.join(tmpdir(), "dml-bench-prove-"));
after(() => rmSync(root, { recursive: true, force: true }));

function exampleRoot(name: string, text: string): string {
  const dir = path.join(root, name, "examples", "simplifications");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "pairs.dml"), text);
  return path.join(root, name);
}

const SCRIPT = (header: string) => `${header}
X = rand(rows=4, cols=3, seed=1)
Y = rand(rows=4, cols=3, seed=2)
a = sum(X + Y)
b = sum(X) + sum(Y)
c = min(rowMins(X))
d = min(X)
e = min(rowMaxs(X))
`;

test("times the prove pairs and passes when every verdict is as declared", () => {
  const [row] = runSimplificationProveBench(exampleRoot("good", SCRIPT("# prove: a b\n# prove: c d\n# unequal: e d")));
  assert.ok(row);
  assert.equal(row.suite, "prove");
  assert.match(row.case, /2 '# prove:' pairs and 1 '# unequal:' pairs of 1 /);
  assert.equal(row.proven, 2);
  assert.equal(row.unequal_proven, 0);
  assert.equal(row.failed, undefined, String(row.wrong));
  assert.ok(typeof row.median_ms === "number" && row.median_ms > 0);
  assert.equal(row.target, "median proof time <= 50 ms; no unequal pair proven");
});

test("an unequal pair that is proven fails the row, loudly", () => {
  const [row] = runSimplificationProveBench(exampleRoot("bad", SCRIPT("# prove: a b\n# unequal: c d")));
  assert.ok(row);
  assert.equal(row.failed, true);
  assert.equal(row.unequal_proven, 1);
  assert.equal(row.target_met, false);
  assert.match(String(row.wrong), /UNEQUAL PAIR PROVEN: examples\/simplifications\/pairs\.dml:2 c = d/);
});

test("a prove pair that is not proven fails the row", () => {
  const [row] = runSimplificationProveBench(exampleRoot("unproven", SCRIPT("# prove: e d")));
  assert.ok(row);
  assert.equal(row.failed, true);
  assert.match(String(row.wrong), /not proven: examples\/simplifications\/pairs\.dml:1 e = d \(not proven\)/);
});
