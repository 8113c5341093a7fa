/** Semantic tokens: decoded back to (line, column, text, type, modifiers). */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from "../../server/src/semantic-tokens";

function decode(text: string): string[] {
  const data = semanticTokens(text);
  const lines = text.split("\n");
  const out: string[] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i]!;
    char = data[i]! === 0 ? char + data[i + 1]! : data[i + 1]!;
    const mods = TOKEN_MODIFIERS.filter((_, k) => data[i + 4]! & (1 << k));
    out.push(`${line}:${char} ${lines[line]!.slice(char, char + data[i + 2]!)} ${TOKEN_TYPES[data[i + 3]!]}${mods.length ? `+${mods.join("+")}` : ""}`);
  }
  return out;
}

test("names by role, literals, keywords, operators, comments", () => {
  const text = ['f = function(matrix[double] A) return (double s) {', "  s = sum(A) # total", "}", "X = rand(rows=$n, cols=2)", 'y = f(X %*% t(X)) + 1.5', 'print("y: " + y)'].join("\n");
  const tokens = decode(text);
  for (const expected of [
    "0:0 f function",
    "0:4 function keyword",
    "0:13 matrix type",
    "0:20 double type",
    "0:28 A variable",
    "1:6 sum function+defaultLibrary",
    "1:13 # total comment",
    "3:4 rand function+defaultLibrary",
    "3:14 $n parameter",
    "3:23 2 number",
    "3:9 rows parameter",
    "4:4 f function",
    "4:8 %*% operator",
    "4:12 t function+defaultLibrary",
    "4:20 1.5 number",
    '5:6 "y: " string',
  ]) {
    assert.ok(tokens.includes(expected), `missing ${expected} in\n${tokens.join("\n")}`);
  }
});

test("a block comment over lines is one token per line", () => {
  assert.deepEqual(decode("/* a\n  b */\nx = 1"), ["0:0 /* a comment", "1:0   b */ comment", "2:0 x variable", "2:4 1 number"]);
});
