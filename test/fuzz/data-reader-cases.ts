/**
 * Generated data files for the data-readers harness: each case is a set of
 * files, the `read()` call that reads one of them (with the same arguments
 * as typed parameters for the reader), and what reading it must give: the
 * matrix (row-major values), or an error naming a file and, where the
 * problem has one, its line.
 *
 * Kinds (each a small valid file, or one with one planted defect):
 * csv with NaN/Infinity spellings Java's Double.parseDouble accepts, csv
 * with a spelling it rejects (INF, nan, 1e, ...), ragged csv, empty csv,
 * a .mtd that disagrees with the data, a malformed (truncated) .mtd, a .mtd
 * or a Matrix Market size line claiming many GB, Matrix Market files valid,
 * with an index out of range, with a wrong entry count or a bad value,
 * text (i j v) with an index out of range or without dims, a .mtd field of
 * the wrong type, a ragged csv frame, libsvm with a feature index out of
 * range, and a FIFO or a folder where the file should be.
 */
import fc from "fast-check";
import type { ReadParameters } from "../../engine/runtime/io/read-parameters";

export type CaseFile = string | { fifo: true } | { folder: true };

export interface DataCase {
  kind: string;
  /** File name (relative to the script's folder) to content. */
  files: Record<string, CaseFile>;
  /** The file the read() reads. */
  file: string;
  /** The read() call as the script writes it. */
  call: string;
  /** The same arguments as the runtime's reader takes them. */
  params: ReadParameters;
  expected: { ok: true; rows: number; cols: number; values: number[] } | { ok: false; file: string; line?: number };
}

/** Values and spellings Java's Double.parseDouble (and so SystemDS's readers) accept. */
const SPELLINGS: [number, string[]][] = [
  [0, ["0", "0.0", "-0", "0e5", "000"]],
  [1.5, ["1.5", "1.50", "15e-1", "+1.5", ".15E1"]],
  [-2, ["-2", "-2.0", "-2d", "-2F"]],
  [Number.NaN, ["NaN"]],
  [Number.POSITIVE_INFINITY, ["Infinity", "+Infinity"]],
  [Number.NEGATIVE_INFINITY, ["-Infinity"]],
  [1e308, ["1e308", "1.0E308"]],
  [4.9e-324, ["4.9E-324"]],
  [7, ["7", "  7  ", "7."]],
];

/** Spellings Java rejects (R's and NumPy's infinities among them). */
const BAD_SPELLINGS = ["INF", "inf", "-inf", "nan", "NA", "1e", "--1", "1.2.3", "Infinity1", "abc", "0x", "1_000", "∞"];

const value = fc.constantFrom(...SPELLINGS).chain(([v, spellings]) => fc.constantFrom(...spellings).map((s) => ({ value: v, text: s })));

const matrixCells = fc
  .record({ rows: fc.integer({ min: 1, max: 6 }), cols: fc.integer({ min: 1, max: 6 }) })
  .chain(({ rows, cols }) => fc.array(value, { minLength: rows * cols, maxLength: rows * cols }).map((cells) => ({ rows, cols, cells })));

type Cells = { rows: number; cols: number; cells: { value: number; text: string }[] };

function csvText(m: Cells, header: boolean, crlf: boolean): string {
  const eol = crlf ? "\r\n" : "\n";
  const lines: string[] = [];
  if (header) lines.push(Array.from({ length: m.cols }, (_, j) => `c${j + 1}`).join(","));
  for (let i = 0; i < m.rows; i++) lines.push(m.cells.slice(i * m.cols, (i + 1) * m.cols).map((c) => c.text).join(","));
  return lines.join(eol) + eol;
}

function mtdText(fields: Record<string, unknown>): string {
  return JSON.stringify({ data_type: "matrix", value_type: "double", ...fields }, null, 1);
}

/** A csv read: with a .mtd (format, dims, header) or with format="csv" in the call. */
function csvRead(m: Cells, header: boolean, withMtd: boolean, mtdFields: Record<string, unknown> = {}): Pick<DataCase, "files" | "call" | "params"> {
  const files: Record<string, CaseFile> = {};
  if (withMtd) {
    files["x.csv.mtd"] = mtdText({ format: "csv", rows: m.rows, cols: m.cols, header, sep: ",", ...mtdFields });
    return { files, call: 'read("x.csv")', params: {} };
  }
  const call = header ? 'read("x.csv", format="csv", header=TRUE)' : 'read("x.csv", format="csv")';
  return { files, call, params: header ? { format: "csv", header: true } : { format: "csv" } };
}

