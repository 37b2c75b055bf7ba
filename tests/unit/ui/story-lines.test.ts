import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { createJsonRenderer } from "../../../src/ui/json-renderer.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { createTranscript } from "../../../src/ui/transcript.js";

// Two stories' dev runs interleaved, as the fan-out emits them, between the run's own events.
const env = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:40.000Z" };
const ev = (e: Record<string, unknown>): YoloEvent => yoloEventSchema.parse({ ...env, ...e });
const inStory = (id: string, e: Record<string, unknown>) => ev({ ...e, story: id });
const usage = { promptTokens: 1200, completionTokens: 34, totalTokens: 1234, calls: 3 };

const events: YoloEvent[] = [
  ev({ type: "node.started", node: "pm", fixAttempt: 0 }),
  ev({ type: "node.completed", node: "pm", summary: "PRD with 2 stories" }),
  ev({ type: "story.started", story: "s1", title: "Add a login form", dependsOn: [], branch: "yolo/t1/s1" }),
  ev({ type: "story.started", story: "s2", title: "Remember the user", dependsOn: ["s1"], branch: "yolo/t1/s2" }),
  inStory("s1", { type: "node.started", node: "dev", fixAttempt: 0 }),
  inStory("s2", { type: "node.started", node: "dev", fixAttempt: 0 }),
  inStory("s1", { type: "token", node: "dev", text: "Writing the " }),
  inStory("s2", { type: "token", node: "dev", text: "Reading the session code\n" }),
  inStory("s1", { type: "token", node: "dev", text: "form now\n" }),
  // The same call id in both stories (ids come from the model).
  inStory("s1", { type: "tool.called", node: "dev", tool: "read_file", callId: "call_0", args: '{"path":"src/login.js"}' }),
  inStory("s2", { type: "tool.called", node: "dev", tool: "read_file", callId: "call_0", args: '{"path":"src/session.js"}' }),
  inStory("s2", { type: "tool.result", node: "dev", tool: "read_file", callId: "call_0", ok: false, summary: "ENOENT" }),
  inStory("s1", { type: "tool.result", node: "dev", tool: "read_file", callId: "call_0", ok: false, summary: "ENOENT" }),
  inStory("s1", { type: "node.completed", node: "dev", summary: "Login form added" }),
  ev({ type: "story.completed", story: "s1", status: "done", filesChanged: ["src/login.js", "test/login.test.js"], usage, summary: "Login form added" }),
  inStory("s2", { type: "node.completed", node: "dev", summary: "gave up", blocked: true }),
  ev({ type: "story.completed", story: "s2", status: "failed", filesChanged: [], usage, summary: "escalated: no session store" }),
  ev({ type: "story.merged", story: "s1", conflicts: [] }),
  ev({ type: "story.merged", story: "s2", conflicts: ["src/app.js", "src/session.js"] }),
];

describe("plain lines of stories run in parallel", () => {
  beforeEach(() => {
    vi.stubEnv("TZ", "UTC");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("prints the story events and tags every line of a story's dev run with its story", () => {
    let out = "";
    const r = createPlainRenderer((s) => (out += s));
    for (const e of events) r.onEvent(e);
    expect(out.trimEnd().split("\n")).toEqual([
      "12:00:40 ▶ pm",
      "12:00:40 ✔ pm: PRD with 2 stories",
      "12:00:40 ◇ story s1 started: Add a login form · yolo/t1/s1",
      "12:00:40 ◇ story s2 started: Remember the user · yolo/t1/s2 · after s1",
      "12:00:40 [s1] ▶ dev",
      "12:00:40 [s2] ▶ dev",
      "12:00:40 [s1]   read_file src/login.js",
      "12:00:40 [s2]   read_file src/session.js",
      // Each failure names its own story's file, though both calls had the same id.
      "12:00:40 [s2]   ✗ read_file src/session.js: ENOENT",
      "12:00:40 [s1]   ✗ read_file src/login.js: ENOENT",
      "12:00:40 [s1] ✔ dev: Login form added",
      "12:00:40 ✔ story s1 done: Login form added · 2 files · 1,234 tokens",
      "12:00:40 [s2] ✗ dev: gave up",
      "12:00:40 ✗ story s2 failed: escalated: no session store · 0 files · 1,234 tokens",
      "12:00:40 ⇄ story s1 merged",
      "12:00:40 ⇄ story s2 merged, conflicts resolved in src/app.js, src/session.js",
    ]);
  });

  it("cleans a hostile story id and title (escapes, newlines, length) before they reach the log", () => {
    let out = "";
    const r = createPlainRenderer((s) => (out += s));
    const evil = `\x1b]0;pwned\x07s1\n${"x".repeat(300)}`;
    r.onEvent(ev({ type: "story.started", story: evil, title: "Title\x1b[2J\r\nsecond", dependsOn: [evil], branch: "yolo/t1/s1" }));
    r.onEvent(inStory(evil, { type: "node.started", node: "dev", fixAttempt: 0 }));
    expect(out).not.toMatch(/\x1b|\x07|\r/);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^12:00:40 ◇ story s1 x+…x+ started: Title second · yolo\/t1\/s1 · after s1 x+…x+$/);
    expect(lines[1]).toMatch(/^12:00:40 \[s1 x{9}…x{11}\] ▶ dev$/);
  });

  it("keeps each story's streamed text whole in the verbose scrollback, tagged with its story", () => {
    const t = createTranscript();
    const lines = events.flatMap((e) => t.push(e));
    expect(lines.slice(0, 8)).toEqual([
      "▶ pm",
      "✔ pm: PRD with 2 stories",
      "◇ story s1 started: Add a login form · yolo/t1/s1",
      "◇ story s2 started: Remember the user · yolo/t1/s2 · after s1",
      "[s1] ▶ dev",
      "[s2] ▶ dev",
      "  [s2] Reading the session code",
      "  [s1] Writing the form now",
    ]);
    expect(lines).toContain("[s1] ✔ dev: Login form added");
    expect(lines).toContain("  [s2] ✗ read_file ENOENT");
    const end = createTranscript();
    end.push(inStory("s2", { type: "token", node: "dev", text: "half a line" }));
    const usage0 = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
    expect(
      end.push(
        ev({
          type: "run.completed",
          status: "interrupted",
          exitCode: 130,
          reason: "stopped",
          usage: usage0,
          filesChanged: [],
          resumeCommand: "yolo resume t1",
        }),
      ),
    ).toEqual(["  [s2] half a line"]);
  });

  it("--json passes the story of every story event through, and leaves it off the others", () => {
    const written: string[] = [];
    const r = createJsonRenderer((s) => written.push(s));
    for (const e of events) r.onEvent(e);
    const parsed = written.map((l) => yoloEventSchema.parse(JSON.parse(l)));
    expect(parsed).toEqual(events.filter((e) => e.type !== "token"));
    expect(parsed.filter((e) => e.story === "s2").map((e) => e.type)).toEqual([
      "story.started",
      "node.started",
      "tool.called",
      "tool.result",
      "node.completed",
      "story.completed",
      "story.merged",
    ]);
    expect(parsed.slice(0, 2).every((e) => !("story" in e))).toBe(true);
  });
});
