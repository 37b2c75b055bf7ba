import { describe, expect, it } from "vitest";
import { topicVersion } from "../../../src/serve/live.js";
import type { ThreadRow } from "../../../src/store/thread-store.js";

const row = { id: "t1", updatedAt: "2026-11-29T10:00:00.000Z", status: "running", currentNode: "dev", reason: null } as ThreadRow;

describe("what tells an open page that it changed", () => {
  it("a thread's page: a new checkpoint changes it even when the row did not (the row can be written before the step's checkpoint)", () => {
    const before = topicVersion("thread:t1", [row], new Map([["t1", "cp-1"]]));
    expect(topicVersion("thread:t1", [row], new Map([["t1", "cp-2"]]))).not.toBe(before);
    expect(topicVersion("thread:t1", [row], new Map([["t1", "cp-1"]]))).toBe(before);
    expect(topicVersion("thread:t1", [{ ...row, currentNode: "tea" }], new Map([["t1", "cp-1"]]))).not.toBe(before);
  });

  it("the list follows the rows; an unknown thread or topic has no version", () => {
    const list = topicVersion("list", [row], new Map());
    expect(topicVersion("list", [{ ...row, status: "passed" }], new Map())).not.toBe(list);
    expect(topicVersion("thread:gone", [row], new Map([["gone", "cp"]]))).toBe("");
    expect(topicVersion("evals", [row], new Map())).toBe("");
  });
});
