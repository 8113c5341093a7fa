/**
 * Random DML programs for the fusion property tests: a data block of
 * random inputs and a computation block of random statements over them.
 *
 * Inputs (sizes m x n, rank r drawn per case, 1 included):
 * - X, Y, Z: m x n, each dense, sparse (sparsity 0.01-0.3), with empty rows,
 *   with empty columns, table-built (one non-zero per row) or all zeros;
 *   W: m x n sparse and non-negative (a weight or a driver);
 * - c, w: m x 1 column vectors (w sparse, non-negative), r1: 1 x n row vector,
 *   v: n x 1, U: m x r and V: n x r (low-rank factors), o: 1 x 1, lambda: a scalar.
 * Statements: random expressions of element-wise operations (arithmetic,
 * comparisons, min/max, %% and %/%, abs, exp, log of positive values, ^2, sqrt,
 * sigmoid, ifelse, replace), cbind, row, column and full aggregates, products with
 * vectors, t(X) %*% ..., low-rank U %*% t(V) with a sparse driver, and the
 * templates' own patterns with random operands. Every value is printed, so
 * every result is a root.
 */
import fc from "fast-check";

/** The shape classes of expressions (a statement's class only decides how its result is printed). */
export type ShapeClass = "mn" | "m1" | "1n" | "n1" | "s";

export type InputKind = "dense" | "sparse" | "emptyRows" | "emptyCols" | "table" | "zeros";

export interface RandomProgram {
  m: number;
  n: number;
  r: number;
  kinds: { X: InputKind; Y: InputKind; Z: InputKind };
  /** Sparsity of the sparse inputs (W, w and sparse ones among X, Y, Z). */
  sparsity: number;
  seed: number;
  statements: { shape: ShapeClass; expression: string }[];
}

const LEAVES: Record<ShapeClass, string[]> = {
  mn: ["X", "Y", "Z", "W"],
  m1: ["c", "w"],
  "1n": ["r1"],
  n1: ["v"],
  s: ["lambda", "2", "0.5"],
};

function leaf(shape: ShapeClass): fc.Arbitrary<string> {
  return fc.constantFrom(...LEAVES[shape]);
}

/** An operand that combines element-wise with an m x n matrix. */
function broadcastOperand(depth: number): fc.Arbitrary<string> {
  return fc.oneof({ weight: 4, arbitrary: expression("mn", depth) }, expression("m1", depth), expression("1n", depth), expression("s", depth), fc.constant("o"));
}

const COMPARE = ["<", "<=", ">", ">=", "==", "!="] as const;

/** Element-wise binary combinations of a and b (b of a shape that broadcasts to a's). */
function binaryOf(a: fc.Arbitrary<string>, b: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(a, b, fc.constantFrom("+", "-", "*", "*", "/", "cmp", "min", "max", "mod")).chain(([x, y, op]) => {
    if (op === "/") return fc.constant(`(${x} / (abs(${y}) + 1))`);
    if (op === "mod") return fc.constantFrom("%%", "%/%").map((m) => `((${x} + ${y}) ${m} 0.3)`);
    if (op === "cmp") return fc.constantFrom(...COMPARE).map((c) => `(${x} ${c} ${y})`);
    if (op === "min" || op === "max") return fc.constant(`${op}(${x}, ${y})`);
    return fc.constant(`(${x} ${op} ${y})`);
  });
}

function unaryOf(a: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(a, fc.constantFrom("abs", "exp", "log", "sqrt", "pow2", "sigmoid", "neg", "round")).map(([x, f]) => {
    switch (f) {
      case "exp":
        return `exp(min(${x}, 3))`;
      case "log":
        return `log(abs(${x}) + 1)`;
      case "sqrt":
        return `sqrt(abs(${x}))`;
      case "pow2":
        return `(${x})^2`;
      case "neg":
        return `(-${x})`;
      default:
        return `${f}(${x})`;
    }
  });
}

const memo = new Map<string, fc.Arbitrary<string>>();

/** A random expression of the shape class, at most `depth` operations deep. */
export function expression(shape: ShapeClass, depth: number): fc.Arbitrary<string> {
  const key = `${shape}:${depth}`;
  const known = memo.get(key);
  if (known) return known;
  const made = depth <= 0 ? leaf(shape) : fc.oneof({ weight: 2, arbitrary: leaf(shape) }, ...compound(shape, depth - 1));
  memo.set(key, made);
  return made;
}

