import { describe, expect, it } from "vitest";
import type { Usage } from "../../../src/events/schema.js";
import { leftUnsettled, unsettledRecord, UnsettledUsage, usageOfNodes } from "../../../src/engine/unsettled-usage.js";

const u = (calls: number): Usage => ({ promptTokens: 100 * calls, completionTokens: 10 * calls, totalTokens: 110 * calls, calls, cachedTokens: 0 });
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

  it("is counted for a killed run only while the node it belongs to has not completed", () => {
    const none = new Set<string>();
    const text = unsettledRecord(7, { dev: u(2) });
    // No step has completed since dev started at step 7: dev never completed, so its calls count.
    expect(leftUnsettled(text, { steps: 7, pendingNodes: none })).toEqual({ dev: u(2) });
    // A step completed since: dev's own update, with its usage, is in the checkpoint already.
    expect(leftUnsettled(text, { steps: 8, pendingNodes: none })).toBeNull();
    // dev completed and its update waits as pending writes (killed before the step's checkpoint): applied on resume.
    expect(leftUnsettled(text, { steps: 7, pendingNodes: new Set(["dev"]) })).toBeNull();
  });

  it("keeps each parallel story's calls apart: one story finishing settles only its own, and a killed story's calls count", () => {
    const unsettled = new UnsettledUsage();
    unsettled.observe({ type: "usage", node: "dev", story: "add", usage: u(1), ...meta } as never);
    unsettled.observe({ type: "usage", node: "dev", story: "slow", usage: u(2), ...meta } as never);
    unsettled.observe({ type: "node.completed", node: "dev", story: "add", summary: "", ...meta } as never);
    expect(unsettled.peek()).toEqual({ "dev@slow": u(2) });
    // Killed with "add" finished (its update pending) and "slow" not: slow's calls count, add's are in its update.
    const text = unsettledRecord(4, { "dev@add": u(1), "dev@slow": u(2) });
    const saved = { steps: 4, pendingNodes: new Set(["dev"]), pendingStories: new Set(["add"]) };
    expect(leftUnsettled(text, saved)).toEqual({ "dev@slow": u(2) });
    expect(usageOfNodes({ "dev@slow": u(2), "dev@one": u(1), pm: u(1) })).toEqual({ dev: u(3), pm: u(1) });
  });

  it("writes nothing when nothing is unsettled, and ignores what it cannot read", () => {
    const saved = { steps: 1, pendingNodes: new Set<string>() };
    expect(unsettledRecord(1, {})).toBeNull();
    expect(leftUnsettled(null, saved)).toBeNull();
    expect(leftUnsettled("{not json", saved)).toBeNull();
    expect(leftUnsettled(JSON.stringify({ steps: 1 }), saved)).toBeNull();
    expect(leftUnsettled(JSON.stringify({ checkpoint: "cp-1", byNode: { dev: u(1) } }), saved)).toBeNull();
  });
});
