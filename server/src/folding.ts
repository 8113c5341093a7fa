/**
 * Folding ranges from the text alone (so they survive syntax errors):
 * `# %%` cells (from the marker to the last non-blank line before the next
 * marker), multi-line `{ }`, `( )` and `[ ]` groups, and block comments.
 */
import { FoldingRangeKind, type FoldingRange } from "vscode-languageserver/node";

const cellMarker = /^\s*#\s*%%/;

export function foldingRanges(text: string): FoldingRange[] {
  const lines = text.split(/\r?\n/);
  return [...cellRanges(lines), ...bracketAndCommentRanges(text)].sort(
    (a, b) => a.startLine - b.startLine || b.endLine - a.endLine,
  );
}

function cellRanges(lines: readonly string[]): FoldingRange[] {
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (cellMarker.test(line)) starts.push(i);
  });
  const ranges: FoldingRange[] = [];
  starts.forEach((start, k) => {
    let end = (k + 1 < starts.length ? starts[k + 1]! : lines.length) - 1;
    while (end > start && lines[end]!.trim() === "") end--;
    if (end > start) ranges.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Region });
  });
  return ranges;
}

function bracketAndCommentRanges(text: string): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const open: { char: string; line: number }[] = [];
  const closing: Record<string, string> = { "}": "{", ")": "(", "]": "[" };
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
    } else if (c === "#") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const startLine = line;
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") line++;
        i++;
      }
      i++;
      if (line > startLine) ranges.push({ startLine, endLine: line, kind: FoldingRangeKind.Comment });
    } else if (c === '"' || c === "'") {
      // Strings end at their quote or, unterminated, at the end of the line.
      while (i + 1 < text.length && text[i + 1] !== c && text[i + 1] !== "\n") {
        if (text[i + 1] === "\\") i++;
        i++;
      }
      if (text[i + 1] === c) i++;
    } else if (c === "{" || c === "(" || c === "[") {
      open.push({ char: c, line });
    } else if (c in closing) {
      // Recover from unbalanced text: drop opens until the matching kind.
      let k = open.length - 1;
      while (k >= 0 && open[k]!.char !== closing[c]) k--;
      if (k < 0) continue;
      const start = open[k]!.line;
      open.length = k;
      if (line - 1 > start) ranges.push({ startLine: start, endLine: line - 1 });
    }
  }
  return ranges;
}
