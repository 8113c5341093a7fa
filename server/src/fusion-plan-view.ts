/**
 * The fusion part of the `dmlLens/plan` answer: the block's fusion plan as
 * written and, when the rewriter suggested changes, as rewritten, each as
 * the planned DAG's nodes (named as in the plan view's other drawings) and
 * its fused operators (the nodes each one covers, its template and variant
 * in words, what it reads and leaves unmaterialized, its cost). The client
 * draws each operator as a box around the nodes it covers.
 */
import type { TemplateType } from "../../engine/fusion";
import type { BlockFusion, FusionView } from "../../engine/suggest";
import { type Range, sameRange } from "../../engine/syntax";
import { nodeLabel, viewNodes, type NodeTexts } from "./fusion-expressions";
import { notMaterialized } from "./fusion-hover";
import { operatorPhrase, templateName, variantWords } from "./fusion-words";

export interface FusionDrawingNode {
  id: number;
  /** The DML it stands for, operands abbreviated (`X %*% …`). */
  label: string;
  /** The variable this value is assigned to where it is written (as written only). */
  assigns?: string;
  inputs: number[];
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  /** A constant (left out of the drawing, as in the plan before optimization). */
  literal: boolean;
  /** The index of the fused operator whose box holds this node. */
  operator?: number;
}

export interface FusionDrawingOperator {
  template: TemplateType;
  /** `Cell`, `Row`, `MAgg`, `Outer`. */
  name: string;
  /** The skeleton's variant in words (`full aggregate`). */
  variant: string;
  /** "one Cell operator (full aggregate, sparse-safe over X)". */
  summary: string;
  /** The DML it computes. */
  text: string;
  inputs: string[];
  /** The nodes it computes (ids of `nodes`), its results among them. */
  covered: number[];
  roots: number[];
  /** The DML of the covered intermediates it does not write out. */
  notMaterialized: string[];
  seconds: number;
  unfusedSeconds: number;
  range?: Range;
}

export interface FusionDrawing {
  nodes: FusionDrawingNode[];
  operators: FusionDrawingOperator[];
  cost: { fused: number; unfused: number };
  search: FusionView["search"];
}

export interface PlanFusion {
  asWritten: FusionDrawing;
  /** The block with every offered rewrite applied, planned (absent without rewrites). */
  rewritten?: FusionDrawing;
}

/** How the plan view already names a node of the block as written (its `before` drawing). */
export interface WrittenNode {
  id: number;
  op: string;
  label: string;
  assigns?: string;
  range: Range;
  /** The DML as written (whitespace runs made one space). */
  text?: string;
}

/** A constant's label: a number, a quoted string, or a logical value. */
function isConstantLabel(label: string): boolean {
  return /^-?(\d|\.\d)|^(-?Infinity|NaN|true|false|TRUE|FALSE)$|^"/.test(label);
}

const rangeKey = (r: Range) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

/**
 * One planned DAG as drawn; `written` names the nodes of the block as
 * written the way the rest of the plan view does. A planned node is a
 * written one when both are written at the same place (the block as
 * rewritten keeps the ranges of the block's own nodes, under new ids).
 */
export function fusionDrawing(view: FusionView, written?: ReadonlyMap<number, WrittenNode>): FusionDrawing {
  const nodes = viewNodes(view);
  const byRange = new Map<string, WrittenNode>();
  for (const node of written?.values() ?? []) if (!byRange.has(rangeKey(node.range))) byRange.set(rangeKey(node.range), node);
  const writtenAs = (id: number): WrittenNode | undefined => {
    const range = nodes.get(id)?.range;
    if (!range) return undefined;
    const same = written?.get(id);
    return same && sameRange(range, same.range) ? same : byRange.get(rangeKey(range));
  };
  const texts: NodeTexts = { written: (id) => writtenAs(id)?.text, named: (id) => writtenAs(id)?.assigns };
  const drawn = view.nodes.map((n): FusionDrawingNode => {
    const known = writtenAs(n.id);
    const drawing: FusionDrawingNode = {
      id: n.id,
      label: known?.label ?? nodeLabel(nodes, n.id, texts),
      inputs: [...n.children],
      rows: n.rows,
      cols: n.cols,
      nnz: n.nnz,
      literal: known ? known.op.startsWith("literal") : n.children.length === 0 && isConstantLabel(n.label),
    };
    if (known?.assigns !== undefined) drawing.assigns = known.assigns;
    if (n.operator !== undefined) drawing.operator = n.operator;
    return drawing;
  });
  const operators = view.operators.map((op): FusionDrawingOperator => {
    const drawing: FusionDrawingOperator = {
      template: op.template,
      name: templateName(op.template),
      variant: variantWords(op.variant),
      summary: operatorPhrase(op),
      text: op.text,
      inputs: [...op.inputs],
      covered: [...op.covered],
      roots: [...op.roots],
      notMaterialized: notMaterialized(view, op, texts),
      seconds: op.seconds,
      unfusedSeconds: op.unfusedSeconds,
    };
    if (op.range) drawing.range = op.range;
    return drawing;
  });
  return { nodes: drawn, operators, cost: { ...view.cost }, search: { ...view.search } };
}

export function planFusion(fusion: BlockFusion, written?: ReadonlyMap<number, WrittenNode>): PlanFusion {
  const asWritten = fusionDrawing(fusion.asWritten, written);
  return fusion.rewritten ? { asWritten, rewritten: fusionDrawing(fusion.rewritten, written) } : { asWritten };
}
