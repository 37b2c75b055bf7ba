import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { initialViewState, reduce, streamLines, TOOL_LIMIT, type ViewState } from "../../../src/ui/view-state.js";

const FIXTURE = new URL("../../fixtures/events/pipeline-run.json", import.meta.url);

// The recorded events of a whole run.
function recordedRun(): YoloEvent[] {
  return (JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown[]).map((e) => yoloEventSchema.parse(e));
}

const env = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:00.000Z" };
const started: YoloEvent = {
  ...env,
  type: "run.started",
  requirement: "Do a thing",
  model: "m",
  resumed: false,
  nodes: ["analyst", "pm", "architect", "dev", "tea"],
  logFile: "x.log",
  maxFixAttempts: 3,
};
const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
const completed = (status: "passed" | "failed" | "waiting" | "interrupted" | "limit", exitCode: number): YoloEvent => ({
  ...env,
  type: "run.completed",
  status,
  exitCode,
  reason: status,
  usage,
  filesChanged: [],
  resumeCommand: status === "passed" || status === "failed" ? null : "yolo resume t1",
});

// Reduces events from the initial state.
function run(events: YoloEvent[], from: ViewState = initialViewState): ViewState {
  return events.reduce(reduce, from);
}

const statuses = (s: ViewState) => Object.fromEntries(s.agents.map((a) => [a.id, a.status]));

