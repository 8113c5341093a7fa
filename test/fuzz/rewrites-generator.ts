/**
 * Random well-typed linear-algebra scripts for the rewrite differential
 * harness (rewrites.harness.ts).
 *
 * Expressions are drawn by shape over three symbolic dimensions m, n, p and
 * the literal 1 (so every combination of matrix, column vector, row vector,
 * 1 x 1 matrix and scalar appears), then the dimensions get values from
 * 0 to 4 per case, so 0-row and 0-column matrices (empty), 1 x 1 matrices
 * and vectors happen by themselves. Operators are those the optimizer
 * rewrites (engine/rewrite/la-ops.ts: %*%, t, + - * / ^0..3, min/max,
 * comparisons, neg, abs, sign, sqrt, exp, sum/rowSums/colSums and other
 * aggregates, as.scalar/as.matrix, constant fills, broadcasts of row and
 * column vectors and scalars) plus some it treats as opaque (diag, trace,
 * nrow/ncol).
 *
 * Each input a program uses is declared at the top of the script, in one of
 * four forms chosen by a per-case seed: a literal matrix (small multiples of
 * 0.5, a random share of zeros, some all-zero rows and columns), a zero
 * matrix, `rand(...)` with a sparsity from 0 to 1, or a dense literal.
 * Denominators are never zero (a non-zero constant, or `E^2 + c`), so a
 * difference is a wrong rewrite, not 0/0 read two ways.
 */
import fc from "fast-check";
import { seededRandom } from "../../engine/stats/structure-random";

/** A dimension symbol: m, n, p vary per case; "1" is a vector or 1 x 1 side. */
export type Dim = "m" | "n" | "p" | "1";
const DIMS: readonly Dim[] = ["m", "n", "p", "1"];

/** Shapes of an expression: a matrix `r,c` or a scalar. */
export type ShapeKey = `${Dim},${Dim}` | "scalar";

export interface RewriteCase {
  /** Values of the dimension symbols. */
  readonly dims: Readonly<Record<"m" | "n" | "p", number>>;
  /** Seed of the inputs' forms and values. */
  readonly inputSeed: number;
  /** Right-hand sides of R1, R2, ... with their shapes (a later one may use the earlier results). */
  readonly statements: readonly { readonly shape: ShapeKey; readonly text: string; readonly share: boolean }[];
}

/** Input names by shape: A_m_n, B_m_n (two distinct operands per shape); `s`, `x` scalars. */
function inputName(letter: "A" | "B", r: Dim, c: Dim): string {
  return `${letter}_${r}_${c}`;
}

const NONZERO_CONSTANTS = ["2", "0.5", "-1", "3", "-0.5"];

