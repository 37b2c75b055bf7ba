import { describe, expect, it } from "vitest";
import type { Usage } from "../../../src/events/schema.js";
import { leftUnsettled, unsettledRecord, UnsettledUsage } from "../../../src/engine/unsettled-usage.js";

const u = (calls: number): Usage => ({ promptTokens: 100 * calls, completionTokens: 10 * calls, totalTokens: 110 * calls, calls });
const meta = { v: 1 as const, thread: "t", ts: "" };

describe("unsettled usage", () => {
  it("adds a running node's calls and forgets them when the node completes", () => {
    const unsettled = new UnsettledUsage();
    unsettled.observe({ type: "usage", node: "dev", usage: u(1), ...meta } as never);
    unsettled.observe({ type: "usage", node: "dev", usage: u(2), ...meta } as never);
    expect(unsettled.peek()).toEqual({ dev: u(3) });
    unsettled.observe({ type: "node.completed", node: "dev", summary: "", ...meta } as never);
    expect(unsettled.peek()).toEqual({});
  });

  it("is kept for a killed run only while the node it belongs to has not completed", () => {
    const text = unsettledRecord("cp-7", { dev: u(2) });
    // The latest checkpoint is still the one dev started from: dev never completed, so its calls count.
    expect(leftUnsettled(text, "cp-7")).toEqual({ dev: u(2) });
    // A later checkpoint exists: dev completed, its usage is in that checkpoint's state already.
    expect(leftUnsettled(text, "cp-8")).toBeNull();
  });

  it("writes nothing when nothing is unsettled, and ignores what it cannot read", () => {
    expect(unsettledRecord("cp-1", {})).toBeNull();
    expect(unsettledRecord(undefined, { dev: u(1) })).toBeNull();
    expect(leftUnsettled(null, "cp-1")).toBeNull();
    expect(leftUnsettled("{not json", "cp-1")).toBeNull();
    expect(leftUnsettled(JSON.stringify({ checkpoint: "cp-1" }), "cp-1")).toBeNull();
  });
});