describe("view state reducer", () => {
  it("lists agents in the order run.started gives, all waiting, with the header facts", () => {
    const s = run([started]);
    expect(s.agents.map((a) => a.id)).toEqual(["analyst", "pm", "architect", "dev", "tea"]);
    expect(new Set(s.agents.map((a) => a.status))).toEqual(new Set(["waiting"]));
    expect(s).toMatchObject({ thread: "t1", requirement: "Do a thing", model: "m", startedAt: Date.parse(env.ts), maxFixAttempts: 3, fixAttempt: 0 });
    const custom = run([{ ...started, nodes: ["spec", "build", "review"] } as YoloEvent]);
    expect(custom.agents.map((a) => a.id)).toEqual(["spec", "build", "review"]);
  });

  it("replays a whole recorded run to its final state", () => {
    const s = run(recordedRun());
    expect(statuses(s)).toEqual({ analyst: "done", pm: "done", architect: "skipped", dev: "done", tea: "done" });
    expect(s.agents.find((a) => a.id === "dev")?.summary).toBe("Fixed add to return a + b");
    expect(s.tokens).toBe(12_100);
    expect(s.fixAttempt).toBe(1);
    expect(s.gates).toHaveLength(1);
    expect(s.gates[0].gate).toMatchObject({ passed: true, attempt: 2 });
    expect(s.final).toMatchObject({ status: "passed", exitCode: 0, filesChanged: ["src/add.js", "test/add.test.js"] });
    expect(s.endedAt! - s.startedAt!).toBe(61_000);
    expect(s.running).toBeNull();
  });

  it("keeps the latest agent's tool calls only, pairs results with calls, and leaves accepted handoffs out", () => {
    const events = recordedRun();
    const midDev = run(
      events.slice(
        0,
        events.findIndex((e) => e.type === "usage" && e.node === "dev"),
      ),
    );
    expect(midDev.running).toBe("dev");
    expect(midDev.tools.map((t) => [t.tool, t.args, t.ok])).toEqual([
      ["read_file", "nope.txt", false],
      ["write_file", "src/add.js", true],
      ["write_file", "test/add.test.js", true],
    ]);
    let s = run([started, { ...env, type: "node.started", node: "dev", fixAttempt: 0 }]);
    for (let i = 0; i < TOOL_LIMIT + 2; i++) {
      s = reduce(s, { ...env, type: "tool.called", node: "dev", tool: "read_file", callId: `c${i}`, args: `{"path":"f${i}"}` });
    }
    expect(s.tools).toHaveLength(TOOL_LIMIT);
    s = reduce(s, { ...env, type: "tool.called", node: "dev", tool: "handoff", callId: "h", args: "{}" });
    s = reduce(s, { ...env, type: "tool.result", node: "dev", tool: "handoff", callId: "h", ok: true, summary: "handoff accepted" });
    expect(s.tools.map((t) => t.tool)).not.toContain("handoff");
    s = reduce(s, { ...env, type: "tool.result", node: "dev", tool: "handoff", callId: "h2", ok: false, summary: "missing summary" });
    expect(s.tools.at(-1)).toMatchObject({ tool: "handoff", ok: false, summary: "missing summary" });
    s = reduce(s, { ...env, type: "node.started", node: "tea", fixAttempt: 0 });
    expect(s.tools).toEqual([]);
  });

  it("pairs a tool result with its call by id", () => {
    const s = run([started, { ...env, type: "tool.called", node: "dev", tool: "run_command", callId: "a", args: '{"command":"npm","args":["test"]}' }]);
    expect(s.tools).toEqual([{ callId: "a", node: "dev", tool: "run_command", args: "npm test", ok: null, summary: "" }]);
    const done = reduce(s, { ...env, type: "tool.result", node: "dev", tool: "run_command", callId: "a", ok: false, summary: "npm test → exit 1 (2 failed)" });
    expect(done.tools[0]).toMatchObject({ ok: false, summary: "npm test → exit 1 (2 failed)", args: "npm test" });
    expect(s.tools[0].ok).toBeNull();
  });

  it("marks the agents a forward route jumps over as skipped, and an agent that sends work back as blocked", () => {
    const s = run([started, { ...env, type: "route", from: "pm", to: "dev", reason: "no architecture needed" }]);
    expect(statuses(s)).toMatchObject({ architect: "skipped", dev: "waiting" });
    expect(s.route).toEqual({ from: "pm", to: "dev", reason: "no architecture needed" });
    const events = recordedRun();
    const sentBack = run(events.slice(0, events.findIndex((e) => e.type === "route" && e.from === "tea") + 1));
    expect(statuses(sentBack)).toMatchObject({ dev: "done", tea: "blocked" });
    const again = reduce(sentBack, { ...env, type: "node.started", node: "dev", fixAttempt: 1 });
    expect(again.fixAttempt).toBe(1);
    expect(statuses(again)).toMatchObject({ dev: "running", tea: "blocked" });
  });

  it("keeps only the last lines of the running agent's text, and only while it runs", () => {
    let s = run([started, { ...env, type: "node.started", node: "dev", fixAttempt: 0 }]);
    for (let i = 1; i <= 20; i++) s = reduce(s, { ...env, type: "token", node: "dev", text: `line ${i}\n` });
    s = reduce(s, { ...env, type: "token", node: "dev", text: "partial \x1b[1mbold\x1b[0m" });
    expect(streamLines(s)).toEqual(["line 16", "line 17", "line 18", "line 19", "line 20", "partial bold"]);
    expect(streamLines(s, 2)).toEqual(["line 20", "partial bold"]);
    expect(s.stream!.text.length).toBeLessThan(100);
    s = reduce(s, { ...env, type: "node.completed", node: "dev", summary: "ok" });
    expect(streamLines(s)).toEqual([]);
  });

  it("shows the question and marks the asking agent escalated until it runs again", () => {
    let s = run([
      started,
      { ...env, type: "node.started", node: "architect", fixAttempt: 0 },
      { ...env, type: "interrupt", node: "escalate", askedBy: "architect", question: "SQL or NoSQL?", resumeCommand: "yolo resume t1" },
      completed("waiting", 3),
    ]);
    expect(statuses(s).architect).toBe("escalated");
    expect(s.question).toEqual({ askedBy: "architect", question: "SQL or NoSQL?", resumeCommand: "yolo resume t1", kind: "question" });
    s = reduce(s, { ...env, type: "node.started", node: "architect", fixAttempt: 0 });
    expect(statuses(s).architect).toBe("running");
    expect(s.question).toBeNull();
  });

  it("continues the same picture when the thread's next leg starts in the same view", () => {
    const firstLeg = run([
      started,
      { ...env, type: "node.started", node: "analyst", fixAttempt: 0 },
      { ...env, type: "usage", node: "analyst", usage: { ...usage, totalTokens: 100 } },
      { ...env, type: "node.completed", node: "analyst", summary: "asks a human: Floats?" },
      { ...env, type: "interrupt", node: "escalate", askedBy: "analyst", question: "Floats?", resumeCommand: "yolo resume t1" },
      { ...completed("waiting", 3), usage: { ...usage, totalTokens: 100 } } as YoloEvent,
    ]);
    const later = { ...env, ts: "2025-05-01T12:00:30.000Z" };
    const s = run(
      [{ ...started, ...later, resumed: true, ran: ["analyst"] } as YoloEvent, { ...later, type: "node.started", node: "analyst", fixAttempt: 0 }],
      firstLeg,
    );
    expect(s.startedAt).toBe(Date.parse(env.ts));
    expect(s.tokens).toBe(100);
    expect(s.final).toBeNull();
    expect(s.question).toBeNull();
    expect(s.endedAt).toBeNull();
    expect(statuses(s)).toMatchObject({ analyst: "running", pm: "waiting" });
  });

  it("`yolo resume` of a waiting thread: the question alone first (no run.started), then the answered leg fills the picture", () => {
    const waiting = run([
      { ...env, type: "interrupt", node: "escalate", askedBy: "analyst", question: "Floats?", resumeCommand: "yolo resume t1" },
      completed("waiting", 3),
    ]);
    expect(waiting.agents).toEqual([]);
    expect(waiting.thread).toBe("t1");
    expect(waiting.question).toMatchObject({ askedBy: "analyst", question: "Floats?" });
    const later = { ...env, ts: "2025-05-01T12:00:30.000Z" };
    const s = reduce(waiting, { ...started, ...later, resumed: true, ran: ["analyst"] } as YoloEvent);
    expect(statuses(s)).toEqual({ analyst: "done", pm: "waiting", architect: "waiting", dev: "waiting", tea: "waiting" });
    expect(s).toMatchObject({ requirement: "Do a thing", startedAt: Date.parse(later.ts), question: null, final: null });
  });

  it("on a resume in a new process, shows the agents that ran before as done and starts from the thread's tokens", () => {
    const s = run([{ ...started, resumed: true, ran: ["analyst", "pm", "dev"], usageSoFar: { ...usage, totalTokens: 9000 } } as YoloEvent]);
    expect(statuses(s)).toEqual({ analyst: "done", pm: "done", architect: "waiting", dev: "done", tea: "waiting" });
    expect(s.agents[0].summary).toBe("ran before this resume");
    expect(s.tokens).toBe(9000);
    expect(s.resumed).toBe(true);
  });

  it("settles agents by how the run ended: stopped, blocked by red gates, or cut short", () => {
    const devRunning = [started, { ...env, type: "node.started", node: "dev", fixAttempt: 2 } as YoloEvent];
    expect(statuses(run([...devRunning, completed("interrupted", 130)]))).toMatchObject({ dev: "stopped", tea: "waiting" });
    const limited = run([...devRunning, { ...env, type: "error", code: "limit", message: "turns used up" }, completed("limit", 4)]);
    expect(statuses(limited)).toMatchObject({ dev: "blocked", tea: "waiting" });
    expect(limited.notices).toEqual([{ level: "error", text: "limit: turns used up" }]);

    const events = recordedRun();
    const redGate = events.find((e) => e.type === "gate.result" && !e.gate.passed)!;
    const failed = run([
      ...devRunning,
      { ...env, type: "node.completed", node: "dev", summary: "ok" },
      { ...env, type: "node.started", node: "tea", fixAttempt: 0 },
      redGate,
      { ...env, type: "node.completed", node: "tea", summary: "blocked" },
      { ...env, type: "route", from: "tea", to: "end", reason: "no fix attempts left" },
      completed("failed", 1),
    ]);
    expect(statuses(failed)).toMatchObject({ dev: "done", tea: "blocked" });
  });

  it("adds a row for a node the pipeline did not list and never mutates its input", () => {
    const s = run([started]);
    const frozen = JSON.stringify(s);
    const next = reduce(s, { ...env, type: "node.started", node: "reviewer", fixAttempt: 0 });
    expect(next.agents.at(-1)).toMatchObject({ id: "reviewer", status: "running" });
    expect(JSON.stringify(s)).toBe(frozen);
  });
});
