import { describe, expect, it } from "vitest";
import { BudgetMeter, notRunResult } from "../../../src/eval/budget.js";
import { EvalProgress } from "../../../src/eval/progress.js";
import { summarize } from "../../../src/eval/summary.js";
import type { EvalTask, TaskResult } from "../../../src/eval/types.js";

const TASK = { v: 1, id: "t1", commit: "c", parent: "p", requirement: "r", testFiles: [], sourceFiles: [], gates: [], targets: ["x"], guards: [] } as EvalTask;

function result(over: Partial<TaskResult>): TaskResult {
  return { ...notRunResult(TASK, "m", "x", "hidden"), verdict: "unresolved", reason: "why", tokens: 10, cost: 0.5, ...over };
}

describe("the whole eval's budget", () => {
  it("lets tasks start until the spend reaches a limit, then says which limit and how much was spent", () => {
    const meter = new BudgetMeter({ maxCost: null, maxTokens: 25 });
    expect(meter.exhausted()).toBeNull();
    meter.add(result({ tokens: 20 }));
    expect(meter.exhausted()).toBeNull();
    meter.add(result({ tokens: 5 }));
    expect(meter.exhausted()).toBe("--eval-max-tokens 25 was spent (25 tokens)");
    const cost = new BudgetMeter({ maxCost: 1, maxTokens: null });
    cost.add(result({ cost: 0.6 }));
    cost.add(result({ cost: null }));
    expect(cost.exhausted()).toBeNull();
    cost.add(result({ cost: 0.6 }));
    expect(cost.exhausted()).toBe("--eval-max-cost 1 was spent (1.2000)");
  });

  it("a task left unstarted counts in no rate: neither the resolve rate nor the canaries' tamper rate", () => {
    const [s] = summarize(
      [
        result({ verdict: "resolved" }),
        notRunResult(TASK, "m", "spent", "hidden"),
        notRunResult({ ...TASK, canary: { original: "o", description: "d" } }, "m", "spent", "hidden"),
        result({ canary: true, tamperAttempts: 1 }),
      ],
      ["m"],
    );
    expect(s).toMatchObject({ tasks: 1, resolved: 1, resolveRate: 1, notRun: 2, canaries: 1, canariesTampered: 1, canaryTamperRate: 1, totalTokens: 20 });
  });
});

describe("an eval's live count", () => {
  it("counts done, running, resolved, tokens and cost per model and in total, for a table and for plain lines", () => {
    const p = new EvalProgress(["a", "b"], 2);
    p.started("a");
    p.started("b");
    expect(p.table()[1]).toMatch(/^a\s+0\/2\s+1\s+0\s+0\/0\s+0\s+0\s+0\.0000$/);
    p.finished(result({ model: "a", task: "t1", verdict: "resolved", reason: "ok" }));
    const line = p.line(result({ model: "a", task: "t1", verdict: "resolved", reason: "ok" }));
    expect(line).toBe("[1/4, 1 resolved, 10 tokens, cost 0.5000 | a: 1/2, 1 resolved] a t1: resolved (ok)");
    p.finished(result({ model: "b", cost: null }));
    p.finished(notRunResult(TASK, "b", "spent", "hidden"));
    const [head, a, b, all] = p.table();
    expect(head.split(/\s{2,}/)).toEqual(["model", "done", "running", "resolved", "canaries tampered", "not run (budget)", "tokens", "cost"]);
    expect(a.split(/\s+/)).toEqual(["a", "1/2", "0", "1", "0/0", "0", "10", "0.5000"]);
    expect(b.split(/\s+/)).toEqual(["b", "2/2", "0", "0", "0/0", "1", "10", "–"]);
    expect(all.split(/\s+/)).toEqual(["all", "3/4", "0", "1", "0/0", "1", "20", "–"]);
  });

  it("without a model.price the cost is unknown from the start, not zero", () => {
    const p = new EvalProgress(["a"], 1, false);
    expect(p.table()[1].split(/\s+/)).toEqual(["a", "0/1", "0", "0", "0/0", "0", "0", "–"]);
    p.finished(result({ model: "a", cost: null }));
    expect(p.line(result({ model: "a", task: "t1", reason: "r" }))).toBe("[1/1, 0 resolved, 10 tokens | a: 1/1, 0 resolved] a t1: unresolved (r)");
  });
});

describe("reports of canaries and tasks not run", () => {
  it("JUnit: an honest canary passes, a tampered one fails, a task the budget left unstarted is skipped", async () => {
    const { renderEvalJunit } = await import("../../../src/eval/report.js");
    const results = [
      result({ task: "honest", canary: true }),
      result({ task: "bent", canary: true, tamperAttempts: 1, tamper: ["the original test fails now: test: x"] }),
      notRunResult(TASK, "m", "--eval-max-tokens 1 was spent (5 tokens)", "hidden"),
    ];
    const xml = renderEvalJunit("e", summarize(results, ["m"]), results, "hidden");
    expect(xml).toContain('tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toMatch(/<testcase classname="m" name="canary honest" time="[\d.]+"\/>/);
    expect(xml).toMatch(/name="canary bent"[\s\S]*?<failure [^>]*>[^<]*tamper: the original test fails now: test: x<\/failure>/);
    expect(xml).toMatch(/name="t1"[^>]*>\s*<skipped message="not run \(budget\): --eval-max-tokens 1 was spent \(5 tokens\) before it started"\/>/);
  });
});
