import { describe, expect, it } from "vitest";
import { commitMessage, isSameIteration } from "../../../src/git/commit-message.js";

const it1 = { threadId: "k3f9x2ab", node: "dev", attempt: 1, stories: ["Add numbers"], summary: "wrote add" };

describe("commit messages of dev iterations", () => {
  it("name the thread, the story and the attempt, with the summary and trailers", () => {
    expect(commitMessage(it1)).toBe("yolo(k3f9x2ab): Add numbers (attempt 1)\n\nwrote add\n\nYolo-Thread: k3f9x2ab\nYolo-Node: dev\nYolo-Attempt: 1");
  });

  it("keep the subject within 72 characters and count extra stories", () => {
    const subject = commitMessage({ ...it1, attempt: 3, stories: ["A very long story title ".repeat(5), "Second"] }).split("\n")[0];
    expect(subject.length).toBeLessThanOrEqual(72);
    expect(subject).toMatch(/^yolo\(k3f9x2ab\): A very long story title .*… \(attempt 3\)$/);
    expect(commitMessage({ ...it1, stories: ["One", "Two", "Three"] }).split("\n")[0]).toBe("yolo(k3f9x2ab): One (+2 more stories) (attempt 1)");
    expect(commitMessage({ ...it1, stories: [] }).split("\n")[0]).toBe("yolo(k3f9x2ab): dev (attempt 1)");
  });

  it("recognise the same iteration by its trailers, whatever the summary says", () => {
    const message = commitMessage(it1);
    expect(isSameIteration(message, { ...it1, summary: "something else" })).toBe(true);
    expect(isSameIteration(message, { ...it1, attempt: 2 })).toBe(false);
    expect(isSameIteration(message, { ...it1, threadId: "other000" })).toBe(false);
    expect(isSameIteration("a commit by a person\n", it1)).toBe(false);
  });
});
