/**
 * V8 settings for a process that compiles blocks and runs generated kernels:
 * the command line (`dml`) and the language server set them when they start.
 *
 * Why: a script's first run spends its time in code V8 has not optimized
 * yet. Every generated kernel starts in the interpreter and waits for
 * TurboFan, which compiles on background threads; on a machine with two
 * cores those threads also compete with the kernels' worker thread. With
 * V8's default inlining budget (920 bytes of bytecode per compilation), the
 * optimizer's large functions (the e-graph's rule application, the cost
 * model) take 20 to 110 ms each to compile, and a kernel's request waits
 * behind them. A budget of 300 keeps those compilations short. Measured
 * with `npx dml bench e2e` (3 alternating suites with and without, medians
 * of the first fused run): l2svm 379 -> 306 ms, kmeans 297 -> 275, mlogreg
 * 621 -> 599, ALS-CG 618 -> 547; the fused kernels' steady speed
 * (`npx dml bench fusion`) within noise. Code whose speed depends on V8
 * inlining a call in a hot loop is slower with the smaller budget: the
 * as-written rowSums called kahanSum per row (kmeans' and mlogreg's rowSums
 * took 1.5-2x as long) and now runs one loop (kahan.ts, kahanSumRanges).
 *
 * --allow-natives-syntax lets the runtime prime a generated kernel before
 * its first large call (kernel-priming.ts): V8 is asked, with its own
 * intrinsics, to optimize the kernel at once instead of running the call
 * in its interpreter while a background compilation waits. It only lets
 * such intrinsics parse; no DML text is ever compiled as JavaScript.
 *
 * The extension host, which runs VS Code's Run Cell worker, is not ours, so
 * it keeps V8's defaults (and kernels run unprimed there).
 * $DML_LENS_JIT_DEFAULTS=1 keeps them here too (to measure the difference).
 */
import { setFlagsFromString } from "node:v8";

/** The flags, in V8's command-line syntax. */
export const JIT_FLAGS: readonly string[] = ["--max-inlined-bytecode-size-cumulative=300", "--allow-natives-syntax"];

/**
 * Sets JIT_FLAGS (call before the work starts: a function TurboFan compiled
 * earlier keeps its code; setting them again changes nothing). Returns the
 * flags it set: none when $DML_LENS_JIT_DEFAULTS=1.
 */
export function applyJitFlags(env: NodeJS.ProcessEnv = process.env, set: (flags: string) => void = setFlagsFromString): readonly string[] {
  if (env["DML_LENS_JIT_DEFAULTS"] === "1") return [];
  for (const flag of JIT_FLAGS) set(flag);
  return JIT_FLAGS;
}
