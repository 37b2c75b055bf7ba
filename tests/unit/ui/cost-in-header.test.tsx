import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { Header } from "../../../src/ui/ink/Header.js";
import { initialViewState, reduce } from "../../../src/ui/view-state.js";

const env = { v: 1 as const, thread: "t1", ts: "2026-01-01T12:00:00.000Z" };
const started = (price: { inputPerMillion: number; outputPerMillion: number; currency: string } | null): YoloEvent => ({
  ...env,
  type: "run.started",
  requirement: "Add add()",
  model: "gpt-test",
  resumed: false,
  nodes: ["analyst", "dev"],
  logFile: "/tmp/x.log",
  price,
});
const usage = (promptTokens: number, completionTokens: number): YoloEvent => ({
  ...env,
  type: "usage",
  node: "analyst",
  usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, calls: 1 },
});

describe("cost in the header", () => {
  it("adds up the cost of every call at the configured price", () => {
    const state = [started({ inputPerMillion: 2, outputPerMillion: 8, currency: "USD" }), usage(10_000, 1_000), usage(5_000, 500)].reduce(
      reduce,
      initialViewState,
    );
    // 15,000 prompt tokens at $2/M + 1,500 completion tokens at $8/M = $0.03 + $0.012
    expect(state.cost?.amount).toBeCloseTo(0.042, 10);
    const { lastFrame, unmount } = render(<Header state={state} now={Date.parse(env.ts)} />);
    expect(lastFrame()).toContain("17k tokens · $0.042");
    unmount();
  });

  it("shows no cost without a price: yolo does not guess one", () => {
    const state = [started(null), usage(10_000, 1_000)].reduce(reduce, initialViewState);
    expect(state.cost).toBeNull();
    const { lastFrame, unmount } = render(<Header state={state} now={Date.parse(env.ts)} />);
    expect(lastFrame()).not.toContain("$");
    unmount();
  });
});
