/**
 * The edit storms of the `lsp` fuzz harness (lsp.harness.ts): what one
 * storm is (a document's first text and a list of operations), drawn with
 * fast-check from a seed, and the raw malformed messages a storm may send.
 *
 * Operations: edits at random places (ranges may run past the end),
 * pasted fragments of examples/*.dml, delete-all, 1 MB pastes, close and
 * reopen while the analysis may run, requests at positions inside, far
 * past the end, null or negative, requests for a document never opened,
 * floods of requests cancelled at once, and malformed JSON-RPC messages.
 */
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const REQUEST_METHODS = [
  "textDocument/hover",
  "textDocument/completion",
  "textDocument/definition",
  "textDocument/references",
  "textDocument/rename",
  "textDocument/prepareRename",
  "textDocument/codeAction",
  "textDocument/documentSymbol",
  "textDocument/semanticTokens/full",
  "textDocument/inlayHint",
  "textDocument/foldingRange",
  "textDocument/signatureHelp",
  "textDocument/codeLens",
  "dmlLens/plan",
  "dmlLens/estimate",
  "dmlLens/runParameters",
] as const;
export type RequestMethod = (typeof REQUEST_METHODS)[number];

/** Where a request points: a share of the text's length, far past its end, or positions no editor sends. */
export type Where = { kind: "inside"; share: number } | { kind: "far" } | { kind: "null" } | { kind: "negative" } | { kind: "fraction" };

export type Operation =
  | { kind: "edit"; at: number; length: number; text: string; pastEnd: boolean }
  | { kind: "replaceAll"; text: string }
  | { kind: "deleteAll" }
  | { kind: "bigPaste"; at: number }
  | { kind: "closeReopen"; pauseMs: number }
  | { kind: "request"; method: RequestMethod; where: Where; unopened: boolean; newName: string }
  | { kind: "cancelFlood"; count: number }
  | { kind: "malformed"; which: number };

export interface Storm {
  /** The document's text when it is opened. */
  initial: string;
  operations: Operation[];
}

/** Bodies of malformed JSON-RPC messages (framed correctly: a broken frame cannot be told from the next message by any server). */
export const MALFORMED_BODIES: readonly string[] = [
  '{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{',
  "[1,2,3]",
  "42",
  "null",
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":"storm","method":"textDocument/hover","params":null}',
  '{"jsonrpc":"2.0","id":"storm2","method":"textDocument/completion","params":{"textDocument":{"uri":42},"position":"here"}}',
  '{"jsonrpc":"2.0","id":"storm3","method":"no/such/method","params":{}}',
  '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":null}',
  '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:never.dml","version":3},"contentChanges":[{"text":"x"}]}}',
  '{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"untitled:never.dml"}}}',
  '{"jsonrpc":"2.0","method":"dmlLens/measuredSizes","params":{"textDocument":{"uri":"untitled:never.dml"},"variables":[{"name":"X","rows":-1}]}}',
  '{"jsonrpc":"2.0","method":"dmlLens/measuredSizes","params":null}',
  '{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"dmlLens":{"optimizer":{"budgetMs":"fast"}}}}}',
  '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"nobody"}}',
  '{"jsonrpc":"2.0","id":99999,"result":{}}',
];

/** The shipped example scripts (examples/*.dml): the material of pasted fragments. */
export function exampleScripts(root: string): string[] {
  const folder = path.join(root, "examples");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".dml"))
    .sort()
    .map((f) => readFileSync(path.join(folder, f), "utf8"));
}

/** A run of whole lines of one example, or a few characters of DML, or odd text (unicode, CRLF, a lone brace). */
function fragment(examples: readonly string[]): fc.Arbitrary<string> {
  const lines = examples.map((e) => e.split("\n"));
  const lineRun = fc
    .record({ file: fc.nat({ max: lines.length - 1 }), start: fc.double({ min: 0, max: 1, noNaN: true }), count: fc.integer({ min: 1, max: 12 }) })
    .map(({ file, start, count }) => {
      const all = lines[file]!;
      const from = Math.floor(start * (all.length - 1));
      return all.slice(from, from + count).join("\n") + "\n";
    });
  const small = fc.constantFrom("X", " %*% ", "t(", ")", "(", "{", "}", "\n", "# @size 10 x 10\n", "1e308", "NaN", "0/0", "[1,]", "= ", '"', "'", "if (", "for (i in 1:", "function(", "$X", "\r\n", "é∑😀", "\t", ";");
  return fc.oneof({ weight: 3, arbitrary: lineRun }, { weight: 2, arbitrary: small }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
}

/** A share from 0 to 1 in steps of a millionth (fast-check's doubles crowd near 0). */
const share = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1_000_000);