function compound(shape: ShapeClass, d: number): fc.Arbitrary<string>[] {
  const e = (s: ShapeClass) => expression(s, d);
  switch (shape) {
    case "mn":
      return [
        binaryOf(e("mn"), broadcastOperand(d)),
        binaryOf(broadcastOperand(d), e("mn")),
        unaryOf(e("mn")),
        fc.constant("(U %*% t(V))"),
        fc.tuple(e("mn"), e("mn"), fc.oneof(e("mn"), e("s"))).map(([t, y, n]) => `ifelse(${t} > 0, ${y}, ${n})`),
        e("mn").map((x) => `replace(target=${x}, pattern=0, replacement=1)`),
        e("mn").map((x) => `((${x} != 0) * (U %*% t(V)))`),
      ];
    case "m1":
      return [
        fc.tuple(fc.constantFrom("rowSums", "rowMaxs", "rowMins", "rowMeans"), e("mn")).map(([f, x]) => `${f}(${x})`),
        fc.tuple(e("mn"), e("n1")).map(([x, v]) => `(${x} %*% ${v})`),
        binaryOf(e("m1"), fc.oneof(e("m1"), e("s"))),
        unaryOf(e("m1")),
        e("mn").map((x) => `rowIndexMax(${x})`),
        fc.tuple(e("mn"), e("n1")).map(([x, v]) => `(${x} %*% (lambda * ${v}))`),
      ];
    case "1n":
      return [
        fc.tuple(fc.constantFrom("colSums", "colMaxs", "colMins", "colMeans"), e("mn")).map(([f, x]) => `${f}(${x})`),
        fc.tuple(e("m1"), e("mn")).map(([c, x]) => `(t(${c}) %*% ${x})`),
        e("n1").map((v) => `t(${v})`),
        binaryOf(e("1n"), fc.oneof(e("1n"), e("s"))),
      ];
    case "n1":
      return [
        fc.tuple(e("mn"), e("m1")).map(([x, c]) => `(t(${x}) %*% ${c})`),
        e("1n").map((r) => `t(${r})`),
        binaryOf(e("n1"), fc.oneof(e("n1"), e("s"))),
        fc.tuple(e("mn"), e("m1")).map(([x, c]) => `(t(${x}) %*% (${c} * (${x} %*% v)))`),
      ];
    case "s":
      return [
        fc.tuple(fc.constantFrom("sum", "sum", "min", "max", "mean"), e("mn")).map(([f, x]) => `${f}(${x})`),
        e("m1").map((c) => `sum(${c})`),
        fc.tuple(e("m1"), e("m1")).map(([a, b]) => `as.scalar(t(${a}) %*% ${b})`),
        fc.tuple(e("1n"), e("n1")).map(([a, b]) => `as.scalar(${a} %*% ${b})`),
        binaryOf(e("s"), e("s")),
      ];
  }
}

/** The template examples with random operands (as statements of their own). */
function patternStatements(): fc.Arbitrary<{ shape: ShapeClass; expression: string }[]> {
  const mn = expression("mn", 1);
  const st = (shape: ShapeClass, expression: string) => ({ shape, expression });
  return fc.oneof(
    fc.tuple(mn, mn, mn).map(([a, b, c]) => [st("s", `sum(${a} * ${b} * ${c})`)]),
    fc.tuple(mn, mn).map(([a, b]) => [st("mn", `abs(${a} - ${b}) * 2 + 1`)]),
    mn.map((a) => [st("m1", `rowSums((${a})^2)`)]),
    fc.tuple(mn, mn).map(([a, b]) => [st("s", `sum((${a} - 2 * ${b})^2)`)]),
    fc.tuple(fc.constantFrom("X", "Y", "Z"), expression("m1", 1)).map(([x, c]) => [st("n1", `t(${x}) %*% (${c} * (${x} %*% v))`)]),
    fc.tuple(fc.constantFrom("X", "Y", "Z"), expression("m1", 1)).map(([x, c]) => [st("n1", `t(${x}) %*% (${x} %*% v - ${c})`)]),
    fc.constantFrom("X", "Y", "Z").map((x) => [st("n1", `t(${x}) %*% (${x} %*% (lambda * v))`)]),
    mn.map((a) => [st("mn", `exp(${a} - rowMaxs(${a})) / rowSums(exp(${a} - rowMaxs(${a})))`)]),
    fc.tuple(mn, mn).map(([a, b]) => [st("s", `sum(${a} * ${b})`), st("s", `sum((${a})^2)`), st("s", `sum((${b})^2)`)]),
    mn.map((a) => [st("s", `min(${a})`), st("s", `max(${a})`)]),
    fc.tuple(fc.constantFrom("X", "Y", "Z", "W"), fc.constantFrom("X", "Y", "Z")).map(([d, x]) => [st("s", `sum(${d} * (${x} - U %*% t(V))^2)`)]),
    fc.tuple(mn, expression("m1", 1)).map(([a, c]) => [st("m1", `rowSums(cbind(${a}, ${c}) * 2)`)]),
    fc.tuple(mn, expression("m1", 1)).map(([a, c]) => [st("mn", `cbind(${a}, ${c}) + 1`)]),
    fc.tuple(mn, mn).map(([a, b]) => [st("mn", `colSums(cbind(${a}, c) * cbind(${b}, w))`)]),
    fc.constantFrom("X", "Y", "Z", "W").map((x) => [st("mn", `(${x} != 0) * (U %*% t(V))`)]),
    fc.constantFrom("X", "Y", "Z", "W").map((x) => [st("mn", `((${x} != 0) * (U %*% t(V))) %*% V`)]),
    fc.constantFrom("X", "Y", "Z", "W").map((x) => [st("mn", `t((${x} != 0) * (U %*% t(V))) %*% U`)]),
    fc.constantFrom("X", "Y", "Z", "W").map((x) => [st("s", `sum(${x} * log(U %*% t(V) + 4))`)]),
    fc.constantFrom("X", "Y", "Z", "W").map((x) => [st("mn", `${x} * sigmoid(U %*% t(V))`)]),
  );
}

