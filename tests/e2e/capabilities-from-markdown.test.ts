import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { call, GOOD_ADD, handoff, teaSays, type Turn } from "../helpers/director.js";
import { roleOf, type RecordedRequest } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { pmStories } from "../helpers/stories.js";

// Two roles added by Markdown files alone: a builder that fans out pm's stories and a judge that judges the gates.
// Neither is a built-in role, and the workflow is the project's own: only the files' `capabilities:` say what they do.
const BUILDER = `---
name: Builder
description: Builds one story at a time.
tools: [read_file, write_file, list_files]
capabilities: [fans-out-stories]
---
You build what your story asks, with its tests.
`;

const JUDGE = `---
name: Judge
description: Judges the gate results.
tools: [read_file]
capabilities: [judges-gates]
---
You judge the change against the gate results.
`;

// The fixture's test script given as the gate: these cases are about roles and a judge from Markdown files, not npm's
// detection, and npm's own start costs about 0.5 s of CPU a gate run. Runs with the detected `npm test`:
// tests/e2e/run-exit-codes.test.ts.
const GATE = ["--test-cmd", "node --test test/"];

const CONFIG = `import { defineConfig } from "yolo";
export default defineConfig({
  workflow: {
    nodes: { pm: { kind: "agent" }, builder: { kind: "agent" }, check: { kind: "gate" }, judge: { kind: "agent" } },
    edges: [
      { from: "start", to: "pm" },
      { from: "pm", to: "builder" },
      { from: "builder", to: "check" },
      { from: "check", to: "judge" },
      { from: "judge", to: "builder", when: "gate_blocked && fix_attempts_remain" },
      { from: "judge", to: "end" },
    ],
  },
});
`;

const MUL = "export function mul(a, b) {\n  return a * b;\n}\n";

// The run a request comes from: `builder:<story>` for a story's run (its brief names it), else the agent.
function runOf(req: RecordedRequest): string {
  const agent = roleOf(req) ?? "unknown";
  const text = req.messages.map((m) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""))).join("\n");
  const story = /## Your story: ([a-z0-9_-]+)/.exec(text);
  return story ? `${agent}:${story[1]}` : agent;
}

function director(script: Record<string, Turn[]>) {
  const log: string[] = [];
  const responder = async (req: RecordedRequest) => {
    const run = runOf(req);
    log.push(run);
    const turn = script[run]?.shift();
    if (!turn) return { status: 400, content: `no scripted turn left for ${run}` };
    return typeof turn === "function" ? turn(req) : turn;
  };
  return Object.assign(responder, { log });
}

describe("capabilities from an agent's Markdown file, through the built binary and the real graph", { timeout: 240_000 }, () => {
  it("a custom builder fans out pm's stories in parallel, and a custom judge's FAIL on green gates sends it back for a fix", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "agents/builder.md": BUILDER, "agents/judge.md": JUDGE, "yolo.config.ts": CONFIG });
    const script = director({
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "mul", title: "Multiply numbers", depends_on: [] },
        ]),
      ],
      "builder:add": [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add written" })],
      "builder:mul": [call("write_file", { path: "src/mul.js", content: MUL }), handoff({ summary: "mul written" })],
      // The fix attempt: one builder run on the merged tree.
      builder: [handoff({ summary: "documented both" })],
      judge: [teaSays("FAIL", ["mul has no documentation"]), teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, script);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--parallel", "2", "Add and multiply"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const events = parseEvents(r.stdout);

    // The builder's node dispatched both stories, each ran in its own worktree as the builder, and both were merged.
    const completed = events.filter((e) => e.type === "story.completed") as Array<{ story: string; status: string; filesChanged: string[] }>;
    expect(Object.fromEntries(completed.map((e) => [e.story, [e.status, e.filesChanged]]))).toEqual({
      add: ["done", ["src/add.js"]],
      mul: ["done", ["src/mul.js"]],
    });
    expect(events.filter((e) => e.type === "story.merged").map((e) => e.story)).toEqual(["add", "mul"]);
    expect(events.filter((e) => e.type === "node.completed" && e.node === "builder").map((e) => (e as { summary: string }).summary)[0]).toBe(
      "2 stories: 2 started, up to 2 at a time",
    );

    // The judge judged: its FAIL blocked although the gate was green, the loop went back to the builder once.
    const judged = events.filter((e) => e.type === "node.completed" && e.node === "judge").map((e) => (e as { summary: string }).summary);
    expect(judged).toEqual(["verdict FAIL, gates 1/1 passed — blocked", "verdict PASS, gates 1/1 passed"]);
    const routes = events.filter((e) => e.type === "route").map((e) => `${(e as { from: string }).from}→${(e as { to: string }).to}`);
    expect(routes).toContain("judge→builder");
    expect(script.log.filter((x) => x === "builder")).toEqual(["builder"]);
    expect(script.log.at(-1)).toBe("judge");
  });

  it("a failed run's reason names the judge from the Markdown file: its verdict, not tea's", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "agents/builder.md": BUILDER, "agents/judge.md": JUDGE, "yolo.config.ts": CONFIG });
    const script = director({
      pm: [pmStories([{ id: "add", title: "Add numbers", depends_on: [] }])],
      builder: [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add written" }), handoff({ summary: "nothing to change" })],
      judge: [teaSays("FAIL", ["add has no documentation"]), teaSays("FAIL", ["still none"])],
    });
    const mock = await mockWith(onTestFinished, script);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--parallel", "1", "--max-fix-attempts", "1", "Add numbers"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    const done = parseEvents(r.stdout).find((e) => e.type === "run.completed") as { reason: string } | undefined;
    expect(done?.reason).toBe("judge verdict FAIL after 1 fix attempt");
  });
});
