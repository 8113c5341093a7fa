/**
 * R_LR of SPORES (Figure 2): a bound LA operator becomes a relational
 * expression over bound operands. `(b i j X)` is the K-relation of X's cells
 * with row attribute i and column attribute j; a dimension of size 1 has no
 * attribute (`_`), which is how vectors and scalars broadcast.
 *
 * Also here: the normal form of binds (drop attributes of size-1 dimensions)
 * and unbinding, which makes `b` injective: two LA classes bound to the same
 * attributes in one RA class are equal.
 */
import type { ClassId } from "../egraph";
import { RA_MUL, RA_SUM, UNBIND_MATRIX, UNBIND_SCALAR } from "./la-ops";
import { attributeNode, bindNode, boundLiteralNode } from "./ra-nodes";
import { rule, type Match, type RuleSpec } from "./rule-spec";

export function add(m: Match, op: string, children: readonly ClassId[] = []): ClassId {
  return m.egraph.add({ op, children });
}

export function bind(m: Match, i: number, j: number, x: ClassId): ClassId {
  return bindNode(m.egraph, i, j, x);
}

/** `(b _ _ lit:value)`. */
export function boundLiteral(m: Match, value: number): ClassId {
  return boundLiteralNode(m.egraph, value);
}

const isMatrix = (m: Match, v: string) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "matrix";
const isScalar = (m: Match, v: string) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "scalar";
const rows = (m: Match, v: string) => m.la(v).stats.rows;
const cols = (m: Match, v: string) => m.la(v).stats.cols;
const known = (m: Match, v: string) => isMatrix(m, v) && rows(m, v) !== null && cols(m, v) !== null;

/**
 * A fresh attribute for a bind pushed into an operator. It is named by its
 * role, the attributes free where it is introduced and its dimension, never
 * by class ids: the same sub-term pushed twice gets the same attribute, so
 * its relational forms are shared instead of copied under new names. It can
 * never equal a free attribute of the bind (its key contains them), and it
 * is always introduced under its own Σ.
 */
/**
 * The attribute of a new dimension: none (-1) for size 1; undefined for size
 * 0, which stays out of the relational form (an empty matrix is no relation
 * to broadcast: a class holding one would take its vacuous constant).
 */
function freshAttribute(m: Match, role: string, free: readonly number[], dim: number): number | undefined {
  if (dim === 0) return undefined;
  return dim === 1 ? -1 : m.attributes.fresh(`${role}|${free.join(",")}|${dim}`, dim);
}

/** Σ over `attribute` (nothing to sum for `_`). */
function sumOver(m: Match, attr: number, body: ClassId): ClassId {
  return attr < 0 ? body : add(m, RA_SUM, [attributeNode(m.egraph, attr), body]);
}

