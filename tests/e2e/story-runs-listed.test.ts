import { describe, expect, it, onTestFinished } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { buildWorkflowGraph } from "../../src/engine/graph.js";
import { inertDeps, threadConfig } from "../../src/engine/inspect.js";
import { openSession } from "../../src/engine/session.js";
import type { Story } from "../../src/state/pipeline.js";
import type { StoryRun } from "../../src/state/story-runs.js";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { readThread, runEngine } from "../helpers/engine.js";
import { mockWith, project } from "../helpers/per-test.js";
import { findAll, parseXml } from "../helpers/xml.js";

const usage = (prompt: number, completion: number, calls: number) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
  calls,
});
const story = (id: string, title: string, depends_on: string[]): Story => ({
  id,
  depends_on,
  title,
  as_a: "user",
  i_want: title.toLowerCase(),
  so_that: "it works",
  acceptance_criteria: [`${title} works`],
});
const run = (id: string, over: Partial<StoryRun>): StoryRun => ({
  id,
  title: "",
  dependsOn: [],
  status: "pending",
  branch: `yolo/t/${id}`,
  worktree: null,
  filesChanged: [],
  usage: usage(0, 0, 0),
  summary: null,
  conflicts: [],
  ...over,
});

// A real thread (the engine against the scripted model), then the story runs the fan-out writes, stored through
// the compiled graph's own reducer and checkpointer as a dev node's update: what `threads`, `show` and `report` read.
async function threadWithStories(root: string, threadId: string, runs: StoryRun[] | null) {
  const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
  const done = await runEngine({ root, baseURL: mock.url, threadId, requirement: "Accounts: login, logout, audit" });
  expect(done.result.exitCode).toBe(0);
  if (!runs) return;
  const config = resolveConfig({ root, fileConfig: {}, file: null, env: {} });
  const session = await openSession(config);
  try {
    const graph = buildWorkflowGraph(inertDeps(await threadConfig(config, session, threadId)), session.checkpointer);
    const cfg = { configurable: { thread_id: threadId } };
    const stories = [story("login", "Add a login form", []), story("logout", "Add a logout button", []), story("audit", "Audit | log", ["login"])];
    // Two updates, as the fan-out writes them: each carries only the stories it changes.
    await graph.updateState(cfg, { stories, storyRuns: Object.fromEntries(runs.map((r) => [r.id, { ...r, status: "running", filesChanged: [] }])) }, "dev");
    await graph.updateState(
      cfg,
      {
        storyRuns: Object.fromEntries(
          runs.map((r) => [r.id, { id: r.id, status: r.status, filesChanged: r.filesChanged, usage: r.usage, summary: r.summary, conflicts: r.conflicts }]),
        ),
      },
      "dev",
    );
  } finally {
    await session.close();
  }
}

// Stored out of story order on purpose: the listings follow pm's order (login, logout, audit).
const RUNS: StoryRun[] = [
  run("audit", { title: "Audit | log", dependsOn: ["login"], status: "failed", usage: usage(300, 20, 2), summary: "escalated: no audit table\nin the schema" }),
  run("login", {
    title: "Add a login form",
    status: "merged",
    filesChanged: ["src/login.js", "test/login.test.js"],
    usage: usage(1200, 34, 3),
    summary: "Login form added",
    conflicts: ["src/app.js"],
  }),
  run("logout", { title: "Add a logout button", status: "running", usage: usage(500, 10, 1) }),
];