const csvValid = fc.record({ m: matrixCells, header: fc.boolean(), withMtd: fc.boolean(), crlf: fc.boolean() }).map(({ m, header, withMtd, crlf }): DataCase => {
  const read = csvRead(m, header, withMtd);
  return {
    kind: "csv-valid",
    ...read,
    files: { ...read.files, "x.csv": csvText(m, header, crlf) },
    file: "x.csv",
    expected: { ok: true, rows: m.rows, cols: m.cols, values: m.cells.map((c) => c.value) },
  };
});

const csvBadSpelling = fc
  .record({ m: matrixCells, header: fc.boolean(), withMtd: fc.boolean(), bad: fc.constantFrom(...BAD_SPELLINGS), at: fc.nat() })
  .map(({ m, header, withMtd, bad, at }): DataCase => {
    const k = at % m.cells.length;
    const cells = m.cells.map((c, i) => (i === k ? { value: Number.NaN, text: bad } : c));
    const read = csvRead(m, header, withMtd);
    const line = Math.floor(k / m.cols) + 1 + (header ? 1 : 0);
    return { kind: "csv-bad-spelling", ...read, files: { ...read.files, "x.csv": csvText({ ...m, cells }, header, false) }, file: "x.csv", expected: { ok: false, file: "x.csv", line } };
  });

const csvRagged = fc
  .record({ m: matrixCells.filter((m) => m.rows >= 2 && m.cols >= 2), withMtd: fc.boolean(), row: fc.nat(), longer: fc.boolean() })
  .map(({ m, withMtd, row, longer }): DataCase => {
    const r = row % m.rows;
    const lines = csvText(m, false, false).split("\n");
    lines[r] = longer ? `${lines[r]},1` : lines[r]!.slice(0, lines[r]!.lastIndexOf(","));
    const read = csvRead(m, false, withMtd);
    // Without dims from a .mtd the first row sets the count: a short or long first row makes line 2 the odd one.
    const line = withMtd || r > 0 ? r + 1 : 2;
    return { kind: "csv-ragged", ...read, files: { ...read.files, "x.csv": lines.join("\n") }, file: "x.csv", expected: { ok: false, file: "x.csv", line } };
  });

const csvEmpty = fc.record({ text: fc.constantFrom("", "\n", "\n\n", " \n"), rows: fc.integer({ min: 1, max: 4 }) }).map(
  ({ text, rows }): DataCase => ({
    kind: "csv-empty",
    files: { "x.csv": text, "x.csv.mtd": mtdText({ format: "csv", rows, cols: 2 }) },
    file: "x.csv",
    call: 'read("x.csv")',
    params: {},
    expected: { ok: false, file: "x.csv" },
  }),
);

const mtdDisagrees = fc.record({ m: matrixCells, which: fc.constantFrom("rows", "cols"), delta: fc.constantFrom(-1, 1, 5) }).map(({ m, which, delta }): DataCase => {
  const claimed = { rows: m.rows, cols: m.cols, [which]: Math.max(0, (which === "rows" ? m.rows : m.cols) + delta) };
  const read = csvRead(m, false, true, claimed);
  return { kind: "mtd-disagrees", ...read, files: { ...read.files, "x.csv": csvText(m, false, false) }, file: "x.csv", expected: { ok: false, file: "x.csv" } };
});

/** A proper prefix of a .mtd (a truncated write): never a whole JSON object, so always malformed, the problem at its end. */
const mtdMalformed = fc.record({ m: matrixCells, cut: fc.nat() }).map(({ m, cut }): DataCase => {
  const full = mtdText({ format: "csv", rows: m.rows, cols: m.cols });
  const truncated = full.slice(0, cut % full.length);
  return {
    kind: "mtd-malformed",
    files: { "x.csv": csvText(m, false, false), "x.csv.mtd": truncated },
    file: "x.csv",
    call: 'read("x.csv")',
    params: {},
    expected: { ok: false, file: "x.csv.mtd", line: lineAt(truncated) },
  };
});

