// Matrix Market headers of every kind, read from small temp files; only the
// head of a big file is read; exact non-zeros of symmetric files by a scan.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { parseMatrixMarketHeader, readMatrixMarketHeader, scanMatrixMarketNnz } from "../../engine/metadata";
import { type FileSystem, nodeFileSystem } from "../../engine/files";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-mm-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function mmFile(text: string): string {
  const file = path.join(dir, `m${counter++}.mtx`);
  writeFileSync(file, text);
  return file;
}

function header(text: string) {
  const result = readMatrixMarketHeader(nodeFileSystem, mmFile(text));
  return { ...result.header!, diagnostics: result.diagnostics };
}

describe("Matrix Market header: every format, field and symmetry", () => {
  test("coordinate real general: nnz is the entry count", () => {
    const h = header("%%MatrixMarket matrix coordinate real general\n% a comment\n%\n4 3 6\n1 1 1.0\n");
    assert.deepEqual(h.diagnostics, []);
    assert.equal(h.format, "coordinate");
    assert.equal(h.field, "real");
    assert.equal(h.symmetry, "general");
    assert.deepEqual([h.rows, h.cols, h.entries, h.nnz, h.nnzUpperBound], [4, 3, 6, 6, 6]);
    assert.equal(h.sizeLine, 3);
  });

  test("coordinate integer and pattern general", () => {
    const integer = header("%%MatrixMarket matrix coordinate integer general\n5 5 7\n");
    assert.deepEqual([integer.field, integer.nnz], ["integer", 7]);
    const pattern = header("%%MatrixMarket matrix coordinate pattern general\n5 6 8\n1 2\n");
    assert.deepEqual([pattern.field, pattern.rows, pattern.cols, pattern.nnz], ["pattern", 5, 6, 8]);
    assert.deepEqual(pattern.diagnostics, []);
  });

  test("coordinate symmetric: nnz unknown from the header, bounds entries .. 2·entries", () => {
    const h = header("%%MatrixMarket matrix coordinate real symmetric\n10 10 30\n");
    assert.deepEqual(h.diagnostics, []);
    assert.equal(h.nnz, null);
    assert.equal(h.nnzLowerBound, 30);
    assert.equal(h.nnzUpperBound, 60);
    assert.match(h.nnzNote!, /2·entries − \(diagonal entries\)/);
  });

  test("symmetric bound never exceeds rows·cols", () => {
    const h = header("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 6\n");
    assert.equal(h.nnzUpperBound, 9);
  });

  test("coordinate skew-symmetric: exactly 2·entries, with a warning that SystemDS cannot read it", () => {
    const h = header("%%MatrixMarket matrix coordinate real skew-symmetric\n4 4 3\n");
    assert.equal(h.nnz, 6);
    assert.deepEqual(h.diagnostics.map((d) => [d.severity, d.code]), [["warning", "mm-systemds"]]);
  });

  test("array general and symmetric: nnz unknown, bounded by rows·cols; SystemDS's limitation is a warning", () => {
    const general = header("%%MatrixMarket matrix array real general\n3 2\n1\n0\n2\n0\n0\n3\n");
    assert.deepEqual([general.format, general.rows, general.cols, general.entries, general.nnz, general.nnzUpperBound], ["array", 3, 2, 6, null, 6]);
    assert.match(general.diagnostics[0]!.message, /only 'coordinate'/);
    const symmetric = header("%%MatrixMarket matrix array real symmetric\n3 3\n");
    assert.deepEqual([symmetric.entries, symmetric.nnz, symmetric.nnzUpperBound], [6, null, 9]);
  });

  test("complex and hermitian are read with warnings", () => {
    const h = header("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n");
    assert.equal(h.symmetry, "hermitian");
    assert.equal(h.nnz, null);
    assert.equal(h.diagnostics.length, 2);
  });

  test("upper-case words are valid Matrix Market; SystemDS wants lower case (a warning)", () => {
    const h = header("%%MatrixMarket MATRIX Coordinate Real General\n2 2 1\n");
    assert.equal(h.nnz, 1);
    assert.match(h.diagnostics[0]!.message, /lower-case/);
  });

  test("\\r\\n line ends and a byte-order mark", () => {
    const h = header("\uFEFF%%MatrixMarket matrix coordinate real general\r\n% c\r\n2 3 4\r\n");
    assert.deepEqual([h.rows, h.cols, h.nnz], [2, 3, 4]);
    assert.deepEqual(h.diagnostics, []);
  });
});

