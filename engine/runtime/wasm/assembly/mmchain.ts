// @ts-nocheck — AssemblyScript source (compiled by asc, not by tsc).
/**
 * SystemDS's matrix-multiply chain (MMChain, the Row template's
 * `t(X) %*% (w * (X %*% v))`) over a block of dense rows in one pass: row i
 * of X is read once for its dot product d_i = X_i·v and again, from cache,
 * for acc += s_i X_i, with
 *   mode 0 (XtXv):  s_i = d_i,
 *   mode 1 (XtwXv): s_i = w_i d_i,
 *   mode 2 (XtXvy): s_i = d_i − w_i,
 * and without the dot product, `t(X) %*% w` and `t(X) %*% (w * u)`:
 *   mode 3 (Xtw):   s_i = w_i,
 *   mode 4 (Xtwu):  s_i = w_i u_i.
 * `x` is the block's first row (row-major, n columns), `w` and `u` its
 * rows' w and u values (unused where the mode has none), `acc` n sums
 * updated in place. Two rows share each load and store of `acc`. Pointers
 * are byte addresses.
 */

@inline
function madd(a: v128, b: v128, c: v128): v128 {
  if (RELAXED_SIMD) return f64x2.relaxed_madd(a, b, c);
  return f64x2.add(c, f64x2.mul(a, b));
}

/** X_i·v over n values: two f64x2 sums over four values per step, the odd last value alone. */
@inline
function dot(p: usize, v: usize, n: i32): f64 {
  let s0 = f64x2.splat(0.0);
  let s1 = f64x2.splat(0.0);
  let j = 0;
  for (; j + 4 <= n; j += 4) {
    const o = <usize>j << 3;
    s0 = madd(v128.load(p + o), v128.load(v + o), s0);
    s1 = madd(v128.load(p + o, 16), v128.load(v + o, 16), s1);
  }
  if (j + 2 <= n) {
    const o = <usize>j << 3;
    s0 = madd(v128.load(p + o), v128.load(v + o), s0);
    j += 2;
  }
  const s = f64x2.add(s0, s1);
  let t = f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
  if (j < n) t += load<f64>(p + (<usize>j << 3)) * load<f64>(v + (<usize>j << 3));
  return t;
}

/** s_i of row i (its row at p). */
@inline
function scale(p: usize, v: usize, n: i32, w: usize, u: usize, i: i32, mode: i32): f64 {
  const at = <usize>i << 3;
  if (mode == 3) return load<f64>(w + at);
  if (mode == 4) return load<f64>(w + at) * load<f64>(u + at);
  const d = dot(p, v, n);
  if (mode == 0) return d;
  const wi = load<f64>(w + at);
  return mode == 1 ? wi * d : d - wi;
}

export function mmchainRows(x: usize, n: i32, rows: i32, v: usize, w: usize, u: usize, mode: i32, acc: usize): void {
  const rowBytes = <usize>n << 3;
  const n2 = n & ~1;
  let i = 0;
  for (; i + 2 <= rows; i += 2) {
    const p0 = x + <usize>i * rowBytes;
    const p1 = p0 + rowBytes;
    const a0 = scale(p0, v, n, w, u, i, mode);
    const a1 = scale(p1, v, n, w, u, i + 1, mode);
    const b0 = f64x2.splat(a0);
    const b1 = f64x2.splat(a1);
    for (let j = 0; j < n2; j += 2) {
      const o = <usize>j << 3;
      v128.store(acc + o, madd(v128.load(p1 + o), b1, madd(v128.load(p0 + o), b0, v128.load(acc + o))));
    }
    if (n2 < n) {
      const o = <usize>n2 << 3;
      store<f64>(acc + o, load<f64>(acc + o) + a0 * load<f64>(p0 + o) + a1 * load<f64>(p1 + o));
    }
  }
  if (i < rows) {
    const p0 = x + <usize>i * rowBytes;
    const a0 = scale(p0, v, n, w, u, i, mode);
    const b0 = f64x2.splat(a0);
    for (let j = 0; j < n2; j += 2) {
      const o = <usize>j << 3;
      v128.store(acc + o, madd(v128.load(p0 + o), b0, v128.load(acc + o)));
    }
    if (n2 < n) {
      const o = <usize>n2 << 3;
      store<f64>(acc + o, load<f64>(acc + o) + a0 * load<f64>(p0 + o));
    }
  }
}
