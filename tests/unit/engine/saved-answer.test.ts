import { describe, expect, it } from "vitest";
import { needsModel as positionNeedsModel } from "../../../src/engine/run/input-decision.js";
import { answerWords, positionOf, savedAnswer } from "../../../src/engine/position.js";
import { decideInput } from "../../../src/engine/run/input-decision.js";
import { ThreadError } from "../../../src/errors.js";

const NULL_TASK = "00000000-0000-0000-0000-000000000000";
const approval = { kind: "approval", node: "tea", prompt: "Accept the changed gate?", reviews: null, artifact: "" };
// A checkpoint waiting on tea's approval, as getState and the checkpoint reader show it.
const waiting = { values: {}, next: ["tea"], tasks: [{ name: "tea", interrupts: [{ value: approval }] }], createdAt: "2026-01-01T00:00:00Z" };
const deps = { config: {}, agents: new Map() } as never;
const threads = { get: async () => null };

describe("an answer a killed resume saved (a null-task __resume__ write) makes the thread answered", () => {
  it("savedAnswer takes the first null-task __resume__ write, not a task's own or another channel", () => {
    expect(savedAnswer([["task-1", "__resume__", ["x"]]])).toBeUndefined();
    expect(savedAnswer([[NULL_TASK, "__interrupt__", 1]])).toBeUndefined();
    expect(
      savedAnswer([
        ["task-1", "__resume__", ["x"]],
        [NULL_TASK, "__resume__", { action: "approve" }],
        [NULL_TASK, "__resume__", "later"],
      ]),
    ).toEqual({ answer: { action: "approve" } });
  });

  it("positionOf: waiting without it, answered with it (the question and asker kept)", () => {
    expect(positionOf(waiting)).toMatchObject({ kind: "waiting", node: "tea" });
    expect(positionOf(waiting, { answer: { action: "approve" } })).toMatchObject({
      kind: "answered",
      node: "tea",
      askedBy: "tea",
      question: "Accept the changed gate?",
      answer: { action: "approve" },
    });
  });

  it("decideInput resumes with no input, and refuses a second answer before anything runs", async () => {
    const position = positionOf(waiting, { answer: { action: "reject", reason: "keep it" } });
    expect(await decideInput({ threadId: "t1", deps, threads }, position)).toEqual({ value: null });
    const again = decideInput({ threadId: "t1", deps, threads, resume: { review: { action: "approve" } } }, position);
    await expect(again).rejects.toThrow(ThreadError);
    await expect(again).rejects.toMatchObject({ fact: { kind: "already-answered", thread: "t1", answer: "reject: keep it" } });
  });

  it("needs a model to go on with the saved answer, none to refuse another", () => {
    const position = positionOf(waiting, { answer: "Floats too" });
    expect(positionNeedsModel(position, {})).toBe(true);
    expect(positionNeedsModel(position, { answer: "x" })).toBe(false);
    expect(answerWords("Floats too")).toBe('"Floats too"');
    expect(answerWords({ action: "edit", content: "…" })).toBe("edit");
  });
});
