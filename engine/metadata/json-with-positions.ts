/**
 * A JSON parser that keeps the source range of every value and key, so that
 * a bad `.mtd` or `dml-lens.json` gets an error at its line and column.
 *
 * It accepts what SystemDS's reader (Apache Wink JSON4J, non-strict mode)
 * accepts on top of JSON: `//` and `/* *\/` comments, single-quoted strings
 * and unquoted words as strings; those are reported as `leniencies` so a
 * caller can warn. It never throws: a syntax error is a value.
 */
import type { Range } from "../syntax";
import { LineMap } from "./diagnostics";

export type JsonValue =
  | { kind: "object"; members: JsonMember[]; range: Range }
  | { kind: "array"; items: JsonValue[]; range: Range }
  | { kind: "string"; value: string; range: Range }
  /** `isInteger`: written without fraction or exponent (JSON4J makes it a Long, else a Double). */
  | { kind: "number"; value: number; text: string; isInteger: boolean; range: Range }
  | { kind: "boolean"; value: boolean; range: Range }
  | { kind: "null"; range: Range };

export interface JsonMember {
  key: string;
  keyRange: Range;
  value: JsonValue;
}

interface JsonProblem {
  message: string;
  range: Range;
}

export type JsonParseResult =
  | { ok: true; value: JsonValue; leniencies: JsonProblem[] }
  | { ok: false; error: JsonProblem; leniencies: JsonProblem[] };

class JsonSyntaxError {
  constructor(
    readonly message: string,
    readonly start: number,
    readonly end: number,
  ) {}
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$.\-]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;

