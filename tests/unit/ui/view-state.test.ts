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
};
const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };

// Reduces events from the initial state.
function run(events: YoloEvent[], from: ViewState = initialViewState): ViewState {
  return events.reduce(reduce, from);
}

const statuses = (s: ViewState) => Object.fromEntries(s.agents.map((a) => [a.id, a.status]));

describe("view state reducer", () => {
  it("lists agents in pipeline order, all waiting, with the header facts", () => {
    const s = run([started]);
    expect(s.agents.map((a) => a.id)).toEqual(["analyst", "pm", "architect", "dev", "tea"]);
    expect(new Set(s.agents.map((a) => a.status))).toEqual(new Set(["waiting"]));
    expect(s).toMatchObject({ thread: "t1", requirement: "Do a thing", model: "m", startedAt: Date.parse(env.ts) });
  });

  it("replays a whole recorded run to its final state", () => {
    const s = run(recordedRun());
    expect(statuses(s)).toEqual({ analyst: "done", pm: "done", architect: "skipped", dev: "done", tea: "done" });
    expect(s.agents.find((a) => a.id === "dev")?.summary).toBe("Fixed add to return a + b");
    expect(s.tokens).toBe(12_100);
    expect(s.tools).toHaveLength(TOOL_LIMIT);
    expect(s.tools.at(-1)).toMatchObject({ tool: "edit_file", args: "src/add.js", ok: true, summary: "src/add.js (+1 −1)" });
    expect(s.tools.find((t) => t.callId === "call_2")).toMatchObject({ ok: false, args: "nope.txt" });
    expect(s.gates).toHaveLength(1);
    expect(s.gates[0].gate).toMatchObject({ passed: true, attempt: 2 });
    expect(s.final).toMatchObject({ status: "passed", exitCode: 0, filesChanged: ["src/add.js", "test/add.test.js"] });
    expect(s.endedAt! - s.startedAt!).toBe(61_000);
    expect(s.running).toBeNull();
  });

  it("marks the agents a forward route jumps over as skipped", () => {
    const s = run([started, { ...env, type: "route", from: "pm", to: "dev", reason: "no architecture needed" }]);
    expect(statuses(s)).toMatchObject({ architect: "skipped", dev: "waiting" });
    expect(s.route).toEqual({ from: "pm", to: "dev", reason: "no architecture needed" });
    const back = run([{ ...env, type: "route", from: "tea", to: "dev", reason: "fix" }], s);
    expect(statuses(back)).toEqual(statuses(s));
  });

  it("keeps only the last lines of the running agent's text, and only while it runs", () => {
    let s = run([started, { ...env, type: "node.started", node: "dev", fixAttempt: 0 }]);
    for (let i = 1; i <= 20; i++) s = reduce(s, { ...env, type: "token", node: "dev", text: `line ${i}\n` });
    s = reduce(s, { ...env, type: "token", node: "dev", text: "partial \x1b[1mbold\x1b[0m" });
    expect(streamLines(s)).toEqual(["line 16", "line 17", "line 18", "line 19", "line 20", "partial bold"]);
    expect(s.stream!.text.length).toBeLessThan(100);
    s = reduce(s, { ...env, type: "node.completed", node: "dev", summary: "ok" });
    expect(streamLines(s)).toEqual([]);
  });

  it("pairs tool results with their calls by id", () => {
    const s = run([
      started,
      { ...env, type: "tool.called", node: "dev", tool: "run_command", callId: "a", args: '{"command":"npm","args":["test"]}' },
    ]);
    expect(s.tools).toEqual([{ callId: "a", node: "dev", tool: "run_command", args: "npm test", ok: null, summary: "" }]);
    const done = reduce(s, { ...env, type: "tool.result", node: "dev", tool: "run_command", callId: "a", ok: false, summary: "exit 1" });
    expect(done.tools[0]).toMatchObject({ ok: false, summary: "exit 1", args: "npm test" });
    expect(s.tools[0].ok).toBeNull();
  });

  it("shows the question and marks the asking agent escalated until it runs again", () => {
    let s = run([
      started,
      { ...env, type: "node.started", node: "architect", fixAttempt: 0 },
      { ...env, type: "interrupt", node: "escalate", askedBy: "architect", question: "SQL or NoSQL?", resumeCommand: "yolo resume t1" },
      {
        ...env,
        type: "run.completed",
        status: "waiting",
        exitCode: 3,
        reason: "asked",
        usage,
        filesChanged: [],
        resumeCommand: "yolo resume t1",
      },
    ]);
    expect(statuses(s).architect).toBe("escalated");
    expect(s.question).toEqual({ askedBy: "architect", question: "SQL or NoSQL?", resumeCommand: "yolo resume t1" });
    s = reduce(s, { ...env, type: "node.started", node: "architect", fixAttempt: 0 });
    expect(statuses(s).architect).toBe("running");
    expect(s.question).toBeNull();
  });

  it("marks the agent that was running as blocked when the run stops short", () => {
    const s = run([
      started,
      { ...env, type: "node.started", node: "dev", fixAttempt: 2 },
      { ...env, type: "error", code: "limit", message: "fix attempts exhausted" },
      { ...env, type: "run.completed", status: "limit", exitCode: 4, reason: "limit", usage, filesChanged: [], resumeCommand: "yolo resume t1" },
    ]);
    expect(statuses(s)).toMatchObject({ dev: "blocked", tea: "waiting" });
    expect(s.notices).toEqual([{ level: "error", text: "limit: fix attempts exhausted" }]);
  });

  it("adds a row for a node the pipeline did not list and never mutates its input", () => {
    const s = run([started]);
    const frozen = JSON.stringify(s);
    const next = reduce(s, { ...env, type: "node.started", node: "reviewer", fixAttempt: 0 });
    expect(next.agents.at(-1)).toMatchObject({ id: "reviewer", status: "running" });
    expect(JSON.stringify(s)).toBe(frozen);
  });
});
