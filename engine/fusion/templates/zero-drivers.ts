/**
 * Drivers for the Outer template, once per DAG: for each node computed
 * cell-wise from an outer product, the matrices of its shape (not
 * themselves computed from an outer product) wherever whose zeros it is
 * zero. `W * (X - U %*% t(V))^2` has the driver W; `(X - U %*% t(V))^2` has
 * none, so an Outer operator cannot end there (it would have to compute
 * every cell of the product). The rules are those of zero-rules.ts. At most
 * MAX_DRIVERS drivers are kept per node (the lowest ids), so the work is
 * bounded on any DAG.
 */
import type { FusionDag } from "../fusion-dag";
import { isScalar, sameShape, shapeOf } from "./node-shapes";
import { isCellwise, isOuterProductLike } from "./operation-classes";
import { cellwiseIsZero, scalarAt, UNKNOWN, ZERO, type AtCell } from "./zero-rules";

const MAX_DRIVERS = 16;

interface DriverFacts {
  /** Per node: computed from an outer-product-like product. */
  readonly belowProduct: Uint8Array;
  /** Per node: the drivers (ascending). */
  readonly drivers: readonly (readonly number[])[];
}

const factsByDag = new WeakMap<FusionDag, DriverFacts>();

/** The matrices wherever whose zeros `node` is zero (itself included when it is not computed from an outer product). */
function zeroDrivers(dag: FusionDag, node: number): readonly number[] {
  let facts = factsByDag.get(dag);
  if (!facts) {
    facts = computeDriverFacts(dag);
    factsByDag.set(dag, facts);
  }
  return facts.drivers[node] ?? [];
}

/** Some matrix drives `node`: an Outer operator ending at it need only visit the driver's non-zeros. */
export function hasDriver(dag: FusionDag, node: number): boolean {
  return zeroDrivers(dag, node).length > 0;
}

function computeDriverFacts(dag: FusionDag): DriverFacts {
  const belowProduct = new Uint8Array(dag.nodes.length);
  const drivers: number[][] = [];
  for (const n of dag.nodes) {
    belowProduct[n.id] = isOuterProductLike(dag, n.id) || n.inputs.some((i) => belowProduct[i] === 1) ? 1 : 0;
    const shape = shapeOf(dag, n.id);
    if (!shape) {
      drivers[n.id] = [];
      continue;
    }
    if (belowProduct[n.id] === 0) {
      drivers[n.id] = [n.id];
      continue;
    }
    if (!isCellwise(dag, n.id)) {
      drivers[n.id] = [];
      continue;
    }
    const candidates = [...new Set(n.inputs.flatMap((i) => drivers[i] ?? []))].filter((d) => sameShape(shapeOf(dag, d), shape)).sort((a, b) => a - b);
    drivers[n.id] = candidates
      .filter((d) => {
        const at = (input: number): AtCell => (isScalar(dag, input) ? scalarAt(dag, input) : drivers[input]!.includes(d) ? ZERO : UNKNOWN);
        return cellwiseIsZero(dag, n.id, at) === true;
      })
      .slice(0, MAX_DRIVERS);
  }
  return { belowProduct, drivers };
}
