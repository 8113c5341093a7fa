/**
 * Small editor aids from the text and the analysis: code lenses over `# %%`
 * cells (the client implements the commands), inlay hints with the dims of
 * assigned matrices, and signature help for the builtin call around the
 * cursor. Plain data: server.ts converts to LSP types.
 */
import { lookupBuiltin } from "../../engine/program";
import { splitCells, type Position, type Range, textInRange } from "../../engine/syntax";
import type { ProgramAnalysis } from "../../engine/analysis";
import { builtinSignatureText, enclosingCall } from "./completion";
import { formatCount } from "../../engine/cost";

export const RUN_CELL_COMMAND = "dmlLens.runCell";
export const RUN_ABOVE_COMMAND = "dmlLens.runAbove";

export interface CellLens {
  line: number;
  title: string;
  command: string;
  /** The command's arguments: the 1-based cell index. */
  cell: number;
}

/** "Run Cell" and "Run Above" on each `# %%` marker line. */
export function cellLenses(text: string): CellLens[] {
  const lenses: CellLens[] = [];
  for (const cell of splitCells(text)) {
    if (!/^\s*#\s*%%/.test(text.split("\n")[cell.startLine] ?? "")) continue;
    lenses.push({ line: cell.startLine, title: "Run Cell", command: RUN_CELL_COMMAND, cell: cell.index });
    if (cell.index > 1) lenses.push({ line: cell.startLine, title: "Run Above", command: RUN_ABOVE_COMMAND, cell: cell.index });
  }
  return lenses;
}

export interface DimsHint {
  position: Position;
  label: string;
}

const inside = (range: Range, p: Position) => p.line >= range.start.line && p.line <= range.end.line;

/** `: 10,000×5,000` after the target of each matrix assignment in `range` whose dims are known. */
export function dimsHints(analysis: ProgramAnalysis, range: Range): DimsHint[] {
  const hints: DimsHint[] = [];
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    for (const statement of info.block.statements) {
      if (statement.kind !== "assign" || statement.target.kind !== "identifier") continue;
      const end = statement.target.range.end;
      if (!inside(range, end)) continue;
      const node = info.dag.nodes.find((n) => n.range.start.line === statement.value.range.start.line && n.range.start.character === statement.value.range.start.character && n.range.end.line === statement.value.range.end.line && n.range.end.character === statement.value.range.end.character);
      const stats = node ? sizes.nodes[node.id] : undefined;
      if (!stats || stats.type.dataType !== "matrix" || stats.rows === null || stats.cols === null) continue;
      hints.push({ position: end, label: `: ${formatCount(stats.rows)}×${formatCount(stats.cols)}` });
    }
  }
  return hints;
}

export interface SignatureHelp {
  label: string;
  parameters: string[];
  /** The parameter being typed (by position, or by the name being given). */
  active: number;
}

/** The signature of the builtin whose argument list holds the cursor. */
export function signatureHelp(text: string, position: Position): SignatureHelp | undefined {
  const before = textInRange(text, { start: { line: 0, character: 0 }, end: position });
  const call = enclosingCall(before);
  const builtin = call ? lookupBuiltin(call.callee) : undefined;
  if (!call || !builtin?.params) return undefined;
  const parameters = builtin.params.map((p) => p.name);
  const open = before.lastIndexOf(`${call.callee}(`);
  const args = before.slice(open + call.callee.length + 1);
  const current = /(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)[^,]*$/.exec(args)?.[1];
  let depth = 0;
  let commas = 0;
  for (const c of args) {
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) commas++;
  }
  const active = current !== undefined ? Math.max(0, parameters.indexOf(current)) : Math.min(commas, Math.max(0, parameters.length - 1));
  return { label: builtinSignatureText(builtin), parameters, active };
}
