import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { deferred, describeResult, parseEvents, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, call, GOOD_ADD, handoff, teaSays } from "../helpers/director.js";
import { lastToolResults } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { pmStories, storyDirector } from "../helpers/stories.js";
import { openDatabase } from "../../src/store/db.js";

/** How many story runs have their completed writes in the checkpoint database (LangGraph's pending writes). */
function storiesSaved(root: string): number {
  const db = openDatabase(join(root, ".yolo/yolo.db"));
  try {
    return (db.prepare("SELECT count(DISTINCT task_id) AS n FROM writes WHERE channel = 'storyWallMs'").get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe("stories in parallel survive kill -9", { timeout: 240_000 }, () => {
  it("resumes with the finished stories not run again and the unfinished one continuing in its worktree", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const held = deferred();
    onTestFinished(held.release);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "one", title: "One", depends_on: [] },
          { id: "slow", title: "Slow", depends_on: [] },
        ]),
      ],
      "dev:add": [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add", files_changed: [] })],
      "dev:one": [call("write_file", { path: "src/one.js", content: "export const one = 1;\n" }), handoff({ summary: "one", files_changed: [] })],
      "dev:slow": [
        call("write_file", { path: "src/slow.js", content: "// partial\n" }),
        // Held open until after the kill: this reply never lands.
        { ...handoff({ summary: "never", files_changed: [] }), hold: held.promise },
        // After the resume: the story's dev starts again, in the same worktree, and finds its earlier file.
        call("read_file", { path: "src/slow.js" }),
        (req) =>
          String(lastToolResults(req)[0]?.content).includes("// partial")
            ? call("write_file", { path: "src/slow.js", content: "export const slow = 2;\n" })
            : { status: 400, content: "the worktree was not found again" },
        handoff({ summary: "slow", files_changed: ["src/slow.js"] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const child = spawnYolo(["run", "--json", "--parallel", "3", "Three things"], { cwd: root, baseURL: mock.url });
    // The two quick stories finished and their writes are saved; the slow one waits on its model call.
    await waitFor(() => director.log.filter((r) => r === "dev:slow").length === 2 && storiesSaved(root) === 2, "two stories saved while the third runs");
    child.kill("SIGKILL");
    const killed = await child;
    expect(killed.signal).toBe("SIGKILL");
    held.release();
    const thread = threadIdFrom(String(killed.stdout));
    const seenAtKill = director.log.length;
    const worktreesAtKill = execFileSync("git", ["worktree", "list", "--porcelain"], { cwd: root, encoding: "utf8" });
    expect(worktreesAtKill).toContain(join(root, ".yolo/threads", thread, "worktrees/slow"));
    // Before the resume, the finished stories list as done with their tokens as recorded; only the killed one as running.
    const listed = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as Array<{
      id: string;
      stories?: Array<{ id: string; status: string; usage?: { totalTokens: number } }>;
    }>;
    const storiesAtKill = listed.find((t) => t.id === thread)?.stories ?? [];
    expect(storiesAtKill.map((st) => [st.id, st.status])).toEqual([
      ["add", "done"],
      ["one", "done"],
      ["slow", "running"],
    ]);
    for (const st of storiesAtKill.slice(0, 2)) expect(st.usage?.totalTokens).toBeGreaterThan(0);
    const table = (await runYolo(["threads"], { cwd: root })).stdout;
    expect(table).not.toMatch(/- add running/);
    const shownAtKill = (await runYolo(["show", thread], { cwd: root })).stdout;
    expect(shownAtKill).toMatch(/- add done — Add numbers\n\s+branch \S+ · [\d,]+ tokens in \d+ calls?/);
    expect(shownAtKill).toMatch(/- one done — One/);

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const after = director.log.slice(seenAtKill);
    expect(after).toEqual(["dev:slow", "dev:slow", "dev:slow", "tea"]);
    const events = parseEvents(resumed.stdout);
    expect(events.filter((e) => e.type === "story.started").map((e) => e.story)).toEqual(["slow"]);
    expect(events.filter((e) => e.type === "story.merged").map((e) => e.story)).toEqual(["add", "one", "slow"]);
    expect(readFileSync(join(root, "src/slow.js"), "utf8")).toBe("export const slow = 2;\n");
    // Every answered model call is counted, the killed story's call before the kill included (the held one never landed).
    const shown = JSON.parse((await runYolo(["show", thread, "--json"], { cwd: root })).stdout) as { state: { usage: { calls: number } } };
    expect(shown.state.usage.calls).toBe(director.log.length - 1);
    expect(readFileSync(join(root, "src/one.js"), "utf8")).toBe("export const one = 1;\n");
    // The thread ended: its worktrees, their git entries and the stories' branches are gone.
    expect(execFileSync("git", ["worktree", "list"], { cwd: root, encoding: "utf8" }).trim().split("\n")).toHaveLength(1);
    expect(execFileSync("git", ["branch", "--list", "yolo/stories/*"], { cwd: root, encoding: "utf8" })).toBe("");
  });

  it("after kill -9, a finished story's worktree tampered with, another's branch deleted and a running story's worktree deleted: resume puts the committed work back, builds the lost one again, makes the last again, and says each", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const held = deferred();
    onTestFinished(held.release);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "add", title: "Add numbers", depends_on: [] },
          { id: "one", title: "One", depends_on: [] },
          { id: "slow", title: "Slow", depends_on: [] },
        ]),
      ],
      "dev:add": [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "add", files_changed: [] })],
      "dev:one": [
        call("write_file", { path: "src/one.js", content: "export const one = 1;\n" }),
        handoff({ summary: "one", files_changed: [] }),
        // After the resume: its branch is gone, so the story is built again.
        call("write_file", { path: "src/one.js", content: "export const one = 1;\n" }),
        handoff({ summary: "one again", files_changed: [] }),
      ],
      "dev:slow": [
        call("write_file", { path: "src/slow.js", content: "// partial\n" }),
        { ...handoff({ summary: "never", files_changed: [] }), hold: held.promise },
        // After the resume: the worktree was made again from the branch, so the partial file is not there.
        call("read_file", { path: "src/slow.js" }),
        (req) =>
          String(lastToolResults(req)[0]?.content).includes("// partial")
            ? { status: 400, content: "the deleted worktree's file came back" }
            : call("write_file", { path: "src/slow.js", content: "export const slow = 2;\n" }),
        handoff({ summary: "slow", files_changed: ["src/slow.js"] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const child = spawnYolo(["run", "--json", "--parallel", "3", "Three things"], { cwd: root, baseURL: mock.url });
    await waitFor(() => director.log.filter((r) => r === "dev:slow").length === 2 && storiesSaved(root) === 2, "two stories saved while the third runs");
    child.kill("SIGKILL");
    const killed = await child;
    held.release();
    const thread = threadIdFrom(String(killed.stdout));
    const worktrees = join(root, ".yolo/threads", thread, "worktrees");
    // The finished story's committed file is emptied, a stray file added; the running story's worktree is gone.
    writeFileSync(join(worktrees, "add/src/add.js"), "");
    writeFileSync(join(worktrees, "add/src/stray.js"), "stray\n");
    rmSync(join(worktrees, "slow"), { recursive: true, force: true });
    execFileSync("git", ["update-ref", "-d", `refs/heads/yolo/stories/${thread}/one`], { cwd: root });

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const warnings = parseEvents(resumed.stdout)
      .filter((e) => e.type === "warning")
      .map((e) => (e as { message: string }).message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^Story slow's worktree was missing: it was made again from its branch .*; what its interrupted run had not committed is not in it/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^Story add \(Add numbers\): its worktree no longer held what yolo committed \(.*src\/add\.js.*\); it was put back/),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^Story one \(One\): its branch yolo\/stories\/.*\/one is gone, and with it the work it had committed; the story runs again/),
    );
    expect(director.log.filter((r) => r === "dev:one")).toHaveLength(4);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(readFileSync(join(root, "src/one.js"), "utf8")).toBe("export const one = 1;\n");
    expect(readFileSync(join(root, "src/slow.js"), "utf8")).toBe("export const slow = 2;\n");
    expect(existsSync(join(root, "src/stray.js"))).toBe(false);
  });

  it("`yolo threads rm` removes a killed thread's story worktrees, their git entries and branches", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const held = deferred();
    onTestFinished(held.release);
    const wait = { ...handoff({ summary: "never", files_changed: [] }), hold: held.promise };
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "a", title: "A", depends_on: [] },
          { id: "b", title: "B", depends_on: [] },
        ]),
      ],
      "dev:a": [wait],
      "dev:b": [wait],
    });
    const mock = await mockWith(onTestFinished, director);
    const child = spawnYolo(["run", "--json", "Two things"], { cwd: root, baseURL: mock.url });
    await waitFor(() => director.log.includes("dev:a") && director.log.includes("dev:b"), "both stories running");
    child.kill("SIGKILL");
    await child;
    const thread = threadIdFrom(String((await child).stdout));
    expect(execFileSync("git", ["worktree", "list"], { cwd: root, encoding: "utf8" }).trim().split("\n")).toHaveLength(3);
    const rm = await runYolo(["threads", "rm", thread], { cwd: root });
    expect(rm.exitCode, describeResult(rm)).toBe(0);
    expect(execFileSync("git", ["worktree", "list"], { cwd: root, encoding: "utf8" }).trim().split("\n")).toHaveLength(1);
    expect(execFileSync("git", ["for-each-ref", "refs/heads/yolo/stories", `refs/yolo/${thread}`], { cwd: root, encoding: "utf8" })).toBe("");
  });
});
