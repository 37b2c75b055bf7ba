import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { base, recordedRun, recordedUntil, widths } from "./ink-fixtures.js";

// Renders the view of these events at 80 columns and waits until the frame shows `ready`.
async function frameOf(events: YoloEvent[], ready: string, props: { verbose?: boolean; rows?: number } = {}) {
  const source = createEventSource();
  for (const e of events) source.push(e);
  const view = render(<App events={source} width={80} {...props} />);
  await vi.waitFor(() => expect(view.lastFrame()).toContain(ready));
  const frame = view.lastFrame()!;
  view.unmount();
  return frame;
}

describe("Ink view of a recorded run", () => {
  it("ends on the whole picture within 80 columns: header, agents in order, gate, what changed, tokens, exit meaning", async () => {
    const frame = await frameOf(recordedRun(), "passed (exit 0)");
    const [header, requirement] = frame.split("\n");
    expect(header).toBe("yolo · k3f9x2ab · gpt-4o-mini · 1m 01s · 12k tokens · fix 1/3");
    expect(requirement).toBe("Add an add(a, b) function to src/add.js that returns the sum of two numbers, wi…");
    expect(frame).toMatch(/✓ analyst\s+Brief: add\(a, b\)/);
    expect(frame).toMatch(/✓ pm\s+PRD with 1 story/);
    expect(frame).toMatch(/– architect\s+skipped/);
    expect(frame).toMatch(/✓ dev\s+Fixed add to return a \+ b/);
    expect(frame).toMatch(/✓ tea\s+All required gates pass/);
    const rows = ["analyst", "pm", "architect", "dev", "tea"].map((id) => frame.indexOf(` ${id} `));
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(frame).toContain("✓ gate test: PASS exit 0 (5 passed, 0 failed) · attempt 2");
    expect(frame).toContain("✔ passed (exit 0) in 1m 01s — the gate passed");
    expect(frame).toContain("files changed (2): src/add.js, test/add.test.js");
    expect(frame).toContain("tokens 12,100 (in 10,500 / out 1,600) in 9 model calls");
    expect(frame).not.toContain("resume:");
    expect(frame).not.toContain("\x1b");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
  });

  it("follows the agents run.started lists, not a fixed pipeline", async () => {
    const [started] = recordedRun();
    const frame = await frameOf(
      [{ ...started, nodes: ["spec", "implement", "security-review"] } as YoloEvent, { ...base, type: "node.started", node: "implement", fixAttempt: 0 }],
      "implement",
    );
    expect(frame).toMatch(/· spec\s+waiting/);
    expect(frame).toMatch(/\S implement\s+running/);
    expect(frame).toMatch(/· security-review\s+waiting/);
    expect(frame).not.toContain("analyst");
  });

  it("shows the running agent's latest text and its tool calls as they happen, nested under its row", async () => {
    const frame = await frameOf(
      recordedUntil((e) => e.type === "usage" && e.node === "dev"),
      "test/add.test.js (+9 −0)",
    );
    const lines = frame.split("\n");
    const dev = lines.findIndex((l) => /dev\s+running/.test(l));
    expect(lines.slice(dev + 1, dev + 4)).toEqual([
      "    ✗ read_file nope.txt: ENOENT: no such file or directory, open 'nope.txt'",
      "    ✓ write_file src/add.js (+3 −0)",
      "    ✓ write_file test/add.test.js (+9 −0)",
    ]);
    expect(lines[dev + 4]).toMatch(/· tea\s+waiting/);
  });

  it("shows a failing gate with its counts and first failing tests, and the agent that blocked the change", async () => {
    const frame = await frameOf(
      recordedUntil((e) => e.type === "node.started" && e.node === "dev" && e.fixAttempt === 1),
      "add handles negatives",
    );
    expect(frame).toContain("✗ gate test: FAIL exit 1 (3 passed, 2 failed)\n    ✗ add adds two numbers\n    ✗ add handles negatives");
    expect(frame).toMatch(/✗ tea\s+Gate test failed: 2 failing tests/);
    expect(frame).toContain("fix 0/3");
    const fixing = await frameOf(
      recordedUntil((e) => e.type === "token" && e.node === "dev"),
      "fix attempt 1",
    );
    expect(fixing).toMatch(/dev\s+running · fix attempt 1/);
    expect(fixing.split("\n")[0]).toMatch(/ · fix 1\/3$/);
  });

  it("truncates long text to the width instead of wrapping it", async () => {
    const [started, ...rest] = recordedRun();
    const events = [
      { ...started, requirement: `Build ${"a very long requirement ".repeat(20)}` } as YoloEvent,
      ...rest.map((e) => (e.type === "node.completed" ? { ...e, summary: `${e.summary} ${"and more detail ".repeat(20)}` } : e)),
    ];
    const frame = await frameOf(events, "passed (exit 0)");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    expect(frame).toContain("…");
    expect(frame.split("\n").filter((l) => l.includes("analyst"))).toHaveLength(1);
  });

  it("keeps the live view shorter than the terminal, giving up tool lines first", async () => {
    const [started] = recordedRun();
    const events: YoloEvent[] = [
      started,
      { ...base, type: "node.started", node: "dev", fixAttempt: 0 },
      { ...base, type: "token", node: "dev", text: "a\nb\nc\n" },
    ];
    for (let i = 0; i < 5; i++) {
      events.push({ ...base, type: "tool.called", node: "dev", tool: "read_file", callId: `c${i}`, args: `{"path":"f${i}.js"}` });
    }
    const tall = await frameOf(events, "f4.js");
    const short = await frameOf(events, "f4.js", { rows: 12 });
    expect(tall.split("\n").length).toBeGreaterThan(12);
    expect(short.split("\n").length).toBeLessThan(12);
    expect(short).toMatch(/dev\s+running/);
  });

  it("coalesces a token flood into few renders and shows only the last lines by default", async () => {
    const source = createEventSource();
    const [started] = recordedRun();
    source.push(started);
    const { lastFrame, frames, unmount } = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(lastFrame()).toContain("analyst"));
    source.push({ ...base, type: "node.started", node: "dev", fixAttempt: 1 });
    const before = frames.length;
    for (let i = 1; i <= 3000; i++) source.push({ ...base, type: "token", node: "dev", text: i % 100 === 0 ? `\nline ${i / 100} ` : "x" });
    await vi.waitFor(() => expect(lastFrame()).toContain("line 30"));
    const frame = lastFrame()!;
    expect(frame).toContain("running · fix attempt 1");
    expect(frame).toContain("line 28");
    expect(frame).not.toContain("line 27");
    expect(frames.length - before).toBeLessThan(20);
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    unmount();
  });

  it("--verbose prints every token to the scrollback above the live view", async () => {
    const [started] = recordedRun();
    const events: YoloEvent[] = [started, { ...base, type: "node.started", node: "dev", fixAttempt: 0 }];
    for (let i = 1; i <= 12; i++) events.push({ ...base, type: "token", node: "dev", text: `step ${i} of the plan\n` });
    events.push({ ...base, type: "node.completed", node: "dev", summary: "planned" });
    const source = createEventSource();
    for (const e of events) source.push(e);
    const view = render(<App events={source} width={80} verbose />);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("planned"));
    // Written above the frame (Ink lifts the frame, writes the lines, puts the frame back), not part of it.
    const written = view.frames.find((f) => f.includes("  step 1 of the plan"));
    expect(written).toBeDefined();
    for (let i = 1; i <= 12; i++) expect(written).toContain(`  step ${i} of the plan`);
    expect(written!.indexOf("▶ dev")).toBeLessThan(written!.indexOf("  step 1 of the plan"));
    expect(view.frames.join("\n").split("  step 12 of the plan")).toHaveLength(2);
    view.unmount();
    const calm = await frameOf(events, "planned");
    expect(calm).not.toContain("step 1 of the plan");
  });

  it("shows how a thread stands when a resume finds nothing left to run (no run.started)", async () => {
    const [last] = recordedRun().slice(-1);
    const frame = await frameOf([last], "passed (exit 0)");
    expect(frame.split("\n")[0]).toContain("yolo · k3f9x2ab");
    expect(frame).toContain("files changed (2): src/add.js, test/add.test.js");
  });

  it("on a resume in a new process, shows what ran before as done and the thread's tokens so far", async () => {
    const [started] = recordedRun();
    const frame = await frameOf(
      [
        {
          ...started,
          resumed: true,
          ran: ["analyst", "pm", "dev"],
          usageSoFar: { promptTokens: 0, completionTokens: 0, totalTokens: 9000, calls: 3 },
        } as YoloEvent,
        { ...base, type: "node.started", node: "tea", fixAttempt: 0 },
      ],
      "tea",
    );
    expect(frame.split("\n")[0]).toContain("yolo (resumed) · k3f9x2ab");
    expect(frame).toContain("9.0k tokens");
    expect(frame).toMatch(/✓ dev\s+ran before this resume/);
    expect(frame).toMatch(/· architect\s+waiting/);
  });
});
