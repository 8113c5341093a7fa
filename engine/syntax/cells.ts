/**
 * `# %%` cells, as the runtime runs them and the editor shows them: a cell
 * starts at each marker line and runs to the next; code before the first
 * marker is cell 1 when there is any. Plain text, no parsing.
 */

export interface Cell {
  /** 1-based. */
  index: number;
  startLine: number;
  endLine: number;
  text: string;
}

/** Splits a script at `# %%` comment lines; the text before the first marker is a cell if it has any code. */
export function splitCells(text: string): Cell[] {
  const lines = text.split("\n");
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (/^\s*#\s*%%/.test(line)) starts.push(i);
  });
  const bounds: [number, number][] = [];
  const firstCode = lines.slice(0, starts[0] ?? lines.length).some((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  const firstStart = starts[0];
  if (firstStart === undefined || (firstStart > 0 && firstCode)) bounds.push([0, (firstStart ?? lines.length) - 1]);
  starts.forEach((s, k) => bounds.push([s, (starts[k + 1] ?? lines.length) - 1]));
  return bounds.map(([startLine, endLine], i) => ({ index: i + 1, startLine, endLine, text: lines.slice(startLine, endLine + 1).join("\n") }));
}

/** The cell holding `line` (0-based), if any. */
export function cellAt(text: string, line: number): Cell | undefined {
  return splitCells(text).find((cell) => cell.startLine <= line && line <= cell.endLine);
}

/** The script with every line outside `cell` blanked, so positions stay those of the whole file. */
export function isolateCell(text: string, cell: Pick<Cell, "startLine" | "endLine">): string {
  return text
    .split("\n")
    .map((line, i) => (i >= cell.startLine && i <= cell.endLine ? line : ""))
    .join("\n");
}