export function parseJson(text: string): JsonParseResult {
  const lines = new LineMap(text);
  const leniencies: JsonProblem[] = [];
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const range = (start: number, end: number) => lines.range(start, end);
  const fail = (message: string, start: number, end = start + 1): never => {
    throw new JsonSyntaxError(message, start, Math.min(Math.max(end, start), text.length));
  };
  const describe = (at: number) => (at >= text.length ? "the end of the file" : `'${text[at]}'`);

  function skipSpace(): void {
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      if (text.startsWith("//", pos)) {
        const start = pos;
        while (pos < text.length && text[pos] !== "\n") pos++;
        leniencies.push({ message: "a // comment is not JSON (SystemDS's reader skips it)", range: range(start, pos) });
      } else if (text.startsWith("/*", pos)) {
        const start = pos;
        const close = text.indexOf("*/", pos + 2);
        if (close < 0) fail("this /* comment is never closed", start, start + 2);
        pos = close + 2;
        leniencies.push({ message: "a /* */ comment is not JSON (SystemDS's reader skips it)", range: range(start, pos) });
      } else return;
    }
  }

  function parseString(): { value: string; start: number; end: number } {
    const start = pos;
    const quote = text[pos]!;
    if (quote === "'") leniencies.push({ message: "single-quoted strings are not JSON (SystemDS's reader accepts them)", range: range(start, start + 1) });
    pos++;
    let value = "";
    for (;;) {
      if (pos >= text.length || text[pos] === "\n") fail("this string is never closed", start, pos);
      const c = text[pos]!;
      if (c === quote) {
        pos++;
        return { value, start, end: pos };
      }
      if (c !== "\\") {
        value += c;
        pos++;
        continue;
      }
      const e = text[pos + 1];
      const simple: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", '"': '"', "'": "'", "\\": "\\", "/": "/" };
      if (e !== undefined && simple[e] !== undefined) {
        value += simple[e];
        pos += 2;
      } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
        value += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
        pos += 6;
      } else {
        fail(`unknown escape '\\${e ?? ""}' in a string`, pos, pos + 2);
      }
    }
  }

  function parseNumber(): JsonValue {
    const start = pos;
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return fail(`expected a value, found ${describe(pos)}`, pos);
    pos = NUMBER.lastIndex;
    const spelled = match[0];
    const isInteger = !/[.eE]/.test(spelled);
    let value = Number(spelled);
    if (isInteger && /^-?0\d/.test(spelled)) {
      // JSON4J reads a leading 0 as octal; plain JSON has no leading zeros.
      const digits = spelled.replace(/^-?0/, "");
      const octal = /^[0-7]+$/.test(digits) ? parseInt(digits, 8) * (spelled.startsWith("-") ? -1 : 1) : Number.NaN;
      if (Number.isNaN(octal)) fail(`'${spelled}' is not a number (a leading 0 makes SystemDS's reader read it as octal)`, start, pos);
      leniencies.push({ message: `'${spelled}' has a leading 0: SystemDS's reader reads it as octal, ${octal}`, range: range(start, pos) });
      value = octal;
    }
    return { kind: "number", value, text: spelled, isInteger, range: range(start, pos) };
  }

  function parseWord(): JsonValue {
    const start = pos;
    WORD.lastIndex = pos;
    const match = WORD.exec(text);
    if (!match) return fail(`expected a value, found ${describe(pos)}`, pos);
    pos = WORD.lastIndex;
    const word = match[0];
    const r = range(start, pos);
    if (word === "true" || word === "false") return { kind: "boolean", value: word === "true", range: r };
    if (word === "null") return { kind: "null", range: r };
    leniencies.push({ message: `unquoted word '${word}' is not JSON (SystemDS's reader takes it as a string)`, range: r });
    return { kind: "string", value: word, range: r };
  }

  function parseValue(depth: number): JsonValue {
    if (depth > 200) fail("nested too deeply", pos);
    skipSpace();
    const c = text[pos];
    if (c === "{") return parseObject(depth);
    if (c === "[") return parseArray(depth);
    if (c === '"' || c === "'") {
      const s = parseString();
      return { kind: "string", value: s.value, range: range(s.start, s.end) };
    }
    if (c !== undefined && /[-.0-9]/.test(c)) return parseNumber();
    if (c !== undefined && /[A-Za-z_$]/.test(c)) return parseWord();
    return fail(`expected a value, found ${describe(pos)}`, pos);
  }

  function parseObject(depth: number): JsonValue {
    const start = pos++;
    const members: JsonMember[] = [];
    skipSpace();
    if (text[pos] === "}") {
      pos++;
      return { kind: "object", members, range: range(start, pos) };
    }
    for (;;) {
      skipSpace();
      let key: { value: string; start: number; end: number };
      if (text[pos] === '"' || text[pos] === "'") key = parseString();
      else if (text[pos] !== undefined && /[A-Za-z_$]/.test(text[pos]!)) {
        const keyStart = pos;
        WORD.lastIndex = pos;
        const word = WORD.exec(text)![0];
        pos = WORD.lastIndex;
        leniencies.push({ message: `unquoted key '${word}' is not JSON (SystemDS's reader accepts it)`, range: range(keyStart, pos) });
        key = { value: word, start: keyStart, end: pos };
      } else if (text[pos] === "}") return fail("a ',' before '}' is not allowed in JSON", pos);
      else return fail(`expected a key in double quotes, found ${describe(pos)}`, pos);
      skipSpace();
      if (text[pos] !== ":") fail(`expected ':' after the key "${key.value}", found ${describe(pos)}`, pos);
      pos++;
      const value = parseValue(depth + 1);
      members.push({ key: key.value, keyRange: range(key.start, key.end), value });
      skipSpace();
      if (text[pos] === ",") {
        pos++;
        continue;
      }
      if (text[pos] === "}") {
        pos++;
        return { kind: "object", members, range: range(start, pos) };
      }
      return fail(`expected ',' or '}' after a value, found ${describe(pos)}`, pos);
    }
  }

  function parseArray(depth: number): JsonValue {
    const start = pos++;
    const items: JsonValue[] = [];
    skipSpace();
    if (text[pos] === "]") {
      pos++;
      return { kind: "array", items, range: range(start, pos) };
    }
    for (;;) {
      items.push(parseValue(depth + 1));
      skipSpace();
      if (text[pos] === ",") {
        pos++;
        skipSpace();
        if (text[pos] === "]") fail("a ',' before ']' is not allowed in JSON", pos);
        continue;
      }
      if (text[pos] === "]") {
        pos++;
        return { kind: "array", items, range: range(start, pos) };
      }
      return fail(`expected ',' or ']' after a value, found ${describe(pos)}`, pos);
    }
  }

  try {
    skipSpace();
    if (pos >= text.length) fail("the file is empty: expected a JSON object", pos, pos);
    const value = parseValue(0);
    skipSpace();
    if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the JSON value`, pos);
    return { ok: true, value, leniencies };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, error: { message: error.message, range: range(error.start, error.end) }, leniencies };
  }
}

/** A short name of the JSON type, for messages ("a string", "an array"). */
export function jsonTypeName(value: JsonValue): string {
  switch (value.kind) {
    case "object":
      return "an object";
    case "array":
      return "an array";
    case "string":
      return `the string "${value.value}"`;
    case "number":
      return `the number ${value.text}`;
    case "boolean":
      return `the boolean ${value.value}`;
    case "null":
      return "null";
  }
}
