/**
 * Cell-wise binary operators outside the sum-product core (`/`, `^`, `min`,
 * `max`, comparisons, `&`, `|`) have no relational form, so they do not get
 * the broadcast, 1 x 1 and transpose congruences that `+ - *` get from it.
 * These rules give them those congruences directly (SystemML's
 * RewriteAlgebraicSimplification: removeUnnecessaryVectorizeOperation,
 * the scalar forms of 1 x 1 operands, and transpose pushdown), for every
 * such operator: each holds cell by cell, whatever the operator.
 */
import type { ClassId } from "../egraph";
import { rule, type Match, type RuleSpec } from "./rule-spec";
import { add } from "./rules-la-to-ra";

/** The element-wise binary ops of la-ops.ts that the relational core does not cover. */
export const NON_SUM_PRODUCT_CELLWISE_OPS: readonly string[] = ["/", "^", "min", "max", "<", "<=", ">", ">=", "==", "!=", "&", "|"];

const la = (m: Match, v: string) => (m.data(v).family === "la" && !m.la(v).invalid ? m.la(v) : undefined);
const isMatrix = (m: Match, v: string) => la(m, v)?.stats.type.dataType === "matrix";
const rows = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.rows : null);
const cols = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.cols : null);
const is1x1 = (m: Match, v: string) => rows(m, v) === 1 && cols(m, v) === 1;
/** `?o` is a matrix of ones (`matrix(1, rows=1, cols=n)` and its like). */
const ones = (m: Match, v: string) => isMatrix(m, v) && m.la(v).constant === 1;
/** `?x`'s dims are known and equal to `rows` x `cols`. */
const shaped = (m: Match, v: string, r: number | null, c: number | null) => r !== null && c !== null && rows(m, v) === r && cols(m, v) === c;

function congruences(op: string): RuleSpec[] {
  return [
    // X op (v %*% matrix(1, 1, n)): the column vector v repeated over n columns is what broadcasting v does.
    rule(
      "cellwise-broadcast-column",
      `(${op} ?X (mm ?v ?o))`,
      `(${op} ?X ?v)`,
      (m) => ones(m, "o") && rows(m, "o") === 1 && cols(m, "v") === 1 && rows(m, "v") !== 1 && shaped(m, "X", rows(m, "v"), cols(m, "o")),
      "ncol(?v) = 1",
    ),
    // X op (matrix(1, m, 1) %*% r): the row vector r repeated over m rows.
    rule(
      "cellwise-broadcast-row",
      `(${op} ?X (mm ?o ?r))`,
      `(${op} ?X ?r)`,
      (m) => ones(m, "o") && cols(m, "o") === 1 && rows(m, "r") === 1 && cols(m, "r") !== 1 && shaped(m, "X", rows(m, "o"), cols(m, "r")),
      "nrow(?r) = 1",
    ),
    // A 1 x 1 matrix operand of a matrix operation broadcasts like its cell.
    rule("cellwise-1x1-right", `(${op} ?X ?y)`, `(${op} ?X (as.scalar ?y))`, (m) => isMatrix(m, "X") && is1x1(m, "y"), "nrow(?y) = 1 & ncol(?y) = 1"),
    rule("cellwise-1x1-left", `(${op} ?y ?X)`, `(${op} (as.scalar ?y) ?X)`, (m) => isMatrix(m, "X") && is1x1(m, "y"), "nrow(?y) = 1 & ncol(?y) = 1"),
  ];
}

const CELLWISE_OPS: ReadonlySet<string> = new Set(NON_SUM_PRODUCT_CELLWISE_OPS);

/** The cell-wise operator nodes (outside + - *) of `?W`'s class with their operands. */
function cellwiseNodes(m: Match, w: string) {
  return m.egraph.classOf(m.cls(w)).nodes.filter((node) => CELLWISE_OPS.has(node.op) && node.children.length === 2);
}

const laOf = (m: Match, id: ClassId) => {
  const data = m.egraph.data(id);
  return data.family === "la" && !data.invalid ? data : undefined;
};
const kindOf = (m: Match, id: ClassId) => laOf(m, id)?.stats.type.dataType;
const hasTranspose = (m: Match, id: ClassId) => m.egraph.classOf(id).nodes.some((node) => node.op === "t");

/**
 * One rule for every operator (a rule per operator would be searched every
 * iteration): the transpose moves onto each matrix operand (a scalar
 * stays), never onto an operand that holds a transpose (t(t(P)) would be a
 * new class each time until the relational form merges it with P).
 */
function transposeThrough(m: Match): ClassId | undefined {
  let built: ClassId | undefined;
  for (const node of cellwiseNodes(m, "W")) {
    const [a, b] = node.children as [ClassId, ClassId];
    if (kindOf(m, a) === undefined || kindOf(m, b) === undefined || [a, b].some((c) => kindOf(m, c) === "matrix" && hasTranspose(m, c))) continue;
    const moved = (c: ClassId) => (kindOf(m, c) === "matrix" ? add(m, "t", [c]) : c);
    const result = add(m, node.op, [moved(a), moved(b)]);
    if (built === undefined) built = result;
    else m.egraph.union(built, result, "cellwise-transpose");
  }
  return built;
}

/**
 * Operators whose result on two scalars is a boolean (TRUE, not 1): the
 * cell of `A < B` is the double 1, so `as.scalar(A < B)` and
 * `as.scalar(A) < as.scalar(B)` differ in type (print shows 1.000 and TRUE)
 * and the optimizer has no cast to double to make them equal.
 */
const BOOLEAN_ON_SCALARS: ReadonlySet<string> = new Set(["<", "<=", ">", ">=", "==", "!=", "&", "|"]);

/**
 * One rule for every operator, like the transpose's: the cell of a 1 x 1
 * `A op B` is `as.scalar(A) op as.scalar(B)`, a scalar operand staying as it
 * is (SystemML's simplifyScalarMatrixOp direction). `+ - *` get it from
 * their relational form (bind-as-scalar), so this covers the others whose
 * scalar result is a double.
 */
function scalarThrough(m: Match): ClassId | undefined {
  let built: ClassId | undefined;
  for (const node of cellwiseNodes(m, "W")) {
    if (BOOLEAN_ON_SCALARS.has(node.op)) continue;
    const [a, b] = node.children as [ClassId, ClassId];
    const oneCell = (c: ClassId) => {
      const stats = laOf(m, c)?.stats;
      return stats !== undefined && (stats.type.dataType === "scalar" || (stats.type.dataType === "matrix" && stats.rows === 1 && stats.cols === 1));
    };
    if (!oneCell(a) || !oneCell(b)) continue;
    const cell = (c: ClassId) => (kindOf(m, c) === "matrix" ? add(m, "as.scalar", [c]) : c);
    const result = add(m, node.op, [cell(a), cell(b)]);
    if (built === undefined) built = result;
    else m.egraph.union(built, result, "cellwise-as-scalar");
  }
  return built;
}

export const CELLWISE_RULES: readonly RuleSpec[] = [
  ...NON_SUM_PRODUCT_CELLWISE_OPS.flatMap(congruences),
  rule("cellwise-transpose", "(t ?W)", transposeThrough, (m) => cellwiseNodes(m, "W").length > 0),
  rule("cellwise-as-scalar", "(as.scalar ?W)", scalarThrough, (m) => cellwiseNodes(m, "W").some((node) => !BOOLEAN_ON_SCALARS.has(node.op))),
];
