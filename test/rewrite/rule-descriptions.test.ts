// Every rule the optimizer can apply has a short description for `dml prove`
// (rule-descriptions.ts), and no description is left over from a rule that
// is gone.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { optimizerRuleSpecs } from "../../engine/rewrite";
import { describedRules, ruleDescription } from "../../engine/rewrite/rule-descriptions";
import { liftingRuleSpecs } from "../../engine/rewrite/rules";

/** Unions that are not rule applications: congruence (the e-graph), constant folding (the analysis), the seeds. */
const OTHER_REASONS = ["congruence", "constant folding", "chain order (variable elimination)", "sum-product normal form", "sum-product normal form, common factor"];

const ruleNames = [...new Set([...optimizerRuleSpecs(), ...liftingRuleSpecs()].map((r) => r.name))];

test("every rule of the rule sets has a description", () => {
  assert.ok(ruleNames.length > 60, `only ${ruleNames.length} rules found`);
  const missing = ruleNames.filter((name) => ruleDescription(name) === undefined);
  assert.deepEqual(missing, []);
});

test("descriptions are short phrases, and each one is of a rule or a known reason for a union", () => {
  const known = new Set([...ruleNames, ...OTHER_REASONS]);
  assert.deepEqual(describedRules().filter((name) => !known.has(name)), []);
  for (const name of describedRules()) {
    const text = ruleDescription(name)!;
    assert.ok(text.length > 5 && text.length <= 70, `${name}: '${text}'`);
    assert.doesNotMatch(text, /\[|\]|\n/, `${name}: brackets or line breaks would break the derivation lines`);
  }
});

test("names that are not rules have no description (also not Object's own properties)", () => {
  assert.equal(ruleDescription("no-such-rule"), undefined);
  assert.equal(ruleDescription("toString"), undefined);
  assert.equal(ruleDescription("sum-of-add"), "sum distributes over +");
});
