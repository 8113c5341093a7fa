/**
 * The text of a Row kernel as it is built: the arrays and scalars it is
 * called with (bound to names in its prologue), scratch row vectors
 * (allocated once per call, in the prologue), the per-row code (a header
 * that locates every row-aligned input's row i, then the covered nodes in
 * dependency order), the code run instead for a skipped row, and the
 * accumulator slots. Sizes are passed as scalars, so one source serves
 * every size of the same operator and formats.
 */
import type { Combine, KernelArray, KernelProgram } from "./kernel-program";

/**
 * Loops over a row's cells up to this width are unrolled into one
 * statement per cell with literal indices: V8 does not unroll a short loop
 * whose trip count is a bound scalar, and kmeans' rows of 5 distances ran
 * 2-3x slower as loops than unrolled (1e6 x 10 times 10 x 5).
 */
export const UNROLLED_MAX_WIDTH = 16;

export class RowKernelText {
  readonly arrays: KernelArray[] = [];
  readonly scalars: number[] = [];
  readonly accInit: number[] = [];
  readonly accCombine: Combine[] = [];
  private readonly prologue: string[] = [];
  /** Per row, before the skip test: where row i of each aligned input is. */
  readonly header: string[] = [];
  /** Per row: the covered nodes and the roots' outputs. */
  readonly body: string[] = [];
  /** For a skipped row (sparse-safe binding, empty row of the main input). */
  readonly skipped: string[] = [];
  /** After the last row of the range. */
  private readonly epilogue: string[] = [];
  /** Scratch row vectors (declared in `program`: as arrays, or as one local per cell). */
  private readonly scratches: { name: string; width: number }[] = [];
  /** Local sum arrays and the accumulator slots they are added into after the range's last row. */
  private readonly sums: { locals: string[]; count: number; base: string }[] = [];
  private readonly widthNames = new Map<number, string>();
  private count = 0;

  /** A fresh identifier with a readable prefix. */
  name(prefix: string): string {
    return `${prefix}${this.count++}`;
  }

  /** Binds an array of the call; returns its name in the kernel. */
  array(data: KernelArray): string {
    const k = this.arrays.push(data) - 1;
    const name = `a${k}`;
    this.prologue.push(`const ${name} = a[${k}];`);
    return name;
  }

  /** Binds a number of the call (a scalar value); returns its name in the kernel. */
  scalar(value: number): string {
    const k = this.scalars.push(value) - 1;
    const name = `s${k}`;
    this.prologue.push(`const ${name} = s[${k}];`);
    return name;
  }

  /** Binds a non-negative integer of the call (a width, an offset): its name in the kernel. */
  integer(value: number): string {
    const k = this.scalars.push(value) - 1;
    const name = `n${k}`;
    this.prologue.push(`const ${name} = s[${k}] | 0;`);
    return name;
  }

  /** A width's name (one per distinct width). */
  width(value: number): string {
    const known = this.widthNames.get(value);
    if (known !== undefined) return known;
    const name = this.integer(value);
    this.widthNames.set(value, name);
    return name;
  }

  /**
   * `body(j)` for j over 0 .. width - 1, `j` the loop variable `v` or, for
   * widths up to UNROLLED_MAX_WIDTH, each index as a literal (one statement
   * per cell; `body` must be a statement that may be repeated: braces
   * around its declarations).
   */
  forCells(width: number, v: string, body: (j: string) => string): string {
    if (width <= UNROLLED_MAX_WIDTH) return Array.from({ length: width }, (_, j) => body(String(j))).join(" ");
    return `for (let ${v} = 0; ${v} < ${this.width(width)}; ${v}++) ${body(v)}`;
  }

  /** A scratch row vector of `width` numbers, allocated once per call (or local numbers: see `program`). */
  scratch(width: number): string {
    const name = this.name("t");
    this.width(width);
    this.scratches.push({ name, width });
    return name;
  }

  /** Accumulator slots (all with the same initial value and combine); returns the first slot's index as a name. */
  accumulators(count: number, init: number, combine: Combine): { base: string; start: number } {
    const start = this.accInit.length;
    for (let k = 0; k < count; k++) {
      this.accInit.push(init);
      this.accCombine.push(combine);
    }
    return { base: this.integer(start), start };
  }

  /**
   * Accumulator slots `base + 0 .. count - 1` as local numbers of the
   * kernel: read from `acc` before the first row, stored back after the
   * last, so the per-cell updates touch registers instead of `acc` (the
   * same values in the same order). Returns the locals' names.
   */
  localSlots(base: string, count: number): string[] {
    const names = Array.from({ length: count }, () => this.name("f"));
    names.forEach((name, k) => {
      this.prologue.push(`let ${name} = acc[${base} + ${k}];`);
      this.epilogue.push(`acc[${base} + ${k}] = ${name};`);
    });
    return names;
  }

