// @ts-nocheck — AssemblyScript source (compiled by asc, not by tsc).
/**
 * CSR kernels: rowPtr and colIdx are i32 arrays, values f64; rowPtr holds
 * absolute positions into colIdx/values. Each works on a range of rows.
 */

/** y[r0..r1) = A[r0..r1, :]·x for CSR A. */
export function spmvRows(rowPtr: usize, colIdx: usize, values: usize, x: usize, y: usize, r0: i32, r1: i32): void {
  let start = load<i32>(rowPtr + (<usize>r0 << 2));
  for (let r = r0; r < r1; r++) {
    const end = load<i32>(rowPtr + (<usize>(r + 1) << 2));
    let s0 = 0.0;
    let s1 = 0.0;
    let p = start;
    for (; p + 1 < end; p += 2) {
      const c = colIdx + (<usize>p << 2);
      const v = values + (<usize>p << 3);
      s0 += load<f64>(v) * load<f64>(x + (<usize>load<i32>(c) << 3));
      s1 += load<f64>(v, 8) * load<f64>(x + (<usize>load<i32>(c, 4) << 3));
    }
    if (p < end) s0 += load<f64>(values + (<usize>p << 3)) * load<f64>(x + (<usize>load<i32>(colIdx + (<usize>p << 2)) << 3));
    store<f64>(y + (<usize>r << 3), s0 + s1);
    start = end;
  }
}

/**
 * C[r0..r1, :] = A[r0..r1, :]·B for CSR A and row-major dense B (·×n), C
 * row-major (·×n). Each C row is built in registers, eight columns at a time.
 */
export function spmmRows(rowPtr: usize, colIdx: usize, values: usize, b: usize, c: usize, n: i32, r0: i32, r1: i32): void {
  const rowBytes = <usize>n << 3;
  const n8 = n & ~7;
  const n2 = n & ~1;
  for (let r = r0; r < r1; r++) {
    const start = load<i32>(rowPtr + (<usize>r << 2));
    const end = load<i32>(rowPtr + (<usize>(r + 1) << 2));
    const out = c + <usize>r * rowBytes;
    let j = 0;
    for (; j < n8; j += 8) {
      let a0 = f64x2.splat(0.0);
      let a1 = f64x2.splat(0.0);
      let a2 = f64x2.splat(0.0);
      let a3 = f64x2.splat(0.0);
      const jo = <usize>j << 3;
      for (let p = start; p < end; p++) {
        const v = v128.load64_splat(values + (<usize>p << 3));
        const row = b + <usize>load<i32>(colIdx + (<usize>p << 2)) * rowBytes + jo;
        a0 = f64x2.add(a0, f64x2.mul(v, v128.load(row)));
        a1 = f64x2.add(a1, f64x2.mul(v, v128.load(row, 16)));
        a2 = f64x2.add(a2, f64x2.mul(v, v128.load(row, 32)));
        a3 = f64x2.add(a3, f64x2.mul(v, v128.load(row, 48)));
      }
      v128.store(out + jo, a0);
      v128.store(out + jo, a1, 16);
      v128.store(out + jo, a2, 32);
      v128.store(out + jo, a3, 48);
    }
    for (; j < n2; j += 2) {
      let a0 = f64x2.splat(0.0);
      const jo = <usize>j << 3;
      for (let p = start; p < end; p++) {
        const v = v128.load64_splat(values + (<usize>p << 3));
        a0 = f64x2.add(a0, f64x2.mul(v, v128.load(b + <usize>load<i32>(colIdx + (<usize>p << 2)) * rowBytes + jo)));
      }
      v128.store(out + jo, a0);
    }
    if (j < n) {
      let s = 0.0;
      const jo = <usize>j << 3;
      for (let p = start; p < end; p++) {
        s += load<f64>(values + (<usize>p << 3)) * load<f64>(b + <usize>load<i32>(colIdx + (<usize>p << 2)) * rowBytes + jo);
      }
      store<f64>(out + jo, s);
    }
  }
}
