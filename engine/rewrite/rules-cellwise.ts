/**
 * Cell-wise binary operators outside the sum-product core (`/`, `^`, `min`,
 * `max`, comparisons, `&`, `|`) have no relational form, so they do not get
 * the broadcast, 1 x 1 and transpose congruences that `+ - *` get from it.
 * These rules give them those congruences directly (SystemML's
 * RewriteAlgebraicSimplification: removeUnnecessaryVectorizeOperation,
 * the scalar forms of 1 x 1 operands, and transpose pushdown), for every
 * such operator: each holds cell by cell, whatever the operator.
 */
import type { ClassId } from "../egraph/types";
import { rule, type Match, type RuleSpec } from "./rule-spec";
import { add } from "./rules-la-to-ra";

/** The element-wise binary ops of la-ops.ts that the relational core does not cover. */
export const NON_SUM_PRODUCT_CELLWISE_OPS: readonly string[] = ["/", "^", "min", "max", "<", "<=", ">", ">=", "==", "!=", "&", "|"];

const la = (m: Match, v: string) => (m.data(v).family === "la" && !m.la(v).invalid ? m.la(v) : undefined);
const isMatrix = (m: Match, v: string) => la(m, v)?.stats.type.dataType === "matrix";
const isScalar = (m: Match, v: string) => la(m, v)?.stats.type.dataType === "scalar";
const rows = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.rows : null);
const cols = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.cols : null);
const is1x1 = (m: Match, v: string) => rows(m, v) === 1 && cols(m, v) === 1;
/** `?o` is a matrix of ones (`matrix(1, rows=1, cols=n)` and its like). */
const ones = (m: Match, v: string) => isMatrix(m, v) && m.la(v).constant === 1;
/** `?x`'s dims are known and equal to `rows` x `cols`. */
const shaped = (m: Match, v: string, r: number | null, c: number | null) => r !== null && c !== null && rows(m, v) === r && cols(m, v) === c;

/**
 * `?v`'s class holds no transpose: pushing a transpose onto it would make
 * t(t(P)), a new class each time until the relational form merges it with P,
 * so a chain of pushdowns could grow by a few nodes every iteration.
 */
const noTranspose = (m: Match, v: string) => !m.egraph.classOf(m.cls(v)).nodes.some((node) => node.op === "t");

/** `as.scalar(?v)` for a 1 x 1 matrix, `?v` itself for a scalar. */
function scalarOf(m: Match, v: string): ClassId {
  return isScalar(m, v) ? m.cls(v) : add(m, "as.scalar", [m.cls(v)]);
}

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
    // as.scalar of a 1 x 1 result is the operator on the cells.
    rule(
      "cellwise-as-scalar",
      `(as.scalar (${op} ?a ?b))`,
      (m) => add(m, op, [scalarOf(m, "a"), scalarOf(m, "b")]),
      (m) => (is1x1(m, "a") || isScalar(m, "a")) && (is1x1(m, "b") || isScalar(m, "b")),
      "length(?a) = 1 & length(?b) = 1",
    ),
    // Transpose moves through a cell-wise operator (onto each matrix operand; a scalar stays).
    rule("cellwise-transpose-scalar-left", `(t (${op} ?s ?X))`, `(${op} ?s (t ?X))`, (m) => isScalar(m, "s") && isMatrix(m, "X") && noTranspose(m, "X")),
    rule("cellwise-transpose-scalar-right", `(t (${op} ?X ?s))`, `(${op} (t ?X) ?s)`, (m) => isScalar(m, "s") && isMatrix(m, "X") && noTranspose(m, "X")),
    rule("cellwise-transpose", `(t (${op} ?X ?Y))`, `(${op} (t ?X) (t ?Y))`, (m) => isMatrix(m, "X") && isMatrix(m, "Y") && noTranspose(m, "X") && noTranspose(m, "Y")),
    rule("cellwise-of-transposes", `(${op} (t ?X) (t ?Y))`, `(t (${op} ?X ?Y))`, (m) => isMatrix(m, "X") && isMatrix(m, "Y")),
  ];
}

export const CELLWISE_RULES: readonly RuleSpec[] = NON_SUM_PRODUCT_CELLWISE_OPS.flatMap(congruences);
