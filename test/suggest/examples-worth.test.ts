/**
 * `dml explain --json` on every script in examples/ offers no suggestion
 * that fails the rules of issue 13, section 3, each checked here on its own
 * terms (not with the optimizer's helpers): the rewrite parses to a
 * different tree than the original, saves at least 20 % and 1 ms of
 * estimated time, and writes no number the original does not spell out
 * (other than the few constants rewrite rules introduce: 0, ±1, ±2, ±0.5),
 * in particular no size where the original has nrow/ncol/length.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "../../engine/syntax/parse";
import type { Expression } from "../../engine/syntax/ast";
import { stripRanges } from "../../engine/syntax/ast-equals";
import { repoRoot } from "../repo-root";

interface SuggestionJson {
  target: string;
  original: string;
  rewritten: string;
  costBefore: number;
  costAfter: number;
  temporaries?: { name: string; text: string }[];
}

function expression(text: string): Expression {
  const parsed = parse(`x__ = ${text.replace(/;\s*$/, "")}`);
  const statement = parsed.program.body[0];
  assert.ok(statement?.kind === "assign" && !parsed.diagnostics.some((d) => d.severity === "error"), `not an expression: ${text}`);
  return statement.value;
}

function numbers(node: unknown, into: number[] = []): number[] {
  if (Array.isArray(node)) node.forEach((n) => numbers(n, into));
  else if (typeof node === "object" && node !== null) {
    const n = node as { kind?: string; value?: unknown };
    if (n.kind === "number" && typeof n.value === "number") into.push(n.value);
    for (const [key, value] of Object.entries(node)) if (key !== "range") numbers(value, into);
  }
  return into;
}

const RULE_CONSTANTS = new Set([0, 1, 2, 0.5]);
const examples = readdirSync(path.join(repoRoot, "examples")).filter((f) => f.endsWith(".dml")).sort();

/** `dml explain --json` of every example, two at a time (the machine has two cores). */
async function explainAll(): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  const queue = [...examples];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const name = file;
      const child = spawn(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "explain", path.join("examples", name), "--json"], { cwd: repoRoot });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.equal(code, 0, `${name}: ${stderr}`);
      outputs.set(name, stdout);
    }
  };
  await Promise.all([worker(), worker()]);
  return outputs;
}

test("explain on every example offers only suggestions worth taking", { timeout: 240_000 }, async () => {
  let checked = 0;
  const outputs = await explainAll();
  for (const file of examples) {
    const json = JSON.parse(outputs.get(file)!) as { blocks: { suggestions: SuggestionJson[] }[] };
    for (const s of json.blocks.flatMap((b) => b.suggestions)) {
      const where = `${file}: ${s.target} = ${s.rewritten} (instead of ${s.original})`;
      const before = expression(s.original);
      assert.notDeepEqual(stripRanges(expression(s.rewritten)), stripRanges(before), `${where}: the same expression`);
      const saved = s.costBefore - s.costAfter;
      assert.ok(saved >= 0.2 * s.costBefore, `${where}: saves only ${((100 * saved) / s.costBefore).toFixed(1)} %`);
      assert.ok(saved >= 0.001, `${where}: saves only ${(saved * 1000).toFixed(3)} ms`);
      const spelled = new Set(numbers(before).flatMap((v) => [v, -v]));
      for (const text of [s.rewritten, ...(s.temporaries ?? []).map((t) => t.text)]) {
        for (const v of numbers(expression(text))) assert.ok(spelled.has(v) || RULE_CONSTANTS.has(v), `${where}: writes ${v}, which the original does not`);
      }
      checked++;
    }
  }
  // The README's example alone has five (l1, l2, G, s1, Q): the test looks at real suggestions.
  assert.ok(checked >= 5, `only ${checked} suggestions over ${examples.length} examples`);
});
