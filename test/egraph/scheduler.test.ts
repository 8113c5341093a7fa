/** The Scheduler interface: the simple scheduler, and a scheduler of one's own driving the runner. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm, rewrite, runRewrites, simpleScheduler, type MatchList, type RuleSearch, type Scheduler } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";
import { fakeSearch } from "./scheduler-fakes";

test("the simple scheduler searches every candidate without a limit and stops at the first unchanged iteration", () => {
  const scheduler = simpleScheduler();
  const rule = fakeSearch(0, 3000);
  assert.equal(scheduler.search(0, rule)!.size, 3000);
  assert.deepEqual(rule.limits, [Infinity]);
  assert.equal(scheduler.canStop(0), true);
});

test("a Scheduler of one's own: the runner asks it for each rule's matches and whether an unchanged iteration is saturation", () => {
  const asked: string[] = [];
  /** Runs rule 1 only from iteration 2 on, and refuses to stop before iteration 3. */
  const late: Scheduler = {
    search(iteration: number, rule: RuleSearch): MatchList | undefined {
      asked.push(`${iteration}:${rule.name}:${rule.candidates.length}`);
      return rule.index === 1 && iteration < 2 ? undefined : rule.matches();
    },
    canStop: (iteration) => iteration >= 3,
  };
  const g = plainGraph();
  g.addTerm(parseTerm("(+ a (* b c))"));
  const rules = [rewrite<null>("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"), rewrite<null>("comm-mul", "(* ?a ?b)", "(* ?b ?a)")];
  const report = runRewrites(g, rules, { scheduler: late });
  assert.deepEqual(
    report.iterations.map((i) => i.applied),
    [{ "comm-add": 1 }, {}, { "comm-mul": 1 }, {}],
  );
  assert.equal(report.stopReason, "saturated");
  assert.deepEqual(asked, ["0:comm-add:1", "0:comm-mul:1", "1:comm-add:1", "1:comm-mul:1", "2:comm-add:1", "2:comm-mul:1", "3:comm-add:1", "3:comm-mul:1"]);
});

test("a variable-rooted rule's candidates are every class", () => {
  let seen = -1;
  const spy: Scheduler = {
    search(_iteration, rule) {
      seen = rule.candidates.length;
      return rule.matches(0);
    },
    canStop: () => true,
  };
  const g = plainGraph();
  g.addTerm(parseTerm("(f (g a) b)"));
  const report = runRewrites(g, [rewrite<null>("wrap", "?x", "(w ?x)")], { scheduler: spy, iterationLimit: 1 });
  assert.equal(seen, 4);
  // The limit 0 stops the search after one match.
  assert.equal(report.applied, 1);
});
