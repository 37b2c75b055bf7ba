import { describe, expect, it } from "vitest";
import type { EngineDeps } from "../../../../src/engine/deps.js";
import { hasParallelism, nextBatch, parallelOf } from "../../../../src/engine/stories/dispatch.js";
import { storyPlan } from "../../../../src/roles/story-plan.js";

const s = (id: string, depends_on?: string[]) => ({ id, title: id, ...(depends_on ? { depends_on } : {}) });
const deps = (parallel: number, fromFlag = false) => ({ config: { parallel, ...(fromFlag ? { parallelFromFlag: true } : {}) } }) as unknown as EngineDeps;

describe("the story dispatcher's choices", () => {
  it("fans out only when two stories can be built at once (a chain or one story stays with one dev)", () => {
    expect(hasParallelism(storyPlan([s("a"), s("b"), s("c")]))).toBe(false);
    expect(hasParallelism(storyPlan([s("a", [])]))).toBe(false);
    expect(hasParallelism(storyPlan([s("a", []), s("b", ["a"]), s("c", ["b"])]))).toBe(false);
    expect(hasParallelism(storyPlan([s("a", []), s("b", ["a"]), s("c", ["a"])]))).toBe(true);
  });

  it("starts ready stories in story order, up to the free slots; dependants wait until their dependencies are merged", () => {
    const plan = storyPlan([s("a", []), s("b", []), s("c", []), s("d", ["a"])]);
    expect(nextBatch(plan, {}, 2)).toEqual(["a", "b"]);
    expect(nextBatch(plan, { a: { status: "running" } }, 2)).toEqual(["b"]);
    expect(nextBatch(plan, { a: { status: "done" }, b: { status: "merged" }, c: { status: "merged" } }, 3)).toEqual([]);
    expect(nextBatch(plan, { a: { status: "merged" }, b: { status: "merged" }, c: { status: "merged" } }, 3)).toEqual(["d"]);
  });

  it("a resumed thread keeps the parallel it started with unless --parallel is given", () => {
    expect(parallelOf({ storyParallel: 2 }, deps(3))).toBe(2);
    expect(parallelOf({ storyParallel: 2 }, deps(4, true))).toBe(4);
    expect(parallelOf({ storyParallel: null }, deps(3))).toBe(3);
  });
});
