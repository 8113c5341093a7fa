/**
 * The shape arguments of SystemDS's deep-learning builtins, read from a
 * call: `input_shape=[N, C, H, W]`, `filter_shape=[K, C, R, S]` (conv2d
 * and its gradients) or `pool_size=[R, S]` (pooling, where K = 1),
 * `stride=[sh, sw]`, `padding=[ph, pw]`, each a list literal of integers.
 * The output extent is floor((H + 2*ph - R)/sh) + 1 (and the same for W).
 * Shapes that make no sense (a zero stride, a negative padding, a filter
 * larger than the padded image, a non-integer) are runtime errors that say
 * which argument is wrong.
 */
import { outputExtent, type DnnGeometry } from "../kernels";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { num } from "./operations";
import { describeValue, type Value } from "./values";

export type DnnFamily = "conv" | "pool";

const SHAPE_NAMES: ReadonlySet<string> = new Set(["input_shape", "filter_shape", "pool_size", "stride", "padding"]);

/**
 * The matrices of a call (images, filter, dout): the arguments that are not
 * shapes, in order, as SystemDS takes them whatever their names.
 */
export function positionalMatrices(fn: string, a: CallArgs, names: readonly string[]): Value[] {
  const values = a.values.filter((_, k) => !SHAPE_NAMES.has(a.names[k] ?? ""));
  if (values.length < names.length) fail(`${fn}: missing argument '${names[values.length]}' (the ${names.join(" and ")} come before the shapes)`);
  if (values.length > names.length) fail(`${fn}: takes the ${names.join(" and ")} and the shapes, but ${values.length} other arguments were given`);
  return values;
}

/** The integers of a shape argument such as `stride=[1, 1]`. */
function shapeArgument(fn: string, a: CallArgs, name: string, length: number, form: string): number[] {
  const i = a.names.indexOf(name);
  if (i < 0) fail(`${fn}: missing argument ${name}=${form}`);
  const value = a.values[i]!;
  if (value.kind !== "list") fail(`${fn}: ${name} must be a list ${form}, found a ${describeValue(value)}`);
  if (value.items.length !== length) fail(`${fn}: ${name} must have ${length} values ${form}, found ${value.items.length}`);
  return value.items.map((item, k) => {
    const x = num(item, `${fn} ${name}`);
    if (!Number.isInteger(x)) fail(`${fn}: ${name} must hold integers ${form}, but value ${k + 1} is ${x}`);
    return x;
  });
}

/** The geometry a conv2d-family (`conv`) or pooling (`pool`) call describes. */
export function dnnGeometry(fn: string, a: CallArgs, family: DnnFamily): DnnGeometry {
  const [N, C, H, W] = shapeArgument(fn, a, "input_shape", 4, "[N, C, H, W]") as [number, number, number, number];
  const [strideH, strideW] = shapeArgument(fn, a, "stride", 2, "[stride_h, stride_w]") as [number, number];
  const [padH, padW] = shapeArgument(fn, a, "padding", 2, "[pad_h, pad_w]") as [number, number];
  let K = 1;
  let R: number;
  let S: number;
  if (family === "conv") {
    const [filters, channels, r, s] = shapeArgument(fn, a, "filter_shape", 4, "[F, C, Hf, Wf]") as [number, number, number, number];
    if (channels !== C) fail(`${fn}: filter_shape has ${channels} channels but input_shape has ${C}`);
    [K, R, S] = [filters, r, s];
  } else {
    [R, S] = shapeArgument(fn, a, "pool_size", 2, "[Hf, Wf]") as [number, number];
  }
  for (const [name, x] of [["N", N], ["C", C], ["H", H], ["W", W], ["K", K]] as const) if (x < 0) fail(`${fn}: ${name} must not be negative, found ${x}`);
  if (R <= 0 || S <= 0) fail(`${fn}: the ${family === "conv" ? "filter" : "pool"} must be at least 1 x 1, found ${R} x ${S}`);
  if (strideH <= 0 || strideW <= 0) fail(`${fn}: only positive strides are supported, found stride=[${strideH}, ${strideW}]`);
  if (padH < 0 || padW < 0) fail(`${fn}: padding must not be negative, found padding=[${padH}, ${padW}]`);
  if (H + 2 * padH < R || W + 2 * padW < S) {
    fail(`${fn}: the ${R} x ${S} ${family === "conv" ? "filter" : "pool"} is larger than the padded ${H + 2 * padH} x ${W + 2 * padW} image (input ${H} x ${W}, padding=[${padH}, ${padW}])`);
  }
  const P = outputExtent(H, R, strideH, padH);
  const Q = outputExtent(W, S, strideW, padW);
  return { N, C, H, W, K, R, S, strideH, strideW, padH, padW, P, Q };
}