const KINDS: InputKind[] = ["dense", "sparse", "sparse", "emptyRows", "emptyCols", "table", "zeros"];

/** Outer-product patterns over a sparse driver (the Outer template opens only for products larger than 256 x 256). */
function outerStatements(): fc.Arbitrary<{ shape: ShapeClass; expression: string }[]> {
  const driver = fc.constantFrom("X", "Y", "Z", "W");
  const dense = fc.constantFrom("X", "Y", "Z", "W", "(U %*% t(V))");
  const st = (shape: ShapeClass, expression: string) => [{ shape, expression }];
  return fc.oneof(
    fc.tuple(driver, dense).map(([d, x]) => st("s", `sum(${d} * (${x} - U %*% t(V))^2)`)),
    driver.map((x) => st("mn", `(${x} != 0) * (U %*% t(V))`)),
    driver.map((x) => st("mn", `((${x} != 0) * (U %*% t(V))) %*% V`)),
    driver.map((x) => st("mn", `t((${x} != 0) * (U %*% t(V))) %*% U`)),
    driver.map((x) => st("mn", `t(U) %*% ((${x} != 0) * (U %*% t(V) - ${x}))`)),
    driver.map((x) => st("mn", `t(t(U) %*% (${x} / (U %*% t(V) + 2)))`)),
    // ALS-CG's gradients: the CSR side input read at the driver's cells, also through the transpose (t(W) %*% U walks t(W)).
    driver.map((x) => st("mn", `((${x} != 0) * (U %*% t(V) - ${x})) %*% V + lambda * U`)),
    driver.map((x) => st("mn", `t((${x} != 0) * (U %*% t(V) - ${x})) %*% U`)),
    fc.tuple(driver, dense).map(([x, y]) => st("mn", `t(V) %*% t(${x} * (U %*% t(V) - ${y}))`)),
    fc.tuple(driver, dense).map(([x, y]) => st("mn", `${y} + ${x} * (U %*% t(V))`)),
    driver.map((x) => st("s", `sum(${x} * log(abs(U %*% t(V)) + 4))`)),
    driver.map((x) => st("mn", `${x} * sigmoid(U %*% t(V))`)),
    fc.tuple(driver, expression("1n", 1)).map(([x, r]) => st("mn", `(${x} != 0) * (U %*% t(V) + ${r})`)),
    fc.tuple(driver, fc.constantFrom("exp", "abs", "sqrt")).map(([x, f]) => st("s", `sum(${x} * ${f}(abs(U %*% t(V))) * lambda)`)),
  );
}