export const LA_TO_RA_RULES: readonly RuleSpec[] = [
  rule("bind-transpose", "(b ?i ?j (t ?x))", "(b ?j ?i ?x)"),
  rule("bind-add", "(b ?i ?j (+ ?x ?y))", "(r+ (b ?i ?j ?x) (b ?i ?j ?y))"),
  rule("bind-multiply", "(b ?i ?j (* ?x ?y))", "(r* (b ?i ?j ?x) (b ?i ?j ?y))"),
  rule("bind-subtract", "(b ?i ?j (- ?x ?y))", "(r+ (b ?i ?j ?x) (r* (b _ _ lit:-1) (b ?i ?j ?y)))"),
  rule("bind-negate", "(b ?i ?j (neg ?x))", "(r* (b _ _ lit:-1) (b ?i ?j ?x))"),
  rule("bind-square", "(b ?i ?j (^ ?x lit:2))", "(r* (b ?i ?j ?x) (b ?i ?j ?x))"),
  rule("bind-as-scalar", "(b _ _ (as.scalar ?x))", "(b _ _ ?x)", (m) => isMatrix(m, "x")),
  rule("bind-as-matrix", "(b _ _ (as.matrix ?x))", "(b _ _ ?x)", (m) => isScalar(m, "x")),
  rule("bind-matmul", "(b ?i ?k (mm ?x ?y))", (m) => {
    if (!known(m, "x") || !known(m, "y")) return undefined;
    const inner = cols(m, "x")!;
    const x = m.cls("x");
    const y = m.cls("y");
    const j = freshAttribute(m, "inner", [m.attribute("i"), m.attribute("k")], inner);
    if (j === undefined) return undefined;
    const product = add(m, RA_MUL, [bind(m, m.attribute("i"), j, x), bind(m, j, m.attribute("k"), y)]);
    return sumOver(m, j, product);
  }),
  rule("bind-sum", "(b _ _ (sum ?x))", (m) => {
    if (!known(m, "x")) return undefined;
    const x = m.cls("x");
    const r = freshAttribute(m, "sum-rows", [], rows(m, "x")!);
    const c = freshAttribute(m, "sum-cols", [], cols(m, "x")!);
    if (r === undefined || c === undefined) return undefined;
    return sumOver(m, r, sumOver(m, c, bind(m, r, c, x)));
  }),
  rule("bind-row-sums", "(b ?i _ (rowSums ?x))", (m) => {
    if (!known(m, "x")) return undefined;
    const x = m.cls("x");
    const c = freshAttribute(m, "row-sums", [m.attribute("i")], cols(m, "x")!);
    if (c === undefined) return undefined;
    return sumOver(m, c, bind(m, m.attribute("i"), c, x));
  }),
  rule("bind-col-sums", "(b _ ?j (colSums ?x))", (m) => {
    if (!known(m, "x")) return undefined;
    const x = m.cls("x");
    const r = freshAttribute(m, "col-sums", [m.attribute("j")], rows(m, "x")!);
    if (r === undefined) return undefined;
    return sumOver(m, r, bind(m, r, m.attribute("j"), x));
  }),
];

/** Binds in normal form: no attribute for a dimension of size 1; a 1x1 matrix also as a scalar. */
export const BIND_NORMAL_FORM_RULES: readonly RuleSpec[] = [
  rule("bind-scalar", "(b ?i ?j ?x)", "(b _ _ ?x)", (m) => isScalar(m, "x") && (m.attribute("i") >= 0 || m.attribute("j") >= 0), "?x is a scalar"),
  rule("bind-single-row", "(b ?i ?j ?x)", "(b _ ?j ?x)", (m) => isMatrix(m, "x") && rows(m, "x") === 1 && m.attribute("i") >= 0, "nrow(?x) = 1"),
  rule("bind-single-column", "(b ?i ?j ?x)", "(b ?i _ ?x)", (m) => isMatrix(m, "x") && cols(m, "x") === 1 && m.attribute("j") >= 0, "ncol(?x) = 1"),
  rule("bind-1x1-as-scalar", "(b _ _ ?x)", "(b _ _ (as.scalar ?x))", (m) => isMatrix(m, "x") && rows(m, "x") === 1 && cols(m, "x") === 1, "?x is 1 x 1"),
];

/**
 * Unbinding: `X = unbind_{i,j}(b i j X)`. Every bind gets its unbind node,
 * so all LA classes of the same shape bound to the same attributes in one
 * RA class become one class.
 */
export const UNBIND_RULES: readonly RuleSpec[] = [
  rule("unbind", "(b ?i ?j ?x)", (m) => {
    if (m.data("x").family !== "la") return undefined;
    const data = m.la("x");
    const i = m.attribute("i");
    const j = m.attribute("j");
    const type = data.stats.type.dataType;
    if (data.invalid) return undefined;
    let op: string;
    if (type === "scalar" && i < 0 && j < 0) op = UNBIND_SCALAR;
    else if (type === "matrix" && data.stats.rows === m.attributes.dim(i) && data.stats.cols === m.attributes.dim(j)) op = UNBIND_MATRIX;
    else return undefined;
    const node = { op, children: [m.cls("i"), m.cls("j"), m.root] };
    const unbound = m.egraph.add(node);
    // Between the unbind node and the bound value's own node, so explanations pass through the relational form.
    m.egraph.union(m.egraph.nodeId(node) ?? unbound, m.cls("x"), "unbind");
    return undefined;
  }),
];
