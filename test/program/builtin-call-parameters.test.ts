/** How a builtin call node's arguments bind to its parameters (one rule for sizes, fusion templates and fused operators). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { boundArguments, callParameterInput, CALL_PARAMETERS } from "../../engine/program/builtin-call-parameters";
import type { DagNode } from "../../engine/program/dag-types";

const call = (name: string, argNames: (string | undefined)[]): DagNode => ({
  id: 9,
  op: { kind: "call", name, user: false, output: 0 },
  inputs: argNames.map((_, k) => k),
  argNames,
  type: { dataType: "matrix", valueType: "double" },
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
});

test("positional arguments in order, named ones by name, positional ones fill the rest", () => {
  assert.deepEqual(boundArguments(call("ifelse", [undefined, undefined, undefined]), CALL_PARAMETERS.ifelse!), [0, 1, 2]);
  assert.deepEqual(boundArguments(call("replace", ["replacement", "target", "pattern"]), CALL_PARAMETERS.replace!), [1, 2, 0]);
  assert.deepEqual(boundArguments(call("ifelse", [undefined, "no", undefined]), CALL_PARAMETERS.ifelse!), [0, 2, 1]);
  assert.equal(callParameterInput(call("replace", ["pattern", undefined, undefined]), "target"), 1);
  assert.equal(callParameterInput(call("rowIndexMax", ["target"]), "target"), 0);
});

test("arguments that do not bind give nothing: another count, an unknown or repeated name, another builtin", () => {
  assert.equal(boundArguments(call("ifelse", [undefined, undefined]), CALL_PARAMETERS.ifelse!), undefined);
  assert.equal(boundArguments(call("replace", ["target", "value", undefined]), CALL_PARAMETERS.replace!), undefined);
  assert.equal(boundArguments(call("replace", ["target", "target", undefined]), CALL_PARAMETERS.replace!), undefined);
  assert.equal(callParameterInput(call("cumsum", [undefined]), "target"), undefined);
});
