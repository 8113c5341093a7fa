/**
 * The per-cell code of an Outer operator: JavaScript statements computing
 * covered nodes at one cell of the driver, in the semantics of the
 * reference cell function (engine/runtime/fused/cell-expression.ts).
 *
 * A node is computed at a cell given as two index expressions (row, col):
 * "i" and "j" for the driver's cell, swapped by a transpose, "0" for a
 * broadcast vector's single row or column. Inputs and matrix products are
 * read through the caller's `CellSources` (the kernel decides how a
 * dense, CSR or broadcast input is addressed and how a dot product of
 * factor rows is computed). Each (node, cell) is computed once, into a
 * `const` temporary; the statements come out in dependency order.
 */
import type { FusionDag } from "../../fusion/fusion-dag";
import type { FusedOperator } from "../../fusion/types";
import { callOperandOrder } from "../fused/call-arguments";
import type { NodeShape } from "../fused/operator-shapes";
import { UnsupportedOperator } from "./generated-operator";
import { binaryCode, numberCode, unaryCode } from "./operation-code";

/** How the kernel reads what the cell expression does not compute itself. */
export interface CellSources {
  /** An expression for input `node` at (row, col) of its own shape (indices already broadcast). */
  input(node: number, row: string, col: string): string;
  /** A temporary holding the covered matrix product `node` at (row, col), its statements emitted through `emit`. */
  product(node: number, row: string, col: string, emit: (statement: string) => void): string;
}

export class OuterCellCode {
  /** The statements emitted so far, in dependency order. */
  readonly statements: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly covered: ReadonlySet<number>;
  private readonly inputs: ReadonlySet<number>;

  constructor(
    readonly dag: FusionDag,
    readonly op: FusedOperator,
    readonly shapes: ReadonlyMap<number, NodeShape>,
    readonly sources: CellSources,
  ) {
    this.covered = new Set(op.covered);
    this.inputs = new Set(op.inputs);
  }

  /** A JavaScript expression (a temporary or a read) of `node` at (row, col). */
  value(node: number, row: string, col: string): string {
    if (this.inputs.has(node)) return this.sources.input(node, row, col);
    if (!this.covered.has(node)) throw new UnsupportedOperator(`node ${node} is neither covered nor an input of operator ${this.op.id}`);
    const key = `${node}@${row},${col}`;
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const code = this.compute(node, row, col);
    // A transpose or a product already names its value: no copy.
    if (/^[A-Za-z_$][\w$]*$/.test(code)) {
      this.names.set(key, code);
      return code;
    }
    const name = `t${node}_${this.names.size}`;
    this.statements.push(`const ${name} = ${code};`);
    this.names.set(key, name);
    return name;
  }

  shape(node: number): NodeShape {
    const s = this.shapes.get(node);
    if (!s) throw new UnsupportedOperator(`node ${node} of operator ${this.op.id} has no shape`);
    return s;
  }

  /** Input k of `node`, at (row, col) of `node`'s shape, broadcast by the input's shape. */
  private operand(node: number, k: number, row: string, col: string): string {
    const input = this.dag.nodes[node]!.inputs[k]!;
    const s = this.shape(input);
    return this.value(input, s.rows === 1 ? "0" : row, s.cols === 1 ? "0" : col);
  }

  private compute(node: number, row: string, col: string): string {
    const n = this.dag.nodes[node]!;
    const o = n.op;
    switch (o.kind) {
      case "literal":
        if (typeof o.value === "boolean") return o.value ? "1" : "0";
        if (typeof o.value === "number") return numberCode(o.value);
        throw new UnsupportedOperator(`a string literal (node ${node}) in the cell expression of operator ${this.op.id}`);
      case "binary":
        return binaryCode(o.op, this.operand(node, 0, row, col), this.operand(node, 1, row, col));
      case "unary":
        return unaryCode(o.op, this.operand(node, 0, row, col));
      case "transpose":
        return this.value(n.inputs[0]!, col, row);
      case "matmul":
        return this.sources.product(node, row, col, (statement) => this.statements.push(statement));
      case "call":
        return this.call(node, o.name, row, col);
      default:
        throw new UnsupportedOperator(`a ${o.kind} node (${node}) cannot be computed per cell of operator ${this.op.id}`);
    }
  }

  private call(node: number, name: string, row: string, col: string): string {
    const order = callOperandOrder(this.dag.nodes[node]!, name);
    if (!order) throw new UnsupportedOperator(`the call ${name} (node ${node}) cannot be computed per cell`);
    const operand = (p: number) => this.operand(node, order[p]!, row, col);
    switch (name) {
      case "ifelse":
        return `(${operand(0)} !== 0 ? ${operand(1)} : ${operand(2)})`;
      case "replace": {
        const v = operand(0);
        const pattern = operand(1);
        return `(${v} === ${pattern} || (${pattern} !== ${pattern} && ${v} !== ${v}) ? ${operand(2)} : ${v})`;
      }
      default: {
        // min / max of several arguments, folded left to right
        let r = operand(0);
        for (let p = 1; p < order.length; p++) {
          const next = binaryCode(name as "min" | "max", r, operand(p));
          const temp = `m${node}_${this.names.size}_${p}`;
          this.statements.push(`const ${temp} = ${next};`);
          r = temp;
        }
        return r;
      }
    }
  }
}
