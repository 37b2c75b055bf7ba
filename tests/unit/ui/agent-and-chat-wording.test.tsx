import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { base, usage } from "./ink-fixtures.js";

// A chat thread's leg: no gate, one answer. `extra` adds to run.started (a follow-up's message).
function chatLeg(extra: Partial<Extract<YoloEvent, { type: "run.started" }>> = {}): YoloEvent[] {
  return [
    {
      ...base,
      ts: "2025-05-01T12:00:00.000Z",
      type: "run.started",
      requirement: "What is this project?",
      model: "gpt-4o-mini",
      resumed: false,
      nodes: ["chat"],
      logFile: "/tmp/x.log",
      maxFixAttempts: 3,
      mode: "chat",
      ...extra,
    },
    { ...base, type: "node.started", node: "chat", fixAttempt: 0 },
    { ...base, type: "reply", node: "chat", text: "A demo package." },
    { ...base, type: "node.completed", node: "chat", summary: "answered" },
    {
      ...base,
      ts: "2025-05-01T12:00:05.000Z",
      type: "run.completed",
      status: "passed",
      exitCode: 0,
      reason: "completed: chat answered: A demo package.",
      usage,
      filesChanged: [],
      resumeCommand: null,
    },
  ];
}

async function frameOf(events: YoloEvent[], ready: string): Promise<string> {
  const source = createEventSource();
  for (const e of events) source.push(e);
  const view = render(<App events={source} width={80} />);
  await vi.waitFor(() => expect(view.lastFrame()).toContain(ready));
  const frame = view.lastFrame()!;
  view.unmount();
  return frame;
}

function plain(events: YoloEvent[]): string {
  let out = "";
  const r = createPlainRenderer((s) => (out += s));
  for (const e of events) r.onEvent(e);
  return out;
}

describe("an agent or chat thread has no gate", () => {
  it("the live view says it answered, with no fix counter and no gate", async () => {
    const frame = await frameOf(chatLeg(), "exit 0");
    expect(frame).toContain("✔ answered (exit 0) in 5s\n");
    expect(frame).not.toContain("gate");
    expect(frame.split("\n")[0]).not.toContain("fix");
  });

  it("a workflow run keeps its fix counter and 'the gate passed'", async () => {
    const events = chatLeg({ mode: "run" });
    const frame = await frameOf(events, "exit 0");
    expect(frame).toContain("✔ passed (exit 0) in 5s — the gate passed");
    expect(frame.split("\n")[0]).toContain("fix 0/3");
  });

  it("a run that passed with tests already red at its baseline never says 'the gate passed'", async () => {
    const reason = "completed: 0/1 gates passed (1 pre-existing failure: legacy parser keeps dates), verdict PASS";
    const events = chatLeg({ mode: "run" }).map((e) => (e.type === "run.completed" ? { ...e, reason } : e));
    const frame = await frameOf(events, "exit 0");
    // baseline: "report": never a bare "passed" either.
    expect(frame).toContain("✔ passed with 1 pre-existing failure (exit 0) in 5s — no new failures;");
    expect(frame).not.toContain("✔ passed (exit 0)");
    expect(frame).not.toContain("the gate passed");
  });

  it("a follow-up's header shows the new message, not the first question", async () => {
    const frame = await frameOf(chatLeg({ resumed: true, message: "Is there an add function now?" }), "exit 0");
    expect(frame.split("\n")[1]).toBe("Is there an add function now?");
    expect(frame).not.toContain("What is this project?");
  });

  it("the plain renderer says the chat answered, and a follow-up names its message", () => {
    expect(plain(chatLeg())).toMatch(/✔ chat answered \(exit 0\) in 5s: completed: chat answered/);
    expect(plain(chatLeg({ mode: "agent" }))).toMatch(/✔ agent answered \(exit 0\)/);
    const follow = plain(chatLeg({ resumed: true, message: "Is there an add function now?" })).split("\n")[0];
    expect(follow).toContain("· Is there an add function now? ·");
  });
});
