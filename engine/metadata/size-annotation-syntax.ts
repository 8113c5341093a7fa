/**
 * The text of one `@size` comment annotation:
 *
 *     # @size [NAME:] ROWS x COLS [, nnz=N] [, sparsity=S]
 *
 * - ROWS, COLS and N are integers; `1e6`, `2.5k`, `1M`, `3G`, `1T` are allowed
 *   (k = 10^3, M = 10^6, G = 10^9, T = 10^12, case-insensitive), and `?` means unknown.
 * - The `x` may also be `X`, `×` or `*`.
 * - S is a fraction in [0, 1] (`0.001`) or a percentage (`0.1%`).
 * - `nnz` and `sparsity` take `=`, `:` or a space; the comma before them is optional;
 *   give one of them, not both.
 * - NAME picks the variable when the statement assigns several (`[Q, R] = qr(A)`).
 *
 * The annotation must be the first thing in its comment (`# @size ...` or
 * `/* @size ... *\/`). Errors are reported at the exact characters.
 */
import type { Diagnostic, Position, Range } from "../syntax";

/** Sizes a user declares; an absent field is unknown. */
export interface SizeDeclaration {
  rows?: number;
  cols?: number;
  nnz?: number;
  /** Fraction of non-zero cells; turned into nnz once rows and cols are known. */
  sparsity?: number;
}

export interface ParsedSizeAnnotation {
  name?: { text: string; range: Range };
  declaration: SizeDeclaration;
  /** From `@size` to the end of the annotation text. */
  range: Range;
}

export interface SizeAnnotationParse {
  /** Undefined when the annotation has an error. */
  annotation?: ParsedSizeAnnotation;
  diagnostics: Diagnostic[];
}