  /**
   * Sum accumulator slots updated through a local array of the call (the
   * engine optimizes a local Float64Array better than the `acc` argument),
   * added into `acc` after the range's last row. Returns the local's name.
   */
  localSums(count: number): string {
    return this.interleavedSums(count, 1)[0]!;
  }

  /**
   * `ways` local arrays of sums (rows dealt to them in turn, as a GEMV
   * deals a dot product's terms to independent accumulators), combined as
   * (g0 + g1) + (g2 + g3) into `acc` after the range's last row.
   */
  interleavedSums(count: number, ways: 1 | 4): string[] {
    const { base } = this.accumulators(count, 0, "sum");
    const locals = Array.from({ length: ways }, () => this.name("g"));
    this.width(count);
    this.sums.push({ locals, count, base });
    return locals;
  }

  /**
   * The kernel: `function (a, s, r0, r1, acc, out)` over rows [r0, r1).
   * `skipTest` is the condition of a skipped row (or undefined).
   *
   * A scratch vector or a single local sum array that the code reads and
   * writes only at literal indexes (unrolled cells, up to LOCAL_CELLS_MAX of
   * them) becomes one local number per cell: the engine keeps locals in
   * registers, while every access to a typed array is a load or a store it
   * cannot elide (it cannot tell two arrays apart). For the same reason an
   * input's cells at literal indexes are read once (`readOnce`). The
   * arithmetic is the same, in the same order.
   */
  program(skipTest: string | undefined): KernelProgram {
    // The source is a function of the text's parts: a Row operator run again (each iteration of a loop) gets it without the rewriting below.
    const key = [skipTest ?? "", this.arrays.length, ...this.prologue, "\u0000", ...this.header, "\u0000", ...this.skipped, "\u0000", ...this.body, "\u0000", ...this.epilogue, "\u0000", ...this.scratches.map((t) => `${t.name}:${t.width}`), "\u0000", ...this.sums.map((t) => `${t.locals.join(",")}:${t.count}:${t.base}`)].join("\n");
    const known = programs.get(key);
    if (known !== undefined) return known;
    const program = this.assemble(skipTest);
    if (programs.size >= PROGRAMS_KEPT) programs.clear();
    programs.set(key, program);
    return program;
  }

  private assemble(skipTest: string | undefined): KernelProgram {
    const parts = { header: [...this.header], skipped: [...this.skipped], body: [...this.body] };
    const declarations = readOnce(parts, this.arrays.length);
    const epilogue: string[] = [];
    for (const { name, width } of this.scratches) {
      if (!(width <= LOCAL_CELLS_MAX && asLocals(parts, name))) declarations.push(`const ${name} = new Float64Array(${this.width(width)});`);
      else declarations.push(localNumbers(name, width));
    }
    for (const { locals, count, base } of this.sums) {
      if (locals.length === 1 && count <= LOCAL_CELLS_MAX && asLocals(parts, locals[0]!)) {
        declarations.push(localNumbers(locals[0]!, count));
        epilogue.push(Array.from({ length: count }, (_, k) => `acc[${base} + ${k}] += ${locals[0]}_${k};`).join(" "));
        continue;
      }
      for (const local of locals) declarations.push(`const ${local} = new Float64Array(${this.width(count)});`);
      const total = locals.length === 1 ? `${locals[0]}[k]` : `${locals[0]}[k] + ${locals[1]}[k] + (${locals[2]}[k] + ${locals[3]}[k])`;
      epilogue.push(`for (let k = 0; k < ${this.width(count)}; k++) acc[${base} + k] += ${total};`);
    }
    const lines = ["function (a, s, r0, r1, acc, out) {", ...indent([...this.prologue, ...declarations], 1), "  for (let i = r0; i < r1; i++) {", ...indent(parts.header, 2)];
    if (skipTest !== undefined) lines.push(`    if (${skipTest}) {`, ...indent(parts.skipped, 3), "      continue;", "    }");
    lines.push(...indent(parts.body, 2), "  }", ...indent([...epilogue, ...this.epilogue], 1), "}");
    return { source: lines.join("\n") };
  }
}

/** Row kernel sources by their text's parts (RowKernelText.program), at most PROGRAMS_KEPT of them (then the memo starts over). */
const programs = new Map<string, KernelProgram>();
const PROGRAMS_KEPT = 256;

