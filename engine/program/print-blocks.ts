/**
 * A readable text form of statement blocks, one line per block, nested
 * blocks indented by two spaces, lines 1-based:
 *
 *   function f(a) -> (b) 1-4 reads [a] writes [b]
 *     basic 2-3 reads [a] writes [b]
 *   basic 5-6 reads [] writes [x, y]
 *   basic(function-call) 7 reads [y] writes [z]
 *   if 8-12 reads [z, x] writes [x]
 *     then
 *       basic 9 reads [x] writes [x]
 *     else
 *       basic(stop) 11 reads [] writes []
 *   for 13-15 reads [n, x] writes [i, x]
 *     basic 14 reads [x, i] writes [x]
 *
 * With `liveness: true` each line also shows `gen [...] kill [...]`.
 */
import type { Range } from "../syntax";
import type { FunctionBlock, ProgramBlocks, StatementBlock, VariableSets } from "./statement-block";

export interface PrintBlocksOptions {
  /** Also print the gen and kill sets. */
  liveness?: boolean;
}

/** Prints main blocks, or a whole `ProgramBlocks` (its functions first, then the main blocks). */
export function printBlocks(blocks: ProgramBlocks | readonly StatementBlock[], options: PrintBlocksOptions = {}): string {
  const lines: string[] = [];
  if (isProgramBlocks(blocks)) {
    for (const f of blocks.functions) printFunction(f, 0, lines, options);
    printSequence(blocks.main, 0, lines, options);
  } else {
    printSequence(blocks, 0, lines, options);
  }
  return lines.join("\n");
}

function isProgramBlocks(blocks: ProgramBlocks | readonly StatementBlock[]): blocks is ProgramBlocks {
  return !Array.isArray(blocks);
}

function printFunction(f: FunctionBlock, depth: number, lines: string[], options: PrintBlocksOptions): void {
  const head = `${f.external ? "externalFunction" : "function"} ${f.name}(${f.params.join(", ")}) -> (${f.returns.join(", ")})`;
  lines.push(line(depth, head, f.range, f, options));
  printSequence(f.bodyBlocks, depth + 1, lines, options);
}

function printSequence(blocks: readonly StatementBlock[], depth: number, lines: string[], options: PrintBlocksOptions): void {
  for (const block of blocks) printBlock(block, depth, lines, options);
}

function printBlock(block: StatementBlock, depth: number, lines: string[], options: PrintBlocksOptions): void {
  switch (block.kind) {
    case "basic":
      lines.push(line(depth, block.cut ? `basic(${block.cut})` : "basic", block.range, block, options));
      return;
    case "if":
      lines.push(line(depth, "if", block.range, block, options));
      lines.push(`${indent(depth + 1)}then`);
      printSequence(block.thenBlocks, depth + 2, lines, options);
      if (block.statement.elseBody) {
        lines.push(`${indent(depth + 1)}else`);
        printSequence(block.elseBlocks, depth + 2, lines, options);
      }
      return;
    case "while":
    case "for":
    case "parfor":
      lines.push(line(depth, block.kind, block.range, block, options));
      printSequence(block.bodyBlocks, depth + 1, lines, options);
      return;
  }
}

function line(depth: number, head: string, range: Range, sets: VariableSets, options: PrintBlocksOptions): string {
  let text = `${indent(depth)}${head} ${lineRange(range)} reads ${list(sets.reads)} writes ${list(sets.writes)}`;
  if (options.liveness) text += ` gen ${list(sets.gen)} kill ${list(sets.kill)}`;
  return text;
}

function lineRange(range: Range): string {
  const first = range.start.line + 1;
  // An end at character 0 belongs to the line before (end-exclusive ranges).
  const last = Math.max(first, range.end.character === 0 ? range.end.line : range.end.line + 1);
  return first === last ? `${first}` : `${first}-${last}`;
}

function list(names: readonly string[]): string {
  return `[${names.join(", ")}]`;
}

function indent(depth: number): string {
  return "  ".repeat(depth);
}
