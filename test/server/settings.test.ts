// Server settings (server/src/settings.ts): validation of what the client
// sends, and the settings package.json contributes to VS Code, which must be
// exactly the server's (same names, defaults and choices).
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { DEFAULT_SETTINGS, mergeSettings } from "../../server/src/settings";
import { repoRoot } from "../repo-root";

test("valid fields apply, invalid ones keep the old value and are reported, unknown ones are reported", () => {
  const { settings, problems } = mergeSettings(DEFAULT_SETTINGS, { costUnit: "flops", extraction: "simplex", budgetMs: 0, sizeAssumptionsFile: "big.json", colour: "blue" });
  assert.equal(settings.costUnit, "flops");
  assert.equal(settings.extraction, "greedy");
  assert.equal(settings.budgetMs, 200);
  assert.equal(settings.sizeAssumptionsFile, "big.json");
  assert.deepEqual(problems, [
    'dmlLens.optimizer.extraction must be one of "greedy", "ilp", not "simplex"; keeping "greedy"',
    "dmlLens.optimizer.budgetMs must be a positive number of milliseconds, not 0; keeping 200",
    "unknown setting dmlLens.optimizer.colour",
  ]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, "fast").problems, ["dmlLens.optimizer must be an object"]);
  assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, undefined).settings, DEFAULT_SETTINGS);
});

test("package.json contributes exactly the server's settings, with its defaults, each described", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default: unknown; description: string; enum?: string[] }> } };
  };
  const properties = manifest.contributes.configuration.properties;
  const prefix = "dmlLens.optimizer.";
  assert.deepEqual(Object.keys(properties).map((k) => k.slice(prefix.length)).sort(), Object.keys(DEFAULT_SETTINGS).sort());
  for (const [key, spec] of Object.entries(properties)) {
    const name = key.slice(prefix.length) as keyof typeof DEFAULT_SETTINGS;
    assert.deepEqual(spec.default, DEFAULT_SETTINGS[name], key);
    assert.ok(spec.description.length > 20, `${key} has a description`);
    // Every choice the manifest offers is one the server accepts, and the other way round.
    for (const choice of spec.enum ?? []) assert.deepEqual(mergeSettings(DEFAULT_SETTINGS, { [name]: choice }).problems, [], `${key}: ${choice}`);
    if (spec.enum) assert.equal(mergeSettings(DEFAULT_SETTINGS, { [name]: "no-such-choice" }).problems.length, 1);
  }
});
