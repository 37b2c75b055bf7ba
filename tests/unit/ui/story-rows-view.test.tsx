import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { yoloEventSchema, type YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { widths } from "./ink-fixtures.js";

const env = { v: 1 as const, thread: "k3f9x2ab", ts: "2025-05-01T12:00:30.000Z" };
const usage = (total: number) => ({ promptTokens: total - 10, completionTokens: 10, totalTokens: total, calls: 1 });
const ev = (e: Record<string, unknown>): YoloEvent => yoloEventSchema.parse({ ...env, ...e });
const inStory = (id: string, e: Record<string, unknown>) => ev({ ...e, story: id });
const LONG_TITLE = "Add a login form with remember-me, password reset and a very long title indeed";

// A run fanned out to four stories: two running with interleaved tool calls, one merged, one failed.
const events: YoloEvent[] = [
  ev({
    type: "run.started",
    requirement: "Accounts",
    model: "gpt-4o-mini",
    resumed: false,
    nodes: ["analyst", "pm", "architect", "dev", "tea"],
    logFile: "x.log",
    maxFixAttempts: 3,
  }),
  ev({ type: "node.started", node: "pm", fixAttempt: 0 }),
  ev({ type: "node.completed", node: "pm", summary: "PRD with 4 stories", blocked: false }),
  ev({ type: "route", from: "pm", to: "dev", reason: "no architecture needed" }),
  ...["s1", "s2", "s3", "s4"].map((id, i) =>
    ev({
      type: "story.started",
      story: id,
      title: [LONG_TITLE, "Logout button", "Profile page", "Audit log"][i],
      dependsOn: [],
      branch: `yolo/k3f9x2ab/${id}`,
    }),
  ),
  ...["s1", "s2", "s3", "s4"].map((id) => inStory(id, { type: "node.started", node: "dev", fixAttempt: 0 })),
  inStory("s1", { type: "tool.called", node: "dev", tool: "write_file", callId: "a", args: JSON.stringify({ path: `src/${"deep/".repeat(20)}login.js` }) }),
  inStory("s3", { type: "tool.called", node: "dev", tool: "write_file", callId: "a", args: '{"path":"src/profile.js"}' }),
  inStory("s2", { type: "tool.called", node: "dev", tool: "run_command", callId: "b", args: '{"command":"npm","args":["test"]}' }),
  inStory("s3", { type: "tool.result", node: "dev", tool: "write_file", callId: "a", ok: true, summary: "src/profile.js (+20 −0)" }),
  inStory("s3", { type: "node.completed", node: "dev", summary: "Profile page added", blocked: false }),
  ev({
    type: "story.completed",
    story: "s3",
    status: "done",
    filesChanged: ["src/profile.js", "test/profile.test.js"],
    usage: usage(1500),
    summary: "Profile page added",
  }),
  ev({ type: "story.merged", story: "s3", conflicts: ["src/app.js"] }),
  inStory("s4", { type: "node.completed", node: "dev", summary: "escalated", blocked: true }),
  ev({ type: "story.completed", story: "s4", status: "failed", filesChanged: [], usage: usage(300), summary: "no audit table in the schema" }),
  inStory("s2", { type: "usage", node: "dev", usage: usage(800) }),
];

// Renders the view of these events at 80 columns and waits until the frame shows `ready`.
async function frameOf(list: YoloEvent[], ready: string) {
  const source = createEventSource();
  for (const e of list) source.push(e);
  const view = render(<App events={source} width={80} />);
  await vi.waitFor(() => expect(view.lastFrame()).toContain(ready));
  const frame = view.lastFrame()!;
  view.unmount();
  return frame;
}

describe("Ink view of stories run in parallel", () => {
  it("gives each story one row under dev within 80 columns: agent and latest tool call while running, a status once finished", async () => {
    const frame = await frameOf(events, "Audit log");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    const lines = frame.split("\n");
    const dev = lines.findIndex((l) => /dev\s+running/.test(l));
    expect(dev).toBeGreaterThan(0);
    const rows = lines.slice(dev + 1, dev + 5);
    expect(rows[0]).toMatch(/^ {2}\S s1 {2}Add a login form wit… dev · write_file src\/deep\/deep\/.*…$/);
    expect(rows[1]).toMatch(/^ {2}\S s2 {2}Logout button {9}dev · run_command npm test$/);
    expect(rows[2]).toBe("  ✓ s3  Profile page          merged (1 conflict resolved) · 2 files · 1.5k tok");
    expect(rows[3]).toBe("  ✗ s4  Audit log             failed: no audit table in the schema");
    expect(lines[dev + 5]).toMatch(/· tea\s+waiting/);
    // The pm row is untouched by the stories' events.
    expect(frame).toMatch(/✓ pm\s+PRD with 4 stories/);
    // story.completed repeats usage already counted from the usage events: not counted twice.
    expect(frame).toContain(" · 800 tokens · ");
  });

  it("folds the finished stories into one row when pm planned more stories than the view has rows for", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `s${i + 1}`);
    const many: YoloEvent[] = [
      ...events.slice(0, 4),
      ...ids.map((id) => ev({ type: "story.started", story: id, title: `Story ${id}`, dependsOn: [], branch: `yolo/k3f9x2ab/${id}` })),
      ...ids.flatMap((id, i) =>
        i % 10 === 9
          ? [
              inStory(id, { type: "node.started", node: "dev", fixAttempt: 0 }),
              inStory(id, { type: "tool.called", node: "dev", tool: "read_file", callId: "c", args: `{"path":"${id}.md"}` }),
            ]
          : [
              ev({ type: "story.completed", story: id, status: "done", filesChanged: [], usage: usage(20), summary: "ok" }),
              ev({ type: "story.merged", story: id, conflicts: [] }),
            ],
      ),
    ];
    const frame = await frameOf(many, "more stories");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    const storyLines = frame.split("\n").filter((l) => /^ {2}\S s\d+ /.test(l));
    expect(storyLines).toHaveLength(7);
    // The three at work are all shown, with their tool calls; the merged ones fill the rest, then one summary row.
    for (const id of ["s10", "s20", "s30"]) expect(frame).toMatch(new RegExp(`${id} +Story ${id} +dev · read_file ${id}\\.md`));
    expect(frame).toContain("  + 23 more stories: 23 merged");
  });

  it("shows no story rows and the same agent rows for a run without stories", async () => {
    const plain = events.filter((e) => e.story === undefined && !e.type.startsWith("story."));
    const frame = await frameOf(plain, "PRD with 4 stories");
    expect(frame).not.toMatch(/ s\d {2}/);
    expect(frame).toMatch(/· dev\s+waiting/);
  });
});