/** Cells of a scratch vector or a sum array kept as local numbers, at most (see RowKernelText.program). */
export const LOCAL_CELLS_MAX = 32;

/**
 * Replaces `name[k]` (k a literal) by `name_k` in the per-row code, when
 * that is every use of `name` there (in place; false, and nothing changed,
 * when some use is not).
 */
function asLocals(parts: RowParts, name: string): boolean {
  const indexed = new RegExp(`\\b${name}\\[(\\d+)\\]`, "g");
  const any = new RegExp(`\\b${name}\\b`);
  const replaced = mapParts(parts, (l) => l.replace(indexed, `${name}_$1`));
  if ([...replaced.header, ...replaced.skipped, ...replaced.body].some((l) => any.test(l))) return false;
  Object.assign(parts, replaced);
  return true;
}

/** The per-row code of a kernel: the row's header, the code of a skipped row, the body. */
interface RowParts {
  header: string[];
  skipped: string[];
  body: string[];
}

/** Every line of the per-row code through `f`. */
function mapParts(parts: RowParts, f: (line: string) => string): RowParts {
  return { header: parts.header.map(f), skipped: parts.skipped.map(f), body: parts.body.map(f) };
}

/**
 * The cells of the call's arrays that the kernel never writes, read into
 * locals once: a whole vector's cells at literal indexes (`a2[3]`: before
 * the loop over the rows) and an aligned input's row cells at literal
 * indexes (`a1[o1 + 3]`: right after the row's offset `o1` is known, once
 * per row; X's cells feed both the product with `v` and the accumulation
 * of `t(X) %*% ...`). In place in `parts`; returns the declarations to put
 * before the loop.
 */
function readOnce(parts: RowParts, arrays: number): string[] {
  const code = () => [...parts.header, ...parts.skipped, ...parts.body];
  const declarations: string[] = [];
  for (let k = 0; k < arrays; k++) {
    const name = `a${k}`;
    if (code().some((line) => writes(line, name))) continue;
    const whole = new RegExp(`\\b${name}\\[(\\d+)\\]`, "g");
    const cells = new Set<string>();
    Object.assign(parts, mapParts(parts, (line) => line.replace(whole, (_, c: string) => (cells.add(c), `${name}_c${c}`))));
    if (cells.size > 0) declarations.push(`const ${[...cells].map((c) => `${name}_c${c} = ${name}[${c}]`).join(", ")};`);
    const offsets = new Set([...code().join("\n").matchAll(new RegExp(`\\b${name}\\[(o\\d+) \\+ \\d+\\]`, "g"))].map((m) => m[1]!));
    if (offsets.size !== 1) continue;
    const [offset] = offsets as unknown as [string];
    const at = parts.header.findIndex((line) => line.startsWith(`const ${offset} = `));
    if (at < 0) continue;
    const row = new RegExp(`\\b${name}\\[${offset} \\+ (\\d+)\\]`, "g");
    const rowCells = new Set<string>();
    const replaceRow = (line: string) => line.replace(row, (_, c: string) => (rowCells.add(c), `${name}_r${c}`));
    parts.header = parts.header.map((line, i) => (i > at ? replaceRow(line) : line));
    parts.skipped = parts.skipped.map(replaceRow);
    parts.body = parts.body.map(replaceRow);
    const sorted = [...rowCells].sort((x, y) => Number(x) - Number(y));
    parts.header.splice(at + 1, 0, `const ${sorted.map((c) => `${name}_r${c} = ${name}[${offset} + ${c}]`).join(", ")};`);
  }
  return declarations;
}

/** Whether `line` may change array `name`: an assignment to one of its cells (`name[...] =`, `+=`, `++`, ...), or any use other than indexing (`name.fill(...)`, passing it on). */
function writes(line: string, name: string): boolean {
  const use = new RegExp(`\\b${name}\\b`, "g");
  for (const m of line.matchAll(use)) {
    let at = m.index + name.length;
    if (line[at] !== "[") return true;
    for (let depth = 0; at < line.length; at++) {
      if (line[at] === "[") depth++;
      else if (line[at] === "]" && --depth === 0) break;
    }
    const rest = line.slice(at + 1).trimStart();
    if (/^([-+*/%]?=(?!=)|\+\+|--)/.test(rest)) return true;
  }
  return false;
}

function localNumbers(name: string, count: number): string {
  return `let ${Array.from({ length: count }, (_, k) => `${name}_${k} = 0`).join(", ")};`;
}

function indent(lines: readonly string[], depth: number): string[] {
  const pad = "  ".repeat(depth);
  return lines.map((l) => pad + l);
}
