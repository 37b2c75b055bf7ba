import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { createJsonRenderer } from "../../../src/ui/json-renderer.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { initialViewState, reduce } from "../../../src/ui/view-state.js";
import { base, recordedRun } from "./ink-fixtures.js";

// The recorded run up to its first gate, with the gate now starting: what a slow test suite looks like.
function gateRunning(): YoloEvent[] {
  const all = recordedRun();
  const before = all.slice(
    0,
    all.findIndex((e) => e.type === "gate.result"),
  );
  return [...before, { ...base, type: "gate.started", node: "tea", name: "test", command: "npm test", attempt: 1 }];
}

describe("a gate that has started but not finished", () => {
  it("the plain renderer says which gate runs and its command", () => {
    vi.stubEnv("TZ", "UTC");
    let out = "";
    const r = createPlainRenderer((s) => (out += s));
    r.onEvent({ ...base, type: "gate.started", node: "tea", name: "test", command: "npm test", attempt: 1 });
    vi.unstubAllEnvs();
    expect(out).toBe("12:00:30   running gate test: npm test…\n");
  });

  it("--json prints it as emitted", () => {
    let out = "";
    const e: YoloEvent = { ...base, type: "gate.started", node: "tea", name: "test", command: "npm test", attempt: 2 };
    createJsonRenderer((s) => (out += s)).onEvent(e);
    expect(JSON.parse(out)).toEqual(e);
  });

  it("the view state knows the running gate until its result", () => {
    const events = gateRunning();
    const running = events.reduce(reduce, initialViewState);
    expect(running.gateRunning).toEqual({ node: "tea", name: "test", command: "npm test" });
    const result = recordedRun().find((e) => e.type === "gate.result")!;
    expect(reduce(running, result).gateRunning).toBeNull();
  });

  it("the live view's running row says which command runs, then goes back to 'running'", async () => {
    const source = createEventSource();
    for (const e of gateRunning()) source.push(e);
    const view = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(view.lastFrame()).toMatch(/tea\s+running npm test$/m));
    source.push(recordedRun().find((e) => e.type === "gate.result")!);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("gate test: FAIL"));
    expect(view.lastFrame()).toMatch(/tea\s+running$/m);
    view.unmount();
  });
});
