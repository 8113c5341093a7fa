import { strict as assert } from "node:assert";
import { test } from "node:test";
import { foldingRanges } from "../../server/src/folding";

const script = [
  "# header", //                0
  "# %% load", //               1
  "X = read($X)", //            2
  "", //                        3
  "# %% loop", //               4
  "while (i < 3) {", //         5
  '  s = "{ not a brace"', //   6
  "  i = i + 1 # { neither", // 7
  "}", //                       8
  "/* a", //                    9
  "   b */", //                10
  "", //                       11
].join("\n");

test("cells fold from the marker to the last non-blank line before the next one", () => {
  const cells = foldingRanges(script).filter((r) => r.kind === "region");
  assert.deepEqual(
    cells.map((r) => [r.startLine, r.endLine]),
    [
      [1, 2],
      [4, 10],
    ],
  );
});

test("braces fold up to the line before the closing one; strings and comments are skipped", () => {
  const plain = foldingRanges(script).filter((r) => r.kind === undefined);
  assert.deepEqual(plain.map((r) => [r.startLine, r.endLine]), [[5, 7]]);
});

test("multi-line block comments fold as comments", () => {
  const comments = foldingRanges(script).filter((r) => r.kind === "comment");
  assert.deepEqual(comments.map((r) => [r.startLine, r.endLine]), [[9, 10]]);
});

test("unbalanced text does not throw", () => {
  assert.doesNotThrow(() => foldingRanges("f = function() {\n  x = (1 + \n}\n]\n'unterminated\n/* open"));
});
