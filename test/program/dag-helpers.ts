// Helpers shared by the DAG tests: parse a snippet, build its DAGs, and
// render a node as a compact expression tree for exact assertions.
import { strict as assert } from "node:assert";
import { buildProgramDags, printType, type BlockDag, type BlockDagInfo, type ProgramDags } from "../../engine/program";
import type { Program } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { at, defined } from "../checked-access";

export function parsed(source: string): Program {
  const result = parse(source);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(errors, [], `unexpected syntax errors in:\n${source}`);
  return result.program;
}

export function programDags(source: string, options: { liveAtEnd?: "nothing" | "everything" } = {}): ProgramDags {
  return buildProgramDags(parsed(source), options);
}

/** The DAG of the only basic block of `source`. */
export function onlyBlock(source: string): BlockDagInfo {
  const dags = programDags(source);
  assert.equal(dags.blocks.length, 1, `expected one basic block in:\n${source}`);
  return at(dags.blocks, 0);
}

export function dagOf(source: string): BlockDag {
  return onlyBlock(source).dag;
}

export function lines(...text: string[]): string {
  return text.join("\n");
}

/**
 * A node as a tree: literals as values, inputs as names, `$p` as written,
 * element-wise binary operators infix in parentheses, everything else as
 * `kind[detail](args)` with named arguments as `name=...`.
 */
export function tree(dag: BlockDag, id: number): string {
  const node = at(dag.nodes, id);
  const args = node.inputs.map((input, i) => {
    const name = node.argNames?.[i];
    return (name === undefined ? "" : `${name}=`) + tree(dag, input);
  });
  const op = node.op;
  switch (op.kind) {
    case "literal":
      return typeof op.value === "string" ? JSON.stringify(op.value) : String(op.value);
    case "input":
      return op.name;
    case "parameter":
      return args.length > 0 ? `$${op.name}(${args.join(", ")})` : `$${op.name}`;
    case "binary":
      return /^[a-z]/i.test(op.op) ? `${op.op}(${args.join(", ")})` : `(${args[0]} ${op.op} ${args[1]})`;
    case "unary":
      return `${op.op}(${args[0]})`;
    case "aggregate":
      return `${op.direction}-${op.fn}(${args[0]})`;
    case "cast":
      return `as.${op.to}(${args[0]})`;
    case "call":
      return `${op.user ? "user:" : ""}${op.name}${op.output > 0 ? `#${op.output}` : ""}(${args.join(", ")})`;
    default:
      return `${op.kind}(${args.join(", ")})`;
  }
}

/** The tree of the final value of variable `name`. */
export function valueOf(dag: BlockDag, name: string): string {
  return tree(dag, defined(dag.outputs.get(name), `an output ${name}`));
}

/** The printed type of variable `name`'s final value. */
export function typeOf(dag: BlockDag, name: string): string {
  return printType(at(dag.nodes, defined(dag.outputs.get(name), `an output ${name}`)).type);
}

/** The printed type of input `name` (its type when the block starts). */
export function inputType(dag: BlockDag, name: string): string {
  return printType(at(dag.nodes, defined(dag.inputs.get(name), `an input ${name}`)).type);
}