describe("yolo threads, show and report list a thread's stories run in parallel", { timeout: 240_000 }, () => {
  it("lists each story with its state, files and usage, in story order, from the thread's checkpoint", async () => {
    const root = project(onTestFinished);
    await threadWithStories(root, "stories1", RUNS);
    const { values } = await readThread(root, "stories1");
    expect(Object.keys(values.storyRuns).sort()).toEqual(["audit", "login", "logout"]);
    expect(values.storyRuns.login).toMatchObject({ title: "Add a login form", status: "merged", branch: "yolo/t/login" });

    const threads = await runYolo(["threads"], { cwd: root });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    const lines = threads.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^THREAD +MODE +STATUS/);
    expect(lines[1]).toMatch(/^stories1 +run +passed/);
    expect(lines.slice(2)).toEqual([
      "  3 stories: 1 merged, 1 running, 1 failed",
      "    login   merged   2 files  1,234 tokens in 3 calls  Add a login form",
      "    logout  running  0 files  510 tokens in 1 call     Add a logout button",
      "    audit   failed   0 files  320 tokens in 2 calls    Audit | log",
    ]);
    const threadsJson = await runYolo(["threads", "--json"], { cwd: root });
    const [row] = JSON.parse(threadsJson.stdout);
    expect(row.stories.map((s: StoryRun) => [s.id, s.status, s.filesChanged.length, s.usage.totalTokens])).toEqual([
      ["login", "merged", 2, 1234],
      ["logout", "running", 0, 510],
      ["audit", "failed", 0, 320],
    ]);

    const show = await runYolo(["show", "stories1"], { cwd: root });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain(
      [
        "Stories in parallel (3 stories: 1 merged, 1 running, 1 failed):",
        "- login merged — Add a login form",
        "  branch yolo/t/login · 1,234 tokens in 3 calls · 2 files: src/login.js, test/login.test.js",
        "  merge conflicts resolved in src/app.js",
        "  summary: Login form added",
        "- logout running — Add a logout button",
        "  branch yolo/t/logout · 510 tokens in 1 call · no files changed",
        "- audit failed — Audit | log",
        "  branch yolo/t/audit · 320 tokens in 2 calls · no files changed",
        "  after login",
        "  why: escalated: no audit table in the schema",
      ].join("\n"),
    );
    const showJson = JSON.parse((await runYolo(["show", "stories1", "--json"], { cwd: root })).stdout);
    expect(showJson.state.storyRuns.audit).toMatchObject({ status: "failed", dependsOn: ["login"], usage: { totalTokens: 320, calls: 2 } });

    const md = await runYolo(["report", "stories1"], { cwd: root });
    expect(md.exitCode, describeResult(md)).toBe(0);
    expect(md.stdout).toContain(
      [
        "### Stories in parallel",
        "3 stories: 1 merged, 1 running, 1 failed.",
        "",
        "| story | title | state | files changed | calls | tokens | merge conflicts |",
        "|---|---|---|---|---:|---:|---|",
        "| `login` | Add a login form | ✅ merged | `src/login.js`, `test/login.test.js` | 3 | 1,234 | `src/app.js` |",
        "| `logout` | Add a logout button | ⏳ running | none | 1 | 510 |  |",
        "| `audit` | Audit \\| log | ❌ failed | none | 2 | 320 |  |",
        "",
        "`audit` failed: escalated: no audit table in the schema",
      ].join("\n"),
    );

    const junit = await runYolo(["report", "stories1", "--format", "junit"], { cwd: root });
    const xml = parseXml(junit.stdout);
    const suites = findAll(xml, "testsuite");
    const storiesSuite = suites.find((s) => s.attrs.name === "yolo stories")!;
    expect(storiesSuite.attrs).toMatchObject({ tests: "3", failures: "1", skipped: "1" });
    const cases = findAll(storiesSuite, "testcase");
    expect(cases.map((c) => c.attrs.name)).toEqual(["login: Add a login form", "logout: Add a logout button", "audit: Audit | log"]);
    expect(findAll(cases[2], "failure")[0].text).toBe("escalated: no audit table\nin the schema");
    expect(findAll(cases[1], "skipped")).toHaveLength(1);
    expect(findAll(cases[0], "failure")).toEqual([]);
    const gateTests = suites.filter((s) => s !== storiesSuite).reduce((n, s) => n + Number(s.attrs.tests), 0);
    expect(xml.attrs.tests).toBe(String(gateTests + 3));
  });

  it("leaves every listing as it was for a thread that ran no stories in parallel", async () => {
    const root = project(onTestFinished);
    await threadWithStories(root, "plain1", null);
    const threads = await runYolo(["threads"], { cwd: root });
    expect(threads.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout)[0]).not.toHaveProperty("stories");
    const show = await runYolo(["show", "plain1"], { cwd: root });
    expect(show.stdout).not.toContain("Stories in parallel");
    const md = await runYolo(["report", "plain1"], { cwd: root });
    expect(md.stdout).not.toContain("Stories in parallel");
    const xml = parseXml((await runYolo(["report", "plain1", "--format", "junit"], { cwd: root })).stdout);
    // No stories suite: only the gate's tests (one by one, as the baseline recorded them).
    expect(findAll(xml, "testsuite").map((s) => s.attrs.name)).toEqual(["yolo gate test"]);
  });
});
