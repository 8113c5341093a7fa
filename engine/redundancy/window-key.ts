/**
 * The hash-table key of a window of a multiplication chain (paper section
 * 3.2, step 3): the chain written as its factors' tokens, and the same for
 * its transpose (reversed, each factor's transposition flipped; symmetric
 * matrices stay as they are); the smaller string is the key, so a chain and
 * its transpose share it (`A d` and `d' A'`).
 */
import { factorToken, transposeFactor, type Factor } from "./chain-terms";

export interface WindowKey {
  key: string;
  /** The window as written is the transpose of the key's orientation. */
  transposed: boolean;
}

export function chainString(factors: readonly Factor[]): string {
  return factors.map(factorToken).join(" ");
}

export function windowKey(factors: readonly Factor[]): WindowKey {
  const forward = chainString(factors);
  const backward = chainString([...factors].reverse().map(transposeFactor));
  return backward < forward ? { key: backward, transposed: true } : { key: forward, transposed: false };
}

/** The window equals its own transpose (`X %*% t(X)`, `H %*% t(A) %*% A %*% H` with H symmetric). */
export function isSymmetricChain(factors: readonly Factor[]): boolean {
  return chainString(factors) === chainString([...factors].reverse().map(transposeFactor));
}