export function randomProgram(options: { maxStatements?: number; depth?: number } = {}): fc.Arbitrary<RandomProgram> {
  const depth = options.depth ?? 3;
  const maxStatements = options.maxStatements ?? 4;
  const statement = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<ShapeClass>("mn", "m1", "1n", "n1", "s").chain((shape) => expression(shape, depth).map((expression) => [{ shape, expression }])) },
    { weight: 2, arbitrary: patternStatements() },
  );
  const common = {
    r: fc.integer({ min: 1, max: 4 }),
    kinds: fc.record({ X: fc.constantFrom(...KINDS), Y: fc.constantFrom(...KINDS), Z: fc.constantFrom(...KINDS) }),
    sparsity: fc.double({ min: 0.01, max: 0.3, noNaN: true }).map((s) => Math.round(s * 1000) / 1000),
    seed: fc.integer({ min: 1, max: 10_000 }),
  };
  const small = fc.record({
    m: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 24 })),
    n: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 16 })),
    ...common,
    statements: fc.array(statement, { minLength: 1, maxLength: maxStatements }).map((groups) => groups.flat()),
  });
  // Products past 256 x 256 with sparse drivers: Outer operators, and Cell and Row ones at that size.
  const large = fc.record({
    m: fc.integer({ min: 257, max: 300 }),
    n: fc.integer({ min: 257, max: 280 }),
    ...common,
    statements: fc.array(fc.oneof({ weight: 3, arbitrary: outerStatements() }, statement), { minLength: 1, maxLength: 3 }).map((groups) => groups.flat()),
  });
  return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: large });
}

function matrixOf(kind: InputKind, p: RandomProgram, seed: number): string {
  const { m, n, sparsity } = p;
  const base = (s: number) => `rand(rows=${m}, cols=${n}, min=-1, max=1, sparsity=${s}, seed=${seed})`;
  switch (kind) {
    case "dense":
      return base(1);
    case "sparse":
      return base(sparsity);
    case "emptyRows":
      return `${base(0.6)} * (rand(rows=${m}, cols=1, min=0, max=1, seed=${seed + 1}) > 0.5)`;
    case "emptyCols":
      return `${base(0.6)} * (rand(rows=1, cols=${n}, min=0, max=1, seed=${seed + 1}) > 0.5)`;
    case "table":
      return `table(seq(1, ${m}), ceil(rand(rows=${m}, cols=1, min=0.001, max=${n}, seed=${seed})), ${m}, ${n}) * ${base(1)}`;
    case "zeros":
      return `matrix(0, rows=${m}, cols=${n})`;
  }
}

/** The data block: the inputs the computation reads, from seeded generators. */
export function dataBlock(p: RandomProgram): string {
  const { m, n, r, seed } = p;
  const lines: [string, string][] = [
    ["X0", matrixOf(p.kinds.X, p, seed)],
    ["Y0", matrixOf(p.kinds.Y, p, seed + 10)],
    ["Z0", matrixOf(p.kinds.Z, p, seed + 20)],
    // Indexing gives the matrices known sizes in the analysis (a table's size is not inferred).
    ["X", `X0[1:${m}, 1:${n}]`],
    ["Y", `Y0[1:${m}, 1:${n}]`],
    ["Z", `Z0[1:${m}, 1:${n}]`],
    ["W", `rand(rows=${m}, cols=${n}, min=0, max=1, sparsity=${p.sparsity}, seed=${seed + 30})`],
    ["c", `rand(rows=${m}, cols=1, min=-1, max=1, seed=${seed + 40})`],
    ["w", `rand(rows=${m}, cols=1, min=0, max=1, sparsity=0.5, seed=${seed + 41})`],
    ["r1", `rand(rows=1, cols=${n}, min=-1, max=1, seed=${seed + 42})`],
    ["v", `rand(rows=${n}, cols=1, min=-1, max=1, seed=${seed + 43})`],
    ["U", `rand(rows=${m}, cols=${r}, min=-1, max=1, seed=${seed + 44})`],
    ["V", `rand(rows=${n}, cols=${r}, min=-1, max=1, seed=${seed + 45})`],
    ["o", `rand(rows=1, cols=1, min=1, max=2, seed=${seed + 46})`],
    ["lambda", "0.25"],
  ];
  const used = new Set(p.statements.flatMap((s) => s.expression.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []));
  for (const name of ["X", "Y", "Z"]) if (used.has(name)) used.add(`${name}0`);
  // A computation without variables still gets one line, so the data block is never empty.
  const kept = lines.filter(([name]) => used.has(name));
  return (kept.length > 0 ? kept : lines.slice(-1)).map(([name, value]) => `${name} = ${value}`).join("\n");
}

/** The computation block: one assignment per statement, every result printed. */
export function computationBlock(p: RandomProgram): string {
  const lines: string[] = [];
  p.statements.forEach((s, k) => {
    lines.push(`R${k + 1} = ${s.expression}`);
    lines.push(s.shape === "s" ? `print(R${k + 1})` : `print(toString(R${k + 1}))`);
  });
  return lines.join("\n");
}
