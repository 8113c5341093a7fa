/**
 * Operator precedence of DML as SystemDS's `Dml.g4` defines it; higher binds
 * tighter. The parser and the printer both read it from here.
 */
import type { BinaryOperator, UnaryOperator } from "./ast";

export const Level = {
  Or: 1,
  And: 2,
  Relational: 3,
  Additive: 4,
  Multiplicative: 5,
  Modulus: 6,
  MatrixMultiply: 7,
  /** `^`, right-associative. */
  Power: 8,
  /** A prefix operator as a whole (it may start any operand). */
  Prefix: 9,
  Primary: 10,
} as const;
export type Level = (typeof Level)[keyof typeof Level];

export const binaryLevels: Record<BinaryOperator, Level> = {
  "^": Level.Power,
  "%*%": Level.MatrixMultiply,
  "%/%": Level.Modulus,
  "%%": Level.Modulus,
  "*": Level.Multiplicative,
  "/": Level.Multiplicative,
  "+": Level.Additive,
  "-": Level.Additive,
  ">": Level.Relational,
  ">=": Level.Relational,
  "<": Level.Relational,
  "<=": Level.Relational,
  "==": Level.Relational,
  "!=": Level.Relational,
  "&": Level.And,
  "&&": Level.And,
  "|": Level.Or,
  "||": Level.Or,
};

/** The level at which a prefix operator parses its operand: `-2^2` is `-(2^2)`, `!a == b` is `!(a == b)`. */
export const prefixOperandLevels: Record<UnaryOperator, Level> = {
  "-": Level.Power,
  "+": Level.Power,
  "!": Level.Relational,
};
