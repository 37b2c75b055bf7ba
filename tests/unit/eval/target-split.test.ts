import { describe, expect, it } from "vitest";
import { passedVisibleFailedHidden, seenTargets, targetSplit } from "../../../src/eval/target-split.js";
import type { EvalTask } from "../../../src/eval/types.js";

// Which targets a task's agents saw decides how a miss reads: a mutant whose run saw one killing test and not the
// others, passing the one and failing the others, was bent to the test it was shown.

const mutant = {
  v: 1,
  id: "mut-1",
  commit: "c".repeat(40),
  parent: "p".repeat(40),
  requirement: "These tests fail",
  testFiles: ["test/b.test.js"],
  sourceFiles: ["src/sign.js"],
  gates: [],
  targets: ["test: a", "test: b1", "test: b2"],
  visibleTargets: ["test: a"],
  guards: [],
  mutation: { kind: "flip", description: "> → <=" },
} as EvalTask;

describe("targets seen and hidden", () => {
  it("a mutant with tests hidden: the seen ones are its visibleTargets; with tests visible, all", () => {
    expect(seenTargets(mutant, "hidden")).toEqual(["test: a"]);
    expect(seenTargets(mutant, "visible")).toEqual(mutant.targets);
  });

  it("a history task with tests hidden saw none, an old mutant (no hidden files) all: neither is split", () => {
    const history = { ...mutant, visibleTargets: undefined, mutation: undefined };
    expect(seenTargets(history, "hidden")).toEqual([]);
    expect(targetSplit(history, "hidden", ["test: a"])).toBeUndefined();
    const old = { ...mutant, visibleTargets: undefined, testFiles: [] };
    expect(seenTargets(old, "hidden")).toEqual(old.targets);
    expect(targetSplit(old, "hidden", [])).toBeUndefined();
  });

  it("the seen target passing and a hidden one failing is 'passed visible, failed hidden'; a seen one failing is not", () => {
    const bent = targetSplit(mutant, "hidden", ["test: b2"]);
    expect(bent).toEqual({ visible: { targets: 1, failing: [] }, hidden: { targets: 2, failing: ["test: b2"] } });
    expect(passedVisibleFailedHidden({ split: bent })).toBe(true);
    expect(passedVisibleFailedHidden({ split: targetSplit(mutant, "hidden", ["test: a", "test: b1"]) })).toBe(false);
    expect(passedVisibleFailedHidden({ split: targetSplit(mutant, "hidden", []) })).toBe(false);
  });
});