const START = /^(?:#+|\/\*)[ \t]*@size(?![A-Za-z0-9_])/;
const NAME = /([A-Za-z][A-Za-z0-9_]*)[ \t]*:/y;
const COUNT = /(\?|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:[kKmMgGtT](?![A-WYZa-wyz0-9_]))?)/y;
const TIMES = /[ \t]*(?:x|X|×|\*)[ \t]*/y;
const KEYWORD = /(?:,[ \t]*)?([A-Za-z][A-Za-z0-9_]*)(?:[ \t]*[=:][ \t]*|[ \t]+)/y;
const FRACTION = /((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(%?)(?![A-Za-z0-9_.])/y;
const SUFFIX: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/**
 * Parses the comment `commentText` found at `commentStart`; undefined when
 * it is not a `@size` annotation at all.
 */
export function parseSizeAnnotation(commentText: string, commentStart: Position): SizeAnnotationParse | undefined {
  const start = START.exec(commentText);
  if (!start) return undefined;
  const body = commentText.startsWith("/*") ? commentText.replace(/\*\/$/, "") : commentText;
  const end = body.replace(/\s+$/, "").length;
  const diagnostics: Diagnostic[] = [];
  const position = (offset: number): Position => positionIn(commentText, commentStart, offset);
  const range = (from: number, to: number): Range => ({ start: position(from), end: position(to) });
  const error = (message: string, from: number, to: number): SizeAnnotationParse => {
    diagnostics.push({ severity: "error", message, range: range(from, Math.max(to, from)), code: "size-annotation" });
    return { diagnostics };
  };
  const atStart = commentText.indexOf("@size");
  let pos = start[0].length;
  const skipSpace = () => {
    while (pos < end && /[ \t]/.test(body[pos]!)) pos++;
  };
  const tokenEnd = (from: number) => {
    let to = from;
    while (to < end && !/[\s,]/.test(body[to]!)) to++;
    return Math.max(to, from + 1);
  };

  skipSpace();
  if (pos >= end) return error("@size needs the sizes: '@size ROWS x COLS', e.g. '@size 1e6 x 500, sparsity=0.01'", atStart, pos);
  let name: ParsedSizeAnnotation["name"];
  NAME.lastIndex = pos;
  const nameMatch = NAME.exec(body);
  if (nameMatch) {
    name = { text: nameMatch[1]!, range: range(pos, pos + nameMatch[1]!.length) };
    pos = NAME.lastIndex;
    skipSpace();
  }

  const readCount = (what: string): { value?: number; error?: SizeAnnotationParse } => {
    COUNT.lastIndex = pos;
    const match = pos < end ? COUNT.exec(body) : null;
    if (!match) {
      const found = pos < end ? `'${body.slice(pos, tokenEnd(pos))}'` : "the end of the comment";
      return { error: error(`expected ${what} (an integer such as 1000, 1e6 or 2.5M, or ? when unknown), found ${found}`, pos, pos < end ? tokenEnd(pos) : pos) };
    }
    const from = pos;
    pos = COUNT.lastIndex;
    if (match[1] === "?") return {};
    const value = countValue(match[1]!);
    if (value === undefined) return { error: error(`${what} must be a whole number, not ${match[1]}`, from, pos) };
    return { value };
  };

  const declaration: SizeDeclaration = {};
  const rows = readCount("the number of rows");
  if (rows.error) return rows.error;
  TIMES.lastIndex = pos;
  if (!TIMES.exec(body)) {
    skipSpace();
    const found = pos < end ? `'${body.slice(pos, tokenEnd(pos))}'` : "the end of the comment";
    return error(`expected 'x' between rows and columns (as in '@size 1000 x 20'), found ${found}`, pos, pos < end ? tokenEnd(pos) : pos);
  }
  pos = TIMES.lastIndex;
  const cols = readCount("the number of columns");
  if (cols.error) return cols.error;
  if (rows.value !== undefined) declaration.rows = rows.value;
  if (cols.value !== undefined) declaration.cols = cols.value;

  let nnzRange: Range | undefined;
  for (;;) {
    skipSpace();
    if (pos >= end) break;
    KEYWORD.lastIndex = pos;
    const keyword = KEYWORD.exec(body);
    const word = keyword?.[1];
    if (!keyword || (word !== "nnz" && word !== "sparsity")) {
      const from = keyword ? pos + keyword[0].indexOf(word!) : body[pos] === "," ? pos + 1 : pos;
      return error(`expected 'nnz=N' or 'sparsity=S' here, found '${body.slice(from, tokenEnd(from))}'`, from, tokenEnd(from));
    }
    const keywordStart = pos + keyword[0].indexOf(word);
    pos = KEYWORD.lastIndex;
    if (word in declaration || (word === "nnz" && "sparsity" in declaration) || (word === "sparsity" && "nnz" in declaration)) {
      return error("give nnz or sparsity once, not both", keywordStart, tokenEnd(pos));
    }
    if (word === "nnz") {
      const from = pos;
      const nnz = readCount("the number of non-zeros");
      if (nnz.error) return nnz.error;
      if (nnz.value !== undefined) {
        declaration.nnz = nnz.value;
        nnzRange = range(from, pos);
      }
      continue;
    }
    FRACTION.lastIndex = pos;
    const fraction = pos < end ? FRACTION.exec(body) : null;
    if (!fraction) return error("expected the sparsity: a fraction such as 0.001 or a percentage such as 0.1%", pos, tokenEnd(pos));
    const from = pos;
    pos = FRACTION.lastIndex;
    const value = Number(fraction[1]) / (fraction[2] ? 100 : 1);
    if (!(value >= 0 && value <= 1)) return error(`the sparsity is the fraction of non-zero cells, between 0 and 1 (or 0% and 100%), not ${body.slice(from, pos)}`, from, pos);
    declaration.sparsity = value;
  }

  if (declaration.nnz !== undefined && declaration.rows !== undefined && declaration.cols !== undefined && declaration.nnz > declaration.rows * declaration.cols) {
    const message = `nnz ${declaration.nnz} is more than rows x cols = ${declaration.rows * declaration.cols}`;
    diagnostics.push({ severity: "error", message, range: nnzRange!, code: "size-annotation" });
    return { diagnostics };
  }
  const annotation: ParsedSizeAnnotation = { declaration, range: range(atStart, end) };
  if (name) annotation.name = name;
  return { annotation, diagnostics };
}

/** `1e6`, `2.5k`, `3M` → an integer, or undefined when not whole. */
function countValue(text: string): number | undefined {
  const suffix = SUFFIX[text[text.length - 1]!.toLowerCase()];
  const value = suffix ? Number(text.slice(0, -1)) * suffix : Number(text);
  const rounded = Math.round(value);
  // 2.5k is 2500.0000000000005 in floating point: accept values within rounding of an integer.
  if (!Number.isFinite(value) || Math.abs(value - rounded) > 1e-9 * Math.max(1, Math.abs(value))) return undefined;
  return rounded;
}

/** The position of `offset` within a comment that starts at `start` (block comments may span lines). */
function positionIn(text: string, start: Position, offset: number): Position {
  let line = start.line;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: line === start.line ? start.character + offset : offset - lineStart };
}
