import { Console } from "node:console";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { render } from "ink-testing-library";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { createInkRenderer } from "../../../src/ui/ink-renderer.js";

// Ink decides at import time (is-in-ci) to draw only the final frame when CI is set, as it is in our CI.
// The view is only ever chosen with CI unset, so test it that way; hoisted to run before Ink is imported.
const savedCi = vi.hoisted(() => {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  return saved;
});
afterAll(() => {
  for (const [key, value] of Object.entries(savedCi)) if (value !== undefined) process.env[key] = value;
});

const FIXTURE = new URL("../../fixtures/events/pipeline-run.json", import.meta.url);

// The recorded events of a whole run.
function recordedRun(): YoloEvent[] {
  return (JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown[]).map((e) => yoloEventSchema.parse(e));
}

// A stand-in terminal for createInkRenderer that records everything written to it.
function fakeStdout(columns = 80) {
  const out = Object.assign(new EventEmitter(), {
    columns,
    rows: 40,
    isTTY: false,
    text: "",
    write(chunk: string) {
      out.text += chunk;
      return true;
    },
  });
  return out;
}

const widths = (frame: string) => frame.split("\n").map((l) => Array.from(l).length);

describe("Ink view", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("renders a whole recorded run: agents, tools, gate and final status within 80 columns", async () => {
    const source = createEventSource();
    for (const e of recordedRun()) source.push(e);
    const { lastFrame, unmount } = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(lastFrame()).toContain("passed (exit 0)"));
    const frame = lastFrame()!;

    expect(frame).toContain("k3f9x2ab");
    expect(frame).toContain("gpt-4o-mini");
    expect(frame).toContain("1m 01s");
    expect(frame).toMatch(/✓ analyst\s+Brief: add\(a, b\)/);
    expect(frame).toMatch(/✓ pm\s+PRD with 1 story/);
    expect(frame).toMatch(/– architect\s+skipped/);
    expect(frame).toMatch(/✓ dev\s+Fixed add to return a \+ b/);
    expect(frame).toMatch(/✓ tea\s+All required gates pass/);
    const rows = ["analyst", "pm", "architect", "dev", "tea"].map((id) => frame.indexOf(` ${id} `));
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(frame).toContain("✓ edit_file src/add.js (+1 −1)");
    expect(frame).toContain("✗ read_file nope.txt: ENOENT");
    expect(frame).toContain("gate test: PASS exit 0 (5 passed, 0 failed) · attempt 2");
    expect(frame).toContain("files changed (2): src/add.js, test/add.test.js");
    expect(frame).not.toContain("\x1b");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    unmount();
  });

  it("truncates long text to the width instead of wrapping it", async () => {
    const source = createEventSource();
    const [started, ...rest] = recordedRun();
    source.push({ ...started, type: "run.started", requirement: `Build ${"a very long requirement ".repeat(20)}` } as YoloEvent);
    for (const e of rest) {
      if (e.type === "node.completed") source.push({ ...e, summary: `${e.summary} ${"and more detail ".repeat(20)}` });
      else source.push(e);
    }
    const { lastFrame, unmount } = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(lastFrame()).toContain("passed (exit 0)"));
    const frame = lastFrame()!;
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    expect(frame).toContain("…");
    expect(frame.split("\n").filter((l) => l.includes("analyst"))).toHaveLength(1);
    unmount();
  });

  it("shows the running agent's latest text and coalesces a token flood into few renders", async () => {
    const source = createEventSource();
    const [started] = recordedRun();
    source.push(started);
    const { lastFrame, frames, unmount } = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(lastFrame()).toContain("analyst"));
    source.push({ ...started, type: "node.started", node: "dev", fixAttempt: 1 } as YoloEvent);
    const before = frames.length;
    for (let i = 1; i <= 3000; i++) {
      source.push({ ...started, type: "token", node: "dev", text: i % 100 === 0 ? `\nline ${i / 100} ` : "x" } as YoloEvent);
    }
    await vi.waitFor(() => expect(lastFrame()).toContain("line 30"));
    const frame = lastFrame()!;
    expect(frame).toContain("running · fix attempt 1");
    expect(frame).not.toContain("line 24");
    expect(frame).toContain("line 25");
    expect(frames.length - before).toBeLessThan(20);
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    unmount();
  });

  it("shows an escalated question with the command that answers it", async () => {
    const source = createEventSource();
    const [started] = recordedRun();
    const base = { v: 1 as const, thread: started.thread, ts: "2025-05-01T12:00:30.000Z" };
    source.push(started);
    source.push({ ...base, type: "node.started", node: "architect", fixAttempt: 0 });
    source.push({
      ...base,
      type: "interrupt",
      node: "escalate",
      askedBy: "architect",
      question: "Should add() accept strings?",
      resumeCommand: "yolo resume k3f9x2ab --answer <text>",
    });
    source.push({
      ...base,
      type: "run.completed",
      status: "waiting",
      exitCode: 3,
      reason: "architect asked a question",
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, calls: 1 },
      filesChanged: [],
      resumeCommand: "yolo resume k3f9x2ab --answer <text>",
    });
    const { lastFrame, unmount } = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(lastFrame()).toContain("waiting (exit 3)"));
    const frame = lastFrame()!;
    expect(frame).toMatch(/\? architect\s+asked a question/);
    expect(frame).toContain("? architect asks:");
    expect(frame).toContain("Should add() accept strings?");
    expect(frame.match(/yolo resume k3f9x2ab --answer <text>/g)).toHaveLength(1);
    unmount();
  });

  // Ink patches the console through `console.Console`, which vitest's console replacement lacks.
  function withConsoleClass() {
    const c = console as { Console?: unknown };
    const had = "Console" in c;
    if (!had) c.Console = Console;
    return () => {
      if (!had) delete c.Console;
    };
  }

  it("createInkRenderer draws the final frame and close() resolves once Ink has exited", async () => {
    const restore = withConsoleClass();
    const stdout = fakeStdout();
    try {
      const renderer = await createInkRenderer({ stdout: stdout as unknown as NodeJS.WriteStream });
      for (const e of recordedRun()) renderer.onEvent(e);
      await renderer.close();
    } finally {
      restore();
    }
    expect(stdout.text).toContain("passed (exit 0)");
    expect(stdout.text).toContain("gate test: PASS");
  });

  it("createInkRenderer exits on close() even when the run never completed", async () => {
    const restore = withConsoleClass();
    const stdout = fakeStdout();
    try {
      const renderer = await createInkRenderer({ stdout: stdout as unknown as NodeJS.WriteStream });
      for (const e of recordedRun().filter((e) => e.type !== "run.completed")) renderer.onEvent(e);
      await renderer.close();
    } finally {
      restore();
    }
    expect(stdout.text).toContain("All required gates pass");
  });
});
