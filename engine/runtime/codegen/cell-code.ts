/**
 * The per-cell code of a fused operator: JavaScript statements computing
 * its covered element-wise nodes at the current cell of a generated loop,
 * each into a temporary `t<id>`, with the semantics of the reference cell
 * expression (engine/runtime/fused/cell-expression.ts): binary and unary
 * operations (operation-code.ts, the runtime's own tables), literals,
 * `ifelse`, `replace`, n-ary `min` / `max`, transposes, the casts
 * as.scalar / as.double of a 1 x 1 value, and column ranges `X[, a:b]` of
 * a materialized X (read in place at a column offset, when the generator's
 * `read` takes offsets).
 *
 * Positions and broadcasting: a node is read at a position of its own
 * shape, each index being the loop's row `i`, its column `j`, or 0. The
 * cell of the loop is (i, j); an operand is read at its consumer's
 * position, an index dropped to 0 where the operand has one row or one
 * column (row vector (0, j), column vector (i, 0), 1 x 1 or scalar
 * (0, 0)); a transpose swaps the indexes (t(v) of a column vector v is
 * read at (j, 0)). The same node at two positions is two temporaries.
 *
 * Materialized inputs are read through the caller's `read` callback (the
 * generator knows their formats and arrays). Each statement is put at the
 * loop level its position needs: `invariant` (before the loop: scalars,
 * 1 x 1 values and what is computed from them only), `row` (once per row
 * i) or `cell` (per cell), so the generator emits each list at its place.
 */
import { isColumnRangeSyntax, nodeLabel, type FusionDag, type FusedOperator } from "../../fusion";
import { callOperandOrder, type NodeShape } from "../fused";
import { UnsupportedOperator } from "./generated-operator";
import { binaryCode, numberCode, unaryCode } from "./operation-code";

/** An index of a position: the loop's row `i`, its column `j`, or 0. */
type CellIndex = "i" | "j" | "0";

/**
 * Where a node is read: (row, col) of its own shape; `colOffset` (a kernel
 * name of an integer) is added to the column: a column range `X[, a:b]`
 * reads its materialized X at (row, col + a - 1).
 */
export interface CellPosition {
  readonly row: CellIndex;
  readonly col: CellIndex;
  readonly colOffset?: string;
}

/** The loop's current cell. */
export const CURRENT_CELL: CellPosition = { row: "i", col: "j" };

/** Where a statement runs: once before the loop, once per row, or per cell. */
export type CellCodeLevel = "invariant" | "row" | "cell";

export interface CellCodeSource {
  readonly dag: FusionDag;
  readonly op: FusedOperator;
  /** Shapes of the operator's inputs and covered nodes (operatorShapes of the input values). */
  readonly shapes: ReadonlyMap<number, NodeShape>;
  /**
   * The JavaScript expression of a materialized input (a node of
   * `op.inputs`) at a position of its shape (already dropped to 0 where
   * the input has one row or column). It may use `i` and `j`.
   */
  read(node: number, at: CellPosition): string;
  /** Whether `read` takes positions with a column offset (column ranges are then computed per cell). */
  readonly readsOffsets?: boolean;
  /**
   * Optional: the expression of a covered node the generator computes
   * itself (e.g. Outer's `U %*% t(V)` as a dot product); undefined lets
   * the builder compute it.
   */
  special?(node: number, at: CellPosition): string | undefined;
}

/** Why a covered node (not an operator root) cannot be computed per cell, or undefined when it can. */
export function cellNodeProblem(dag: FusionDag, node: number): string | undefined {
  const n = dag.nodes[node];
  if (!n) return `node ${node} is not in the DAG`;
  const o = n.op;
  switch (o.kind) {
    case "literal":
      return typeof o.value === "string" ? "a string literal cannot be computed per cell" : undefined;
    case "binary":
    case "unary":
    case "transpose":
      return undefined;
    case "cast":
      return o.to === "scalar" || o.to === "double" ? undefined : `the cast as.${o.to} is not generated per cell`;
    case "call":
      return callOperandOrder(n, o.name) ? undefined : `the call ${o.name} cannot be computed per cell`;
    case "index":
      return isColumnRangeSyntax(dag, node) ? undefined : "only a column range X[, a:b] of a materialized X is computed per cell";
    default:
      return `a ${nodeLabel(n)} node cannot be computed per cell`;
  }
}

/** The position `at` of a consumer as a position of a node of shape `shape` (indexes of its unit dimensions dropped; an offset is the consumer's, not the node's). */
export function positionIn(shape: NodeShape, at: CellPosition): CellPosition {
  return { row: shape.rows === 1 ? "0" : at.row, col: shape.cols === 1 ? "0" : at.col };
}

/** The loop level a position needs. */
function levelOf(at: CellPosition): CellCodeLevel {
  if (at.row === "j" || at.col === "j") return "cell";
  return at.row === "i" || at.col === "i" ? "row" : "invariant";
}

export class CellCode {
  /** Statements to run once before the loop. */
  readonly invariant: string[] = [];
  /** Statements to run once per row i, before its cells. */
  readonly row: string[] = [];
  /** Statements to run per cell (i, j). */
  readonly cell: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly covered: ReadonlySet<number>;
  private readonly inputs: ReadonlySet<number>;

