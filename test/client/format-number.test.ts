// The shared number formatter (engine/cost/format-number.ts) that the hover,
// the results view, the Variables view and the plan view use.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { formatCount, formatDims, formatFactor, formatSparsity, formatValue } from "../../engine/cost/format-number";

test("counts: digit groups of three, rounded, scientific from 10^12, ? when unknown", () => {
  assert.equal(formatCount(0), "0");
  assert.equal(formatCount(999), "999");
  assert.equal(formatCount(1000), "1,000");
  assert.equal(formatCount(49963), "49,963");
  assert.equal(formatCount(50_000_000), "50,000,000");
  assert.equal(formatCount(49_999.6), "50,000");
  assert.equal(formatCount(-1_234_567), "-1,234,567");
  assert.equal(formatCount(999_999_999_999), "999,999,999,999");
  assert.equal(formatCount(5e12), "5.0e12");
  assert.equal(formatCount(1.26e15), "1.3e15");
  assert.equal(formatCount(null), "?");
  assert.equal(formatCount(undefined), "?");
  assert.equal(formatCount(Number.POSITIVE_INFINITY), "Infinity");
});

test("dims and sparsity", () => {
  assert.equal(formatDims(10000, 5000), "10,000 × 5,000");
  assert.equal(formatDims(null, 20), "? × 20");
  assert.equal(formatSparsity(50_000, 50_000_000), "0.00100");
  assert.equal(formatSparsity(200_000, 200_000), "1.00");
  assert.equal(formatSparsity(5, 0), "?");
  assert.equal(formatSparsity(null, 10), "?");
});

test("values: integers grouped, four significant digits, scientific for tiny and huge", () => {
  assert.equal(formatValue(12), "12");
  assert.equal(formatValue(123456), "123,456");
  assert.equal(formatValue(0.123456), "0.1235");
  assert.equal(formatValue(-2.5), "-2.500");
  assert.equal(formatValue(12345.67), "12,350");
  assert.equal(formatValue(1234.567), "1,235");
  assert.equal(formatValue(0.000125), "1.25e-4");
  assert.equal(formatValue(-3.2e13 - 0.5), "-3.20e13");
  assert.equal(formatValue(Number.NaN), "NaN");
});

test("factors", () => {
  assert.equal(formatFactor(65.4), "65×");
  assert.equal(formatFactor(2.46), "2.5×");
  assert.equal(formatFactor(2000), "2,000×");
});
