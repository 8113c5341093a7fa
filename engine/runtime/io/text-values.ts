/**
 * Numbers, indices and tokens of the text formats, as SystemDS's readers
 * accept them: values are Java doubles (`Double.parseDouble`: `1.5`, `1e-3`,
 * `NaN`, `Infinity`, `1.5d`, hex floats), indices are decimal integers
 * (`Integer.parseInt`), and the whitespace formats (text/IJV, Matrix Market,
 * libsvm) are tokenized at spaces and tabs.
 */
import { parseJavaDouble } from "../../metadata";

/** The value of a number token, or undefined when Java would not parse it. */
export function parseNumber(text: string): number | undefined {
  const fast = Number(text);
  if (!Number.isNaN(fast) && !needsJavaRules(text)) return fast;
  return parseJavaDouble(text);
}

/**
 * Whether JavaScript's Number() may differ from Java here: an empty or blank
 * text (Number gives 0) and 0x / 0b / 0o prefixes (Number reads them as
 * integers, Java only 0x...p hex floats).
 */
function needsJavaRules(text: string): boolean {
  let i = 0;
  const n = text.length;
  while (i < n && text.charCodeAt(i) <= 32) i++;
  if (i === n) return true;
  let c = text.charCodeAt(i);
  if (c === 43 || c === 45) c = text.charCodeAt(++i);
  if (c !== 48 || i + 1 >= n) return false;
  const next = text.charCodeAt(i + 1) | 32; // lower case
  return next === 120 || next === 98 || next === 111; // x, b, o
}

/** A decimal integer (optional sign), or undefined. */
export function parseInteger(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A 1-based index token: decimal digits with an optional '+', or undefined. */
export function parseIndex(text: string): number | undefined {
  const n = text.length;
  let i = text.charCodeAt(0) === 43 ? 1 : 0;
  if (i >= n) return undefined;
  let value = 0;
  for (; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    value = value * 10 + d;
  }
  return Number.isSafeInteger(value) ? value : undefined;
}

export interface Token {
  text: string;
  /** 1-based column of the token's first character. */
  column: number;
}

/** The whitespace-separated tokens of a line, with their columns. */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    let c = line.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
      i++;
      continue;
    }
    const start = i;
    while (i < n) {
      c = line.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) break;
      i++;
    }
    tokens.push({ text: line.slice(start, i), column: start + 1 });
  }
  return tokens;
}

/**
 * Calls `visit` with each line of `text` (without its \n or \r\n) and its
 * 1-based number; a final newline does not start another line.
 */
export function forEachLine(text: string, visit: (line: string, lineNumber: number) => void, startOffset = 0, firstLine = 1): void {
  let at = startOffset;
  let number = firstLine;
  const n = text.length;
  while (at < n) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = n;
    const stop = end > at && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    visit(text.slice(at, stop), number++);
    at = end + 1;
  }
}

/** A token quoted for a message, shortened when long. */
export function quoted(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return `'${shown}'`;
}