function operation(examples: readonly string[]): fc.Arbitrary<Operation> {
  const where: fc.Arbitrary<Where> = fc.oneof(
    { weight: 8, arbitrary: share.map((s) => ({ kind: "inside" as const, share: s })) },
    { weight: 1, arbitrary: fc.constant({ kind: "far" as const }) },
    { weight: 1, arbitrary: fc.constantFrom<Where>({ kind: "null" }, { kind: "negative" }, { kind: "fraction" }) },
  );
  const newName = fc.constantFrom("y", "X", "fresh_name", "1x", "while", "TRUE", "pi", "sum", "f", "a.b", "i");
  return fc.oneof(
    { weight: 10, arbitrary: fc.record({ kind: fc.constant("edit" as const), at: share, length: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200_000 }).map((n) => n / 1_000_000)), text: fc.oneof(fc.constant(""), fragment(examples)), pastEnd: fc.constant(false) }) },
    { weight: 1, arbitrary: fragment(examples).map((text) => ({ kind: "replaceAll" as const, text })) },
    { weight: 1, arbitrary: fc.constant({ kind: "deleteAll" as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("closeReopen" as const), pauseMs: fc.constantFrom(0, 1, 5, 20) }) },
    { weight: 8, arbitrary: fc.record({ kind: fc.constant("request" as const), method: fc.constantFrom(...REQUEST_METHODS), where, unopened: fc.boolean(), newName }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancelFlood" as const), count: fc.integer({ min: 5, max: 60 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("malformed" as const), which: fc.nat({ max: MALFORMED_BODIES.length - 1 }) }) },
  );
}

/** Storm number `index` of the run with `seed`: the same pair always draws the same storm. */
export function drawStorm(examples: readonly string[], seed: number, index: number): Storm {
  const storm = fc.record({
    initial: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...examples) }, { weight: 1, arbitrary: fragment(examples) }, { weight: 1, arbitrary: fc.constant("") }),
    operations: fc.array(operation(examples), { minLength: 3, maxLength: 30 }),
    pastEnd: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
  });
  const [drawn] = fc.sample(storm, { seed: seed + index * 7919, numRuns: 1 });
  const { initial, operations, pastEnd } = drawn!;
  // About one edit in eight has a range that runs past the end of the document; one storm in 25 pastes 1 MB; one in 200 starts from 50,000 lines.
  const ops = operations.map((op, i): Operation => (op.kind === "edit" ? { ...op, pastEnd: pastEnd[i]! && i % 4 === 0 } : op));
  if (index % 25 === 12) ops.splice(Math.floor(ops.length / 2), 0, { kind: "bigPaste", at: 0.5 });
  return { initial: index % 200 === 0 ? fiftyThousandLines(examples) : initial, operations: ops };
}

/** A 50,000-line document made of the examples, repeated. */
export function fiftyThousandLines(examples: readonly string[]): string {
  const lines = examples.join("\n").split("\n");
  const out: string[] = [];
  for (let i = 0; out.length < 50_000; i++) out.push(lines[i % lines.length]!);
  return out.join("\n");
}

/** About 1 MB of example text. */
export function oneMegabyte(examples: readonly string[]): string {
  const all = examples.join("\n");
  return all.repeat(Math.ceil(1_000_000 / all.length)).slice(0, 1_000_000);
}

/** The storm as a reader would write it down: the first text (shortened when long) and one line per operation. */
export function describeStorm(storm: Storm): string {
  const short = (s: string) => (s.length > 200 ? `${JSON.stringify(s.slice(0, 200))}... (${s.length} characters, ${s.split("\n").length} lines)` : JSON.stringify(s));
  return [`open ${short(storm.initial)}`, ...storm.operations.map((op) => JSON.stringify(op.kind === "edit" || op.kind === "replaceAll" ? { ...op, text: short(op.text) } : op))].join("\n");
}