  constructor(private readonly source: CellCodeSource) {
    this.covered = new Set(source.op.covered);
    this.inputs = new Set(source.op.inputs);
  }

  /** The statements of one level, one per line. */
  lines(level: CellCodeLevel, indent = ""): string {
    return this[level].map((s) => `${indent}${s}\n`).join("");
  }

  /**
   * A JavaScript expression of the node's value at `at` (a position of the
   * loop's cell; dropped to the node's shape here): a temporary or a
   * literal. The statements it needs are added to the level lists.
   */
  value(node: number, at: CellPosition = CURRENT_CELL): string {
    const shape = this.shape(node);
    const pos = positionIn(shape, at);
    const key = `${node}@${pos.row}${pos.col}`;
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const n = this.source.dag.nodes[node]!;
    if (n.op.kind === "literal" && typeof n.op.value !== "string") {
      const literal = numberCode(typeof n.op.value === "boolean" ? (n.op.value ? 1 : 0) : n.op.value);
      this.names.set(key, literal);
      return literal;
    }
    let expression: string;
    let prefix: string;
    if (this.inputs.has(node)) {
      expression = this.source.read(node, pos);
      prefix = "l";
    } else if (this.covered.has(node)) {
      expression = this.source.special?.(node, pos) ?? this.compute(node, pos);
      prefix = "t";
    } else {
      throw new UnsupportedOperator(`operator ${this.source.op.id}: node ${node} (${nodeLabel(n)}) is neither covered nor an input`);
    }
    const transposed = pos.row === "j" || pos.col === "i";
    const name = `${prefix}${node}${transposed ? `_${pos.row}${pos.col}` : ""}`;
    this[levelOf(pos)].push(`const ${name} = ${expression};`);
    this.names.set(key, name);
    return name;
  }

  private shape(node: number): NodeShape {
    const shape = this.source.shapes.get(node);
    if (!shape) throw new UnsupportedOperator(`operator ${this.source.op.id}: node ${node} (${nodeLabel(this.source.dag.nodes[node])}) has no shape`);
    return shape;
  }

  private compute(node: number, at: CellPosition): string {
    const { dag, op } = this.source;
    const n = dag.nodes[node]!;
    const o = n.op;
    const problem = cellNodeProblem(dag, node);
    if (problem !== undefined) throw new UnsupportedOperator(`operator ${op.id} at node ${node}: ${problem}`);
    const operand = (k: number) => this.value(n.inputs[k]!, at);
    switch (o.kind) {
      case "binary":
        return binaryCode(o.op, operand(0), operand(1));
      case "unary":
        return unaryCode(o.op, operand(0));
      case "transpose":
        return this.value(n.inputs[0]!, { row: at.col, col: at.row });
      case "cast":
        return operand(0);
      case "call":
        return this.call(node, o.name, at);
      case "index":
        return this.columnRange(node, at);
      default:
        throw new UnsupportedOperator(`operator ${op.id} at node ${node}: a ${nodeLabel(n)} node cannot be computed per cell`);
    }
  }

  /**
   * `X[, a:b]` at (row, col): X (a materialized input with the range's
   * rows; the shapes checked the bounds against it) at (row, col + a - 1).
   */
  private columnRange(node: number, at: CellPosition): string {
    const { dag, op } = this.source;
    const n = dag.nodes[node]!;
    const x = n.inputs[0]!;
    if (!this.inputs.has(x)) throw new UnsupportedOperator(`operator ${op.id} at node ${node}: the indexed matrix is computed inside the operator, not read`);
    if (!this.source.readsOffsets) throw new UnsupportedOperator(`operator ${op.id} at node ${node}: this generator reads no column offsets`);
    const offset = `c${node}`;
    if (!this.names.has(`offset:${node}`)) {
      const lower = this.value(n.inputs[3]!, { row: "0", col: "0" });
      this.invariant.push(`const ${offset} = Math.trunc(${lower}) - 1;`);
      this.names.set(`offset:${node}`, offset);
    }
    const xShape = this.shape(x);
    return this.source.read(x, { row: xShape.rows === 1 ? "0" : at.row, col: at.col, colOffset: offset });
  }

  private call(node: number, name: string, at: CellPosition): string {
    const n = this.source.dag.nodes[node]!;
    const order = callOperandOrder(n, name)!;
    const operands = order.map((k) => this.value(n.inputs[k]!, at));
    switch (name) {
      case "ifelse":
        return `(${operands[0]} !== 0 ? ${operands[1]} : ${operands[2]})`;
      case "replace": {
        const [v, pattern, replacement] = operands as [string, string, string];
        return `(${v} === ${pattern} || (${pattern} !== ${pattern} && ${v} !== ${v}) ? ${replacement} : ${v})`;
      }
      default: {
        // min / max of several arguments, folded left as the reference folds them
        let folded = operands[0]!;
        for (let p = 1; p < operands.length; p++) folded = binaryCode(name as "min" | "max", folded, operands[p]!);
        return folded;
      }
    }
  }
}
