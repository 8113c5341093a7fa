/** Values of number and string tokens, as SystemDS reads them. */

const maxLong = 9223372036854775807n;

export interface DecodedNumber {
  value: number;
  isInteger: boolean;
  /** Why the literal is not valid DML, if it is not. */
  problem?: string;
}

/** `7`, `7L` are integers (64-bit); `1e3`, `5.`, `.5`, `1.5E-3` are doubles. A trailing `L` is dropped. */
export function decodeNumber(text: string, isIntegerToken: boolean): DecodedNumber {
  const digits = text.replace(/[lL]+$/, "");
  if (!isIntegerToken) return { value: Number(digits.replace(/(?<=[eE][+-]?\d+)[lL]/, "")), isInteger: false };
  const big = BigInt(digits);
  if (big > maxLong) {
    return { value: Number(big), isInteger: true, problem: `integer literal ${text} does not fit in a 64-bit integer` };
  }
  return { value: Number(big), isInteger: true };
}

const escapes: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "'": "'", "\\": "\\" };

/** The value of a quoted string token; an unknown escape keeps its character, a missing close quote is tolerated. */
export function decodeString(image: string): string {
  const quote = image.charAt(0);
  const body = image.length > 1 && image.endsWith(quote) && !isEscapedEnd(image) ? image.slice(1, -1) : image.slice(1);
  return body.replace(/\\([\s\S])/g, (_, c: string) => escapes[c] ?? c);
}

function isEscapedEnd(image: string): boolean {
  let backslashes = 0;
  for (let i = image.length - 2; i > 0 && image[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** A DML string literal (double-quoted) whose value is `value`. */
export function encodeString(value: string): string {
  return (
    '"' +
    value.replace(/[\\"\b\t\n\f\r]/g, (c) => {
      const name = Object.keys(escapes).find((k) => escapes[k] === c)!;
      return "\\" + name;
    }) +
    '"'
  );
}