/** The 1-based line of the end of `text` (where a truncated JSON ends). */
function lineAt(text: string): number {
  return text.split("\n").length;
}

const mtdHuge = fc.record({ rows: fc.constantFrom(2e9, 1e6, 3e5), cols: fc.constantFrom(1e6, 3e5, 2e9), format: fc.constantFrom("csv", "text") }).map(
  ({ rows, cols, format }): DataCase => ({
    kind: "mtd-huge",
    files: { "x.dat": format === "csv" ? "1,2\n3,4\n" : "1 1 1.0\n", "x.dat.mtd": mtdText({ format, rows, cols }) },
    file: "x.dat",
    call: 'read("x.dat")',
    params: {},
    expected: { ok: false, file: "x.dat.mtd" },
  }),
);

/** A coordinate Matrix Market file over distinct cells of a rows x cols matrix. */
const mmEntries = fc
  .record({ rows: fc.integer({ min: 1, max: 8 }), cols: fc.integer({ min: 1, max: 8 }), field: fc.constantFrom("real", "integer", "pattern") })
  .chain(({ rows, cols, field }) =>
    fc.uniqueArray(fc.record({ i: fc.integer({ min: 1, max: rows }), j: fc.integer({ min: 1, max: cols }), v: fc.integer({ min: -9, max: 9 }) }), {
      selector: (e) => `${e.i},${e.j}`,
      maxLength: rows * cols,
    }).map((entries) => ({ rows, cols, field, entries })),
  );

type MmEntries = { rows: number; cols: number; field: string; entries: { i: number; j: number; v: number }[] };

function mmText(mm: MmEntries, count = mm.entries.length, extra: string[] = []): string {
  const lines = [`%%MatrixMarket matrix coordinate ${mm.field} general`, "% generated", `${mm.rows} ${mm.cols} ${count}`];
  for (const e of mm.entries) lines.push(mm.field === "pattern" ? `${e.i} ${e.j}` : `${e.i} ${e.j} ${e.v}`);
  return [...lines, ...extra].join("\n") + "\n";
}

function mmValues(mm: MmEntries): number[] {
  const values = new Array<number>(mm.rows * mm.cols).fill(0);
  for (const e of mm.entries) values[(e.i - 1) * mm.cols + (e.j - 1)] = mm.field === "pattern" ? 1 : e.v;
  return values;
}

const mmRead = { file: "x.mtx", call: 'read("x.mtx", format="mm")', params: { format: "mm" } as ReadParameters };

const mmValid = mmEntries.map((mm): DataCase => ({ kind: "mm-valid", ...mmRead, files: { "x.mtx": mmText(mm) }, expected: { ok: true, rows: mm.rows, cols: mm.cols, values: mmValues(mm) } }));

const mmOutOfRange = fc.record({ mm: mmEntries, which: fc.constantFrom("row0", "rowHigh", "col0", "colHigh", "negative") }).map(({ mm, which }): DataCase => {
  const bad = { row0: [0, 1], rowHigh: [mm.rows + 1, 1], col0: [1, 0], colHigh: [1, mm.cols + 1], negative: [-1, 1] }[which]!;
  const entry = mm.field === "pattern" ? `${bad[0]} ${bad[1]}` : `${bad[0]} ${bad[1]} 1`;
  const text = mmText(mm, mm.entries.length + 1, [entry]);
  return { kind: "mm-out-of-range", ...mmRead, files: { "x.mtx": text }, expected: { ok: false, file: "x.mtx", line: 4 + mm.entries.length } };
});

const mmWrongCount = fc.record({ mm: mmEntries, delta: fc.constantFrom(-1, 1, 1000) }).filter(({ mm, delta }) => mm.entries.length + delta >= 0).map(({ mm, delta }): DataCase => {
  const count = mm.entries.length + delta;
  // Too many entries: the first one past the count; too few: the size line.
  const line = delta < 0 ? 3 + count + 1 : 3;
  return { kind: "mm-wrong-count", ...mmRead, files: { "x.mtx": mmText(mm, count) }, expected: { ok: false, file: "x.mtx", line } };
});