function expressionArbitraries(maxDepth: number): Record<ShapeKey, fc.Arbitrary<string>> {
  const depthIdentifier = fc.createDepthIdentifier();
  const keys: ShapeKey[] = ["scalar", ...DIMS.flatMap((r) => DIMS.map((c) => `${r},${c}` as ShapeKey))];
  return fc.letrec<Record<ShapeKey, string>>((tie) => {
    const arbitraries = {} as Record<ShapeKey, fc.Arbitrary<string>>;
    for (const key of keys) {
      if (key === "scalar") {
        arbitraries.scalar = fc.oneof(
          { maxDepth, depthIdentifier, depthSize: "small" },
          fc.constantFrom("s", "x", "2", "0.5", "-1", "0", "1"),
          ...repeat(2, fc.tuple(fc.constantFrom(...DIMS), fc.constantFrom(...DIMS)).chain(([r, c]) => tie(`${r},${c}`).map((e) => `sum(${e})`))),
          fc.constantFrom(...DIMS).chain((d) => tie(`${d},${d}`).map((e) => `trace(${e})`)),
          tie("1,1").map((e) => `as.scalar(${e})`),
          fc.tuple(tie("scalar"), fc.constantFrom("+", "-", "*"), tie("scalar")).map(([a, op, b]) => `(${a} ${op} ${b})`),
          fc.tuple(tie("scalar"), positive(tie("scalar"))).map(([a, b]) => `(${a} / ${b})`),
          fc.tuple(fc.constantFrom(...DIMS), fc.constantFrom(...DIMS)).chain(([r, c]) => tie(`${r},${c}`).map((e) => `sum(${e}^2)`)),
          fc.tuple(fc.constantFrom("m", "n", "p" as const), fc.constantFrom("nrow", "ncol")).map(([d, f]) => `${f}(${inputName("A", d, d === "m" ? "n" : "m")})`),
          fc.tuple(fc.constantFrom("m", "n", "p" as const)).chain(([d]) => tie(`${d},1`).map((e) => `mean(${e})`)),
          fc.tuple(fc.constantFrom("max", "min"), fc.constantFrom(...DIMS)).chain(([f, d]) => tie(`${d},${d}`).map((e) => `${f}(${e})`)),
        );
        continue;
      }
      const [r, c] = key.split(",") as [Dim, Dim];
      const same = tie(key);
      const leaves: fc.Arbitrary<string>[] = [];
      if (!(r === "1" && c === "1")) leaves.push(fc.constantFrom(inputName("A", r, c), inputName("B", r, c)));
      else leaves.push(fc.constantFrom(inputName("A", "1", "1"), "as.matrix(s)"));
      const choices: fc.Arbitrary<string>[] = [
        ...leaves,
        fc.constantFrom(inputName("A", c, r)).map((name) => (r === "1" && c === "1" ? name : `t(${name})`)),
        fc.tuple(same, fc.constantFrom("+", "-", "*"), same).map(([a, op, b]) => `(${a} ${op} ${b})`),
        fc.tuple(same, positive(same)).map(([a, b]) => `(${a} / ${b})`),
        fc.tuple(same, fc.constantFrom("+", "-", "*"), tie("scalar"), fc.boolean()).map(([a, op, s, left]) => (left ? `(${s} ${op} ${a})` : `(${a} ${op} ${s})`)),
        fc.tuple(same, fc.constantFrom(...NONZERO_CONSTANTS)).map(([a, k]) => `(${a} / ${k})`),
        // Products and transposes are drawn more often: they are what the optimizer reorders.
        ...repeat(3, fc.tuple(fc.constantFrom(...DIMS), fc.boolean()).chain(([k, lean]) =>
          fc.tuple(tie(`${r},${k}`), tie(`${k},${c}`)).map(([a, b]) => (lean ? `(${a} %*% ${b})` : `${a} %*% ${b}`)),
        )),
        ...repeat(2, tie(`${c},${r}`).map((e) => `t(${e})`)),
        ...repeat(2, same.map((e) => `(${e})^2`)),
        fc.tuple(same, fc.constantFrom("0", "1", "3")).map(([e, k]) => `(${e})^${k}`),
        fc.tuple(fc.constantFrom("sqrt", "abs"), same).map(([f, e]) => `${f}((${e})^2)`),
        same.map((e) => `exp(${e} / 4)`),
        same.map((e) => `(-${e})`),
        fc.tuple(fc.constantFrom("abs", "sign"), same).map(([f, e]) => `${f}(${e})`),
        fc.tuple(fc.constantFrom("min", "max"), same, same).map(([f, a, b]) => `${f}(${a}, ${b})`),
        fc.tuple(same, fc.constantFrom(">", "<", "==", "!=")).map(([a, op]) => `(${a} ${op} 0)`),
        fc.tuple(fc.constantFrom("0", "1", "2", "-1"), fc.constantFrom(...NONZERO_CONSTANTS)).map(([v]) => `matrix(${v}, rows=${dimText(r)}, cols=${dimText(c)})`),
      ];
      if (c === "1") choices.push(fc.tuple(fc.constantFrom(...DIMS), fc.constantFrom("rowSums", "rowSums", "rowMeans", "rowMaxs")).chain(([k, f]) => tie(`${r},${k}`).map((e) => `${f}(${e})`)));
      if (r === "1") choices.push(fc.tuple(fc.constantFrom(...DIMS), fc.constantFrom("colSums", "colSums", "colMeans", "colMins")).chain(([k, f]) => tie(`${k},${c}`).map((e) => `${f}(${e})`)));
      // Broadcasts: a matrix with a column vector, a row vector (either side).
      if (c !== "1") choices.push(fc.tuple(same, fc.constantFrom("+", "-", "*"), tie(`${r},1`), fc.boolean()).map(([a, op, v, left]) => (left ? `(${v} ${op} ${a})` : `(${a} ${op} ${v})`)));
      if (r !== "1") choices.push(fc.tuple(same, fc.constantFrom("+", "-", "*"), tie(`1,${c}`), fc.boolean()).map(([a, op, v, left]) => (left ? `(${v} ${op} ${a})` : `(${a} ${op} ${v})`)));
      if (r === c && r !== "1") choices.push(tie(`${r},${r}`).map((e) => `diag(diag(${e}))`));
      if (c === "1" && r !== "1") choices.push(tie(`${r},${r}`).map((e) => `diag(${e})`), tie(`${r},1`).map((e) => `rowSums(diag(${e}))`));
      arbitraries[key] = fc.oneof({ maxDepth, depthIdentifier, depthSize: "small" }, ...choices);
    }
    return arbitraries;
  }) as Record<ShapeKey, fc.Arbitrary<string>>;
}

