import { describe, expect, it } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { frameHeight, STORY_ROWS } from "../../../src/ui/ink/layout.js";
import { initialViewState, reduce, type ViewState } from "../../../src/ui/view-state.js";

// Interleaved events of three stories whose dev runs share the node name `dev`, as the fan-out emits them.
const env = { v: 1 as const, thread: "t1", ts: "2025-05-01T12:00:00.000Z" };
const usage = (total: number) => ({ promptTokens: total - 1, completionTokens: 1, totalTokens: total, calls: 1 });
const ev = (e: Record<string, unknown>): YoloEvent => yoloEventSchema.parse({ ...env, ...e });

const opening: YoloEvent[] = [
  ev({
    type: "run.started",
    requirement: "Three things",
    model: "m",
    resumed: false,
    nodes: ["analyst", "pm", "architect", "dev", "tea"],
    logFile: "x.log",
    maxFixAttempts: 3,
  }),
  ev({ type: "node.started", node: "pm", fixAttempt: 0 }),
  ev({ type: "tool.called", node: "pm", tool: "read_file", callId: "c1", args: '{"path":"README.md"}' }),
  ev({ type: "node.completed", node: "pm", summary: "PRD with 3 stories", blocked: false }),
  ev({ type: "route", from: "pm", to: "dev", reason: "no architecture needed" }),
];
const story = (id: string, title: string, dependsOn: string[] = []) => ev({ type: "story.started", story: id, title, dependsOn, branch: `yolo/t1/${id}` });
const inStory = (id: string, e: Record<string, unknown>) => ev({ ...e, story: id });

const fanOut: YoloEvent[] = [
  story("s1", "Add a login form"),
  story("s2", "Add a logout button"),
  inStory("s1", { type: "node.started", node: "dev", fixAttempt: 0 }),
  inStory("s2", { type: "node.started", node: "dev", fixAttempt: 0 }),
  // A model reuses call ids: the same id in two stories must not cross over.
  inStory("s1", { type: "tool.called", node: "dev", tool: "write_file", callId: "call_0", args: '{"path":"src/login.js"}' }),
  inStory("s2", { type: "tool.called", node: "dev", tool: "read_file", callId: "call_0", args: '{"path":"src/app.js"}' }),
  inStory("s2", { type: "token", node: "dev", text: "Reading the app…\n" }),
  inStory("s1", { type: "tool.result", node: "dev", tool: "write_file", callId: "call_0", ok: true, summary: "src/login.js (+12 −0)" }),
  inStory("s1", { type: "usage", node: "dev", usage: usage(100) }),
  inStory("s2", { type: "usage", node: "dev", usage: usage(50) }),
  story("s3", "Remember the user", ["s1"]),
];

// Reduces events from the initial state.
const run = (events: YoloEvent[], from: ViewState = initialViewState) => events.reduce(reduce, from);
const byId = (s: ViewState, id: string) => s.stories.find((st) => st.id === id);

