/**
 * Injected into every test bundle (scripts/run-tests.mjs): with
 * DML_LENS_FC_SEED set (.ci/run sets it), property tests draw the same cases
 * on every CI run, so a red CI is reproducible; without it, each local run
 * draws new cases and keeps looking for counterexamples.
 */
import fc from "fast-check";

const seed = process.env.DML_LENS_FC_SEED;
if (seed !== undefined && seed !== "") fc.configureGlobal({ seed: Number(seed) });
