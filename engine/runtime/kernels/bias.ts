/**
 * SystemDS's bias_add(X, b) and bias_multiply(X, b): X holds N rows of K
 * feature maps of PQ = ncol(X)/K cells each, b is K x 1; map k of every
 * row gets b[k] added (multiplied). Dense arrays in, a new array out; the
 * caller checks that b has one column and K divides ncol(X).
 */
export function biasApply(kind: "add" | "multiply", x: Float64Array, rows: number, cols: number, bias: Float64Array): Float64Array {
  const K = bias.length;
  const PQ = K === 0 ? 0 : cols / K;
  const out = new Float64Array(rows * cols);
  let i = 0;
  for (let n = 0; n < rows; n++)
    for (let k = 0; k < K; k++) {
      const b = bias[k]!;
      if (kind === "add") for (let j = 0; j < PQ; j++, i++) out[i] = x[i]! + b;
      else for (let j = 0; j < PQ; j++, i++) out[i] = x[i]! * b;
    }
  return out;
}