describe("view state of stories run in parallel", () => {
  it("keeps each running story's agent and latest tool call apart, in the order the stories started", () => {
    const s = run([...opening, ...fanOut]);
    expect(s.stories.map((st) => [st.id, st.title, st.status, st.agent])).toEqual([
      ["s1", "Add a login form", "running", "dev"],
      ["s2", "Add a logout button", "running", "dev"],
      ["s3", "Remember the user", "running", null],
    ]);
    expect(byId(s, "s1")?.tool).toMatchObject({ tool: "write_file", args: "src/login.js", ok: true, summary: "src/login.js (+12 −0)" });
    expect(byId(s, "s2")?.tool).toMatchObject({ tool: "read_file", args: "src/app.js", ok: null });
    expect([byId(s, "s1")?.tokens, byId(s, "s2")?.tokens]).toEqual([100, 50]);
    expect(s.storyAgent).toBe("dev");
  });

  it("leaves the single-node rows alone: pm's tool calls, no stream or tool list for dev, totals still count", () => {
    const before = run(opening);
    const s = run(fanOut, before);
    expect(s.running).toBe(before.running);
    expect(s.tools).toEqual(before.tools);
    expect(s.stream).toBeNull();
    expect(s.agents.find((a) => a.id === "pm")).toEqual(before.agents.find((a) => a.id === "pm"));
    expect(s.agents.find((a) => a.id === "dev")).toMatchObject({ status: "running", tokens: 150 });
    expect(s.tokens).toBe(150);
  });

  it("keeps dev running until its last story's run ends, then sums the stories up; finished stories collapse to a status", () => {
    const s1Done = run([
      ...opening,
      ...fanOut,
      inStory("s1", { type: "node.completed", node: "dev", summary: "Login form added", blocked: false }),
      ev({
        type: "story.completed",
        story: "s1",
        status: "done",
        filesChanged: ["src/login.js", "test/login.test.js"],
        usage: usage(120),
        summary: "Login form added",
      }),
    ]);
    expect(s1Done.agents.find((a) => a.id === "dev")?.status).toBe("running");
    expect(byId(s1Done, "s1")).toMatchObject({ status: "done", agent: null, filesChanged: 2, tokens: 120, summary: "Login form added" });
    expect(byId(s1Done, "s2")).toMatchObject({ status: "running", agent: "dev" });

    const all = run(
      [
        inStory("s2", { type: "node.completed", node: "dev", summary: "gave up", blocked: true }),
        ev({ type: "story.completed", story: "s2", status: "failed", filesChanged: [], usage: usage(50), summary: "escalated: no logout route" }),
        inStory("s3", { type: "node.started", node: "dev", fixAttempt: 0 }),
        ev({ type: "story.merged", story: "s1", conflicts: ["src/app.js"] }),
      ],
      s1Done,
    );
    expect(all.agents.find((a) => a.id === "dev")?.status).toBe("running");
    const last = run(
      [
        inStory("s3", { type: "node.completed", node: "dev", summary: "Remembered", blocked: false }),
        ev({ type: "story.completed", story: "s3", status: "done", filesChanged: ["src/session.js"], usage: usage(10), summary: "Remembered" }),
      ],
      all,
    );
    expect(byId(all, "s1")).toMatchObject({ status: "merged", conflicts: 1 });
    expect(byId(all, "s2")).toMatchObject({ status: "failed", summary: "escalated: no logout route" });
    expect(last.agents.find((a) => a.id === "dev")).toMatchObject({ status: "blocked", summary: "3 stories: 1 merged, 1 done, 1 failed" });
  });

  it("marks stories still running when the run ends as stopped, and running again when a resume starts them", () => {
    const ended = run([
      ...opening,
      ...fanOut,
      ev({
        type: "run.completed",
        status: "interrupted",
        exitCode: 130,
        reason: "interrupted",
        usage: usage(150),
        filesChanged: [],
        resumeCommand: "yolo resume t1",
      }),
    ]);
    expect(ended.stories.map((st) => st.status)).toEqual(["stopped", "stopped", "stopped"]);
    expect(ended.stories.every((st) => st.agent === null)).toBe(true);
    const resumed = run([{ ...opening[0], resumed: true } as YoloEvent, inStory("s2", { type: "node.started", node: "dev", fixAttempt: 0 })], ended);
    expect(byId(resumed, "s2")).toMatchObject({ status: "running", agent: "dev" });
    expect(byId(resumed, "s1")?.status).toBe("stopped");
  });

  it("cleans a hostile story id and title: escapes and newlines removed, a huge id cut", () => {
    const evil = `s1\x1b[2J\n${"x".repeat(500)}`;
    const s = run([
      ...opening,
      ev({ type: "story.started", story: evil, title: "Title\x1b[31m red\nsecond line", dependsOn: [], branch: "b" }),
      inStory(evil, { type: "node.started", node: "dev", fixAttempt: 0 }),
    ]);
    expect(s.stories).toHaveLength(1);
    const [st] = s.stories;
    expect(st.id).not.toMatch(/[\x00-\x1f]/);
    expect(Array.from(st.id).length).toBeLessThanOrEqual(24);
    expect(st.title).toBe("Title red second line");
    expect(st.agent).toBe("dev");
  });

  it("has no stories for a run without them", () => {
    expect(run(opening).stories).toEqual([]);
  });
});

describe("frame height with stories", () => {
  it("counts one row per story, at most STORY_ROWS", () => {
    const parts = { showQuestion: false, showFinal: false, showStopping: false, inputOpen: false, columns: 80 };
    const before = run(opening);
    const three = run(fanOut, before);
    expect(frameHeight(three, parts) - frameHeight(before, parts)).toBe(3);
    const many = run(
      Array.from({ length: 40 }, (_, i) => story(`x${i}`, `Story ${i}`)),
      before,
    );
    expect(frameHeight(many, parts) - frameHeight(before, parts)).toBe(STORY_ROWS);
  });
});
