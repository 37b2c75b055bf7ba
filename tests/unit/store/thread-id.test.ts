import { describe, expect, it } from "vitest";
import { isThreadId, newThreadId } from "../../../src/store/thread-id.js";

describe("newThreadId", () => {
  it("makes short, distinct ids of lowercase letters and digits", () => {
    const ids = Array.from({ length: 2000 }, newThreadId);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isThreadId)).toBe(true);
  });

  it("recognises only that shape", () => {
    expect(isThreadId("ABC12345")).toBe(false);
    expect(isThreadId("abc1234")).toBe(false);
    expect(isThreadId("../abc12")).toBe(false);
  });
});