function repeat<T>(times: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T>[] {
  return Array.from({ length: times }, () => arbitrary);
}

/** A never-zero version of an expression: E^2 + c with c > 0. */
function positive(e: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(e, fc.constantFrom("1", "0.5", "2")).map(([a, k]) => `((${a})^2 + ${k})`);
}

/** A dimension in DML text: the input it belongs to measures it, so the script stays valid at any size. */
function dimText(d: Dim): string {
  return d === "1" ? "1" : `nrow(${inputName("A", d, d === "m" ? "n" : "m")})`;
}

/** Random cases: dims from 0 to `maxDim` (0 and 1 often), one to three statements of depth at most `maxDepth`. */
export function rewriteCaseArbitrary(options: { maxDim: number; maxDepth: number }): fc.Arbitrary<RewriteCase> {
  const expressions = expressionArbitraries(options.maxDepth);
  const dim = fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: options.maxDim }), fc.integer({ min: 2, max: options.maxDim }));
  const shape = fc.constantFrom<ShapeKey>("scalar", "m,n", "m,1", "1,n", "m,m", "1,1", "n,p");
  const statement = fc
    .tuple(shape, fc.boolean())
    .chain(([key, share]) => expressions[key].map((text) => ({ shape: key, text, share })));
  return fc.record({
    dims: fc.record({ m: dim, n: dim, p: dim }),
    inputSeed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    statements: fc.array(statement, { minLength: 1, maxLength: 3 }),
  });
}

/** Names the statements use that are inputs (A_m_n, s, ...), in order of first use. */
function usedInputs(statements: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of statements) for (const match of text.matchAll(/\b([AB]_[mnp1]_[mnp1]|s|x)\b/g)) names.add(match[1]!);
  return [...names];
}

function dimValue(d: string, dims: RewriteCase["dims"]): number {
  return d === "1" ? 1 : dims[d as "m" | "n" | "p"];
}

/** The input's declaration: a literal, zero, rand or dense matrix (from the case's input seed and the name). */
function inputDeclaration(name: string, rewriteCase: RewriteCase): string {
  let hash = rewriteCase.inputSeed >>> 0;
  for (const ch of name) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) >>> 0;
  const random = seededRandom(hash);
  if (name === "s" || name === "x") {
    // `s` is a constant the optimizer knows; `x` a value it does not (the sum of a rand).
    return name === "s" ? `s = ${[1.5, -2, 0.5, 3][Math.floor(random() * 4)]}` : `x = sum(rand(rows=1, cols=1, min=-2, max=2, seed=${hash % 100000}))`;
  }
  const [, r, c] = name.split("_") as [string, string, string];
  const rows = dimValue(r, rewriteCase.dims);
  const cols = dimValue(c, rewriteCase.dims);
  const form = random();
  if (rows === 0 || cols === 0 || form < 0.12) return `${name} = matrix(0, rows=${rows}, cols=${cols})`;
  if (form < 0.3) {
    const sparsity = [0, 0.1, 0.5, 1][Math.floor(random() * 4)];
    return `${name} = rand(rows=${rows}, cols=${cols}, sparsity=${sparsity}, min=-2, max=2, seed=${hash % 100000})`;
  }
  const density = form < 0.45 ? 1 : [0.2, 0.5, 0.8][Math.floor(random() * 3)]!;
  const emptyRows = new Set<number>();
  const emptyCols = new Set<number>();
  if (density < 1) {
    for (let i = 0; i < rows; i++) if (rows > 1 && random() < 0.25) emptyRows.add(i);
    for (let j = 0; j < cols; j++) if (cols > 1 && random() < 0.25) emptyCols.add(j);
  }
  const cells: string[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const zero = emptyRows.has(i) || emptyCols.has(j) || random() >= density;
      // Multiples of 0.5 from -3 to 3, never 0 where a value is drawn: sums and products stay exact.
      const magnitude = (1 + Math.floor(random() * 6)) / 2;
      cells.push(zero ? "0" : String(random() < 0.5 ? -magnitude : magnitude));
    }
  }
  return `${name} = matrix("${cells.join(" ")}", rows=${rows}, cols=${cols})`;
}

/** The statement targets: R1, R2, ... */
export function targetName(k: number): string {
  return `R${k + 1}`;
}

/**
 * The case as a script: the inputs' declarations, then `R1 = ...` and the
 * later statements, where a later statement may repeat an earlier one's
 * expression (a sub-expression they share) and may read an earlier result
 * of the same shape (its input name is replaced by the result once).
 */
export function caseScript(rewriteCase: RewriteCase): string {
  const texts = rewriteCase.statements.map((statement, k) => {
    let text = statement.text;
    // A shared sub-expression: the first earlier statement of the same shape, written out again (the optimizer may compute it once).
    const same = statement.share ? rewriteCase.statements.slice(0, k).find((s) => s.shape === statement.shape) : undefined;
    if (same) text = `(${same.text}) * 2 - ${text}`;
    for (let j = 0; j < k; j++) {
      const earlier = rewriteCase.statements[j]!.shape;
      const name = earlier === "scalar" ? "x" : inputName("A", ...(earlier.split(",") as [Dim, Dim]));
      text = text.replace(new RegExp(`\\b${name}\\b(?!\\))`), targetName(j));
    }
    return text;
  });
  const lines = usedInputs(texts).map((name) => inputDeclaration(name, rewriteCase));
  texts.forEach((text, k) => lines.push(`${targetName(k)} = ${text}`));
  return lines.join("\n") + "\n";
}