const mmBadValue = fc.record({ mm: mmEntries.filter((mm) => mm.field !== "pattern" && mm.entries.length > 0), bad: fc.constantFrom(...BAD_SPELLINGS), at: fc.nat() }).map(({ mm, bad, at }): DataCase => {
  const k = at % mm.entries.length;
  const lines = mmText(mm).split("\n");
  const e = mm.entries[k]!;
  lines[3 + k] = `${e.i} ${e.j} ${bad}`;
  return { kind: "mm-bad-value", ...mmRead, files: { "x.mtx": lines.join("\n") }, expected: { ok: false, file: "x.mtx", line: 4 + k } };
});

/** Size lines whose matrix takes many GB: 2e9 row pointers, 1e9 or 1e12 entries, a 1e6 x 1e6 or 2e9 x 3 array. */
const HUGE_SIZE_LINES = [
  "coordinate real general\n2000000000 3 1",
  `coordinate real general\n${2 ** 31 - 1} 3 1`,
  "coordinate real general\n1000000 1000000 1000000000",
  "coordinate integer symmetric\n1000000 1000000 1000000000000",
  "array real general\n1000000 1000000",
  "array real general\n2000000000 3",
];

const mmHuge = fc.constantFrom(...HUGE_SIZE_LINES).map(
  (sizeLine): DataCase => ({
    kind: "mm-huge",
    ...mmRead,
    files: { "x.mtx": `%%MatrixMarket matrix ${sizeLine}\n${sizeLine.startsWith("array") ? "1.0" : "1 1 1.0"}\n` },
    expected: { ok: false, file: "x.mtx", line: 2 },
  }),
);

const textOutOfRange = fc.record({ rows: fc.integer({ min: 1, max: 5 }), cols: fc.integer({ min: 1, max: 5 }), good: fc.integer({ min: 0, max: 3 }), high: fc.boolean() }).map(
  ({ rows, cols, good, high }): DataCase => {
    const lines = Array.from({ length: good }, (_, k) => `${(k % rows) + 1} ${(k % cols) + 1} 2.5`);
    lines.push(high ? `${rows + 1} 1 1.0` : `1 0 1.0`);
    return {
      kind: "text-out-of-range",
      files: { "x.ijv": lines.join("\n") + "\n", "x.ijv.mtd": mtdText({ format: "text", rows, cols }) },
      file: "x.ijv",
      call: 'read("x.ijv")',
      params: {},
      expected: { ok: false, file: "x.ijv", line: good + 1 },
    };
  },
);

/** A .mtd with one field of the wrong type or an unknown value: an error at that field's line. */
const mtdBadField = fc
  .record({ m: matrixCells, field: fc.constantFrom<[string, unknown]>(["rows", "abc"], ["rows", -3], ["cols", 2.5], ["format", "xls"], ["header", "yes"], ["data_type", "tensor"]) })
  .map(({ m, field: [key, bad] }): DataCase => {
    const text = mtdText({ format: "csv", rows: m.rows, cols: m.cols, [key]: bad });
    const line = text.split("\n").findIndex((l) => l.includes(`"${key}"`)) + 1;
    // A tensor is a valid data type the reader cannot read: the .mtd is named, without a line.
    const expected = bad === "tensor" ? { ok: false as const, file: "x.csv.mtd" } : { ok: false as const, file: "x.csv.mtd", line };
    return { kind: "mtd-bad-field", files: { "x.csv": csvText(m, false, false), "x.csv.mtd": text }, file: "x.csv", call: 'read("x.csv")', params: {}, expected };
  });

/** Text (i j v) without dims anywhere: the reader needs them. */
const textNoDims = fc.integer({ min: 1, max: 4 }).map(
  (n): DataCase => ({
    kind: "text-no-dims",
    files: { "x.ijv": Array.from({ length: n }, (_, k) => `${k + 1} 1 ${k + 0.5}`).join("\n") + "\n" },
    file: "x.ijv",
    call: 'read("x.ijv", format="text")',
    params: { format: "text" },
    expected: { ok: false, file: "x.ijv" },
  }),
);

