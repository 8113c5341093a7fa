// @ts-nocheck — AssemblyScript source (compiled by asc, not by tsc).
/**
 * Memory-bound dense kernels over f64 arrays: GEMV, element-wise binary
 * operations and the fused sum(x*y*z). Each works on a range of rows or
 * elements so that threads can split the work. Pointers are byte addresses.
 */

/** y[r0..r1) = A[r0..r1, :]·x for row-major A (·×n). Four rows at a time share each load of x. */
export function gemvRows(a: usize, x: usize, y: usize, n: i32, r0: i32, r1: i32): void {
  const rowBytes = <usize>n << 3;
  const n2 = n & ~1;
  let r = r0;
  for (; r + 4 <= r1; r += 4) {
    const p0 = a + <usize>r * rowBytes;
    const p1 = p0 + rowBytes;
    const p2 = p1 + rowBytes;
    const p3 = p2 + rowBytes;
    let s0 = f64x2.splat(0.0);
    let s1 = f64x2.splat(0.0);
    let s2 = f64x2.splat(0.0);
    let s3 = f64x2.splat(0.0);
    for (let j = 0; j < n2; j += 2) {
      const off = <usize>j << 3;
      const xv = v128.load(x + off);
      s0 = f64x2.add(s0, f64x2.mul(v128.load(p0 + off), xv));
      s1 = f64x2.add(s1, f64x2.mul(v128.load(p1 + off), xv));
      s2 = f64x2.add(s2, f64x2.mul(v128.load(p2 + off), xv));
      s3 = f64x2.add(s3, f64x2.mul(v128.load(p3 + off), xv));
    }
    let t0 = f64x2.extract_lane(s0, 0) + f64x2.extract_lane(s0, 1);
    let t1 = f64x2.extract_lane(s1, 0) + f64x2.extract_lane(s1, 1);
    let t2 = f64x2.extract_lane(s2, 0) + f64x2.extract_lane(s2, 1);
    let t3 = f64x2.extract_lane(s3, 0) + f64x2.extract_lane(s3, 1);
    if (n2 < n) {
      const off = <usize>n2 << 3;
      const xl = load<f64>(x + off);
      t0 += load<f64>(p0 + off) * xl;
      t1 += load<f64>(p1 + off) * xl;
      t2 += load<f64>(p2 + off) * xl;
      t3 += load<f64>(p3 + off) * xl;
    }
    const yo = y + (<usize>r << 3);
    store<f64>(yo, t0);
    store<f64>(yo, t1, 8);
    store<f64>(yo, t2, 16);
    store<f64>(yo, t3, 24);
  }
  for (; r < r1; r++) {
    const p = a + <usize>r * rowBytes;
    let s = f64x2.splat(0.0);
    for (let j = 0; j < n2; j += 2) {
      const off = <usize>j << 3;
      s = f64x2.add(s, f64x2.mul(v128.load(p + off), v128.load(x + off)));
    }
    let t = f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
    if (n2 < n) t += load<f64>(p + (<usize>n2 << 3)) * load<f64>(x + (<usize>n2 << 3));
    store<f64>(y + (<usize>r << 3), t);
  }
}

/** Element-wise out[i] = a[i] op b[i] for i in [i0, i1); op 0 +, 1 -, 2 *, 3 /. */
export function ewBinary(op: i32, a: usize, b: usize, out: usize, i0: i32, i1: i32): void {
  let i = i0;
  const end4 = i1 - 3;
  if (op == 0) {
    for (; i < end4; i += 4) {
      const o = <usize>i << 3;
      v128.store(out + o, f64x2.add(v128.load(a + o), v128.load(b + o)));
      v128.store(out + o, f64x2.add(v128.load(a + o, 16), v128.load(b + o, 16)), 16);
    }
    for (; i < i1; i++) {
      const o = <usize>i << 3;
      store<f64>(out + o, load<f64>(a + o) + load<f64>(b + o));
    }
  } else if (op == 1) {
    for (; i < end4; i += 4) {
      const o = <usize>i << 3;
      v128.store(out + o, f64x2.sub(v128.load(a + o), v128.load(b + o)));
      v128.store(out + o, f64x2.sub(v128.load(a + o, 16), v128.load(b + o, 16)), 16);
    }
    for (; i < i1; i++) {
      const o = <usize>i << 3;
      store<f64>(out + o, load<f64>(a + o) - load<f64>(b + o));
    }
  } else if (op == 2) {
    for (; i < end4; i += 4) {
      const o = <usize>i << 3;
      v128.store(out + o, f64x2.mul(v128.load(a + o), v128.load(b + o)));
      v128.store(out + o, f64x2.mul(v128.load(a + o, 16), v128.load(b + o, 16)), 16);
    }
    for (; i < i1; i++) {
      const o = <usize>i << 3;
      store<f64>(out + o, load<f64>(a + o) * load<f64>(b + o));
    }
  } else {
    for (; i < end4; i += 4) {
      const o = <usize>i << 3;
      v128.store(out + o, f64x2.div(v128.load(a + o), v128.load(b + o)));
      v128.store(out + o, f64x2.div(v128.load(a + o, 16), v128.load(b + o, 16)), 16);
    }
    for (; i < i1; i++) {
      const o = <usize>i << 3;
      store<f64>(out + o, load<f64>(a + o) / load<f64>(b + o));
    }
  }
}

/** sum over i in [i0, i1) of x[i]*y[i]*z[i], fused (no intermediate), four f64x2 accumulators. */
export function sumProduct3(x: usize, y: usize, z: usize, i0: i32, i1: i32): f64 {
  let s0 = f64x2.splat(0.0);
  let s1 = f64x2.splat(0.0);
  let s2 = f64x2.splat(0.0);
  let s3 = f64x2.splat(0.0);
  let i = i0;
  const end8 = i1 - 7;
  for (; i < end8; i += 8) {
    const o = <usize>i << 3;
    s0 = f64x2.add(s0, f64x2.mul(f64x2.mul(v128.load(x + o), v128.load(y + o)), v128.load(z + o)));
    s1 = f64x2.add(s1, f64x2.mul(f64x2.mul(v128.load(x + o, 16), v128.load(y + o, 16)), v128.load(z + o, 16)));
    s2 = f64x2.add(s2, f64x2.mul(f64x2.mul(v128.load(x + o, 32), v128.load(y + o, 32)), v128.load(z + o, 32)));
    s3 = f64x2.add(s3, f64x2.mul(f64x2.mul(v128.load(x + o, 48), v128.load(y + o, 48)), v128.load(z + o, 48)));
  }
  const s = f64x2.add(f64x2.add(s0, s1), f64x2.add(s2, s3));
  let t = f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
  for (; i < i1; i++) {
    const o = <usize>i << 3;
    t += load<f64>(x + o) * load<f64>(y + o) * load<f64>(z + o);
  }
  return t;
}