describe("Matrix Market header: malformed headers, at their line and column", () => {
  const problems = (text: string) => parseMatrixMarketHeader(text, "/d/a.mtx").diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.message}`);

  test("no banner", () => {
    assert.match(problems("4 3 6\n")[0]!, /^1:1 error a Matrix Market file starts with/);
  });

  test("wrong words in the banner", () => {
    assert.match(problems("%%MatrixMarket vector coordinate real general\n3 1 1\n")[0]!, /^1:16 error only 'matrix'/);
    assert.match(problems("%%MatrixMarket matrix sparse real general\n3 1 1\n")[0]!, /^1:23 error unknown Matrix Market format 'sparse'/);
    assert.match(problems("%%MatrixMarket matrix coordinate real\n3 1 1\n")[0]!, /needs 5 words/);
    assert.match(problems("%%MatrixMarket matrix array pattern general\n3 1\n")[0]!, /'pattern' cannot be combined with 'array'/);
  });

  test("bad size lines", () => {
    assert.match(problems("%%MatrixMarket matrix coordinate real general\n3 1\n")[0]!, /^2:1 error the size line of a coordinate Matrix Market file is 'rows cols entries' \(found 2 numbers\)/);
    assert.match(problems("%%MatrixMarket matrix coordinate real general\n3 x 1\n")[0]!, /^2:3 error 'x' in the size line/);
    assert.match(problems("%%MatrixMarket matrix coordinate real general\n% only comments\n")[0]!, /no size line/);
    assert.match(problems("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n")[0]!, /must be square/);
  });

  test("an empty line before the size line is a warning (SystemDS fails on it); the size is still read", () => {
    const result = parseMatrixMarketHeader("%%MatrixMarket matrix coordinate real general\n\n2 2 1\n", "a.mtx");
    assert.equal(result.header!.nnz, 1);
    assert.equal(result.diagnostics[0]!.severity, "warning");
  });
});

describe("Matrix Market: big files and exact non-zeros", () => {
  test("only the head of a big file is read", () => {
    const lines = ["%%MatrixMarket matrix coordinate real general", "100000 100000 200000"];
    for (let i = 1; i <= 200000; i++) lines.push(`${i % 100000 || 1} ${(i * 7) % 100000 || 1} 1.5`);
    const file = mmFile(lines.join("\n"));
    const requested: number[] = [];
    const counting: FileSystem = {
      readFile: () => assert.fail("the whole file must not be read"),
      exists: (p) => nodeFileSystem.exists(p),
      readHead: (p, n) => {
        requested.push(n);
        return nodeFileSystem.readHead!(p, n);
      },
    };
    const result = readMatrixMarketHeader(counting, file);
    assert.equal(result.header!.nnz, 200000);
    assert.deepEqual(requested, [4096]);
  });

  test("long comment blocks: the head grows until the size line is in it", () => {
    const comments = Array.from({ length: 500 }, (_, i) => `% comment line ${i} ${"x".repeat(40)}`).join("\n");
    const h = header(`%%MatrixMarket matrix coordinate real general\n${comments}\n7 8 9\n1 1 1\n`);
    assert.deepEqual([h.rows, h.cols, h.nnz, h.sizeLine], [7, 8, 9, 501]);
  });

  test("a symmetric file's exact nnz: 2·off-diagonal + diagonal, explicit zeros not counted", () => {
    const text = "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2.0\n2 1 3.0\n3 2 -1\n3 3 0\n";
    const h = parseMatrixMarketHeader(text, "a.mtx").header!;
    assert.deepEqual(scanMatrixMarketNnz(text, h), { nnz: 5 });
  });

  test("exact nnz of array files (general and symmetric, column-major)", () => {
    const general = "%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n4\n";
    assert.deepEqual(scanMatrixMarketNnz(general, parseMatrixMarketHeader(general, "a").header!), { nnz: 2 });
    // lower triangle of [[1, 2, 0], [2, 0, 5], [0, 5, 6]] by columns: 1 2 0 | 0 5 | 6
    const symmetric = "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n0\n0\n5\n6\n";
    assert.deepEqual(scanMatrixMarketNnz(symmetric, parseMatrixMarketHeader(symmetric, "a").header!), { nnz: 6 });
  });

  test("a bad data line stops the scan with its position", () => {
    const text = "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 x 2\n";
    const scan = scanMatrixMarketNnz(text, parseMatrixMarketHeader(text, "a").header!);
    assert.equal(scan.nnz, null);
    assert.deepEqual(scan.problem!.position, { line: 2, character: 0 });
  });
});