/** A real Matrix Market file with NaN and infinity spellings, general or symmetric (lower triangle given). */
const mmRealValues = fc
  .record({ n: fc.integer({ min: 1, max: 5 }), symmetric: fc.boolean() })
  .chain(({ n, symmetric }) =>
    fc.uniqueArray(fc.record({ i: fc.integer({ min: 1, max: n }), j: fc.integer({ min: 1, max: n }), v: value.filter((c) => c.value !== 0) }), {
      selector: (e) => (symmetric ? `${Math.max(e.i, e.j)},${Math.min(e.i, e.j)}` : `${e.i},${e.j}`),
      maxLength: n * n,
    }).map((entries) => ({ n, symmetric, entries: symmetric ? entries.map((e) => ({ ...e, i: Math.max(e.i, e.j), j: Math.min(e.i, e.j) })) : entries })),
  )
  .map(({ n, symmetric, entries }): DataCase => {
    const lines = [`%%MatrixMarket matrix coordinate real ${symmetric ? "symmetric" : "general"}`, `${n} ${n} ${entries.length}`, ...entries.map((e) => `${e.i} ${e.j} ${e.v.text.trim()}`)];
    const values = new Array<number>(n * n).fill(0);
    for (const e of entries) {
      values[(e.i - 1) * n + (e.j - 1)] = e.v.value;
      if (symmetric) values[(e.j - 1) * n + (e.i - 1)] = e.v.value;
    }
    return { kind: "mm-real-values", ...mmRead, files: { "x.mtx": lines.join("\n") + "\n" }, expected: { ok: true, rows: n, cols: n, values } };
  });

/** A csv frame (with a header) with one row short of a field: an error at that row's line. */
const frameRagged = fc.record({ m: matrixCells.filter((m) => m.cols >= 2), row: fc.nat() }).map(({ m, row }): DataCase => {
  const r = row % m.rows;
  const lines = csvText(m, true, false).split("\n");
  lines[r + 1] = lines[r + 1]!.slice(0, lines[r + 1]!.lastIndexOf(","));
  return {
    kind: "frame-ragged",
    files: { "x.csv": lines.join("\n") },
    file: "x.csv",
    call: 'read("x.csv", data_type="frame", format="csv", header=TRUE)',
    params: { dataType: "frame", format: "csv", header: true },
    expected: { ok: false, file: "x.csv", line: r + 2 },
  };
});

/** libsvm (label, then index:value features) with one feature index out of 1..cols-1: an error at its line. */
const libsvmOutOfRange = fc
  .record({ rows: fc.integer({ min: 1, max: 5 }), features: fc.integer({ min: 1, max: 5 }), badRow: fc.nat(), high: fc.boolean() })
  .map(({ rows, features, badRow, high }): DataCase => {
    const r = badRow % rows;
    const lines = Array.from({ length: rows }, (_, i) => `${i % 2 === 0 ? 1 : -1} ${(i % features) + 1}:${i + 0.5}`);
    lines[r] = `1 ${high ? features + 1 : 0}:2.5`;
    return {
      kind: "libsvm-out-of-range",
      files: { "x.svm": lines.join("\n") + "\n" },
      file: "x.svm",
      call: `read("x.svm", format="libsvm", rows=${rows}, cols=${features + 1})`,
      params: { format: "libsvm", rows, cols: features + 1 },
      expected: { ok: false, file: "x.svm", line: r + 1 },
    };
  });

const notAFile = fc.constantFrom<CaseFile>({ fifo: true }, { folder: true }).map(
  (what): DataCase => ({ kind: "not-a-file", files: { "x.csv": what }, file: "x.csv", call: 'read("x.csv", format="csv")', params: { format: "csv" }, expected: { ok: false, file: "x.csv" } }),
);

/** Every kind, equally likely. */
export const dataCase: fc.Arbitrary<DataCase> = fc.oneof(
  csvValid,
  csvBadSpelling,
  csvRagged,
  csvEmpty,
  mtdDisagrees,
  mtdMalformed,
  mtdHuge,
  mtdBadField,
  textNoDims,
  mmValid,
  mmRealValues,
  mmOutOfRange,
  mmWrongCount,
  mmBadValue,
  mmHuge,
  textOutOfRange,
  frameRagged,
  libsvmOutOfRange,
  notAFile,
);

/** The case as a user would see it: the files and the script. */
export function describeCase(c: DataCase, script: string): string {
  const files = Object.entries(c.files).map(([name, content]) => `== ${name}${typeof content === "string" ? `\n${content}` : ` (${"fifo" in content ? "a FIFO" : "a folder"})`}`);
  return [`== script.dml\n${script}`, ...files].join("\n");
}
