import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, call, GOOD_ADD, handoff, teaSays } from "../helpers/director.js";
import { lastToolResults } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { requireTool } from "../helpers/requires.js";
import { pmStories, storyDirector } from "../helpers/stories.js";

// A green baseline: these stories do not touch add.js, and a test failing at the baseline would be their target.
const GREEN = { "src/add.js": GOOD_ADD };

const TWO = pmStories([
  { id: "a", title: "Story A", depends_on: [] },
  { id: "b", title: "Story B", depends_on: [] },
]);
// The fixture's test script given as the gate: these cases are about a story's confinement, not npm's detection, and
// npm's own start costs about 0.7 s of CPU a gate run. A resume keeps the thread's command.
const GATE = ["--test-cmd", "node --test test/"];
// A story's worktree is <root>/.yolo/threads/<thread>/worktrees/<story>: five levels below the thread's tree.
const UP = "../../../../..";

describe.concurrent("a story's dev is confined to its own worktree (the model is untrusted)", { timeout: 240_000 }, () => {
  it("cannot write to the thread's tree, another story's worktree, or the worktree's git link (sandboxed)", async ({ expect, onTestFinished, skip }) => {
    requireTool({ skip }, "bwrap", "confining a story's commands to its worktree");
    const root = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [TWO],
      "dev:a": [
        call("write_file", { path: `${UP}/pwned-by-tool.txt`, content: "x" }),
        call("run_command", { command: `echo pwned > ${UP}/pwned-by-command.txt` }),
        call("run_command", { command: "echo pwned > ../b/pwned.txt" }),
        call("run_command", { command: `printf 'gitdir: ${UP}/.git\\n' > .git` }),
        call("write_file", { path: ".git", content: "gitdir: ../../../../../.git\n" }),
        call("write_file", { path: "src/add.js", content: GOOD_ADD }),
        handoff({ summary: "a", files_changed: ["src/add.js", "../../../../../pwned-by-tool.txt"] }),
      ],
      "dev:b": [call("write_file", { path: "b.txt", content: "b\n" }), handoff({ summary: "b", files_changed: ["b.txt"] })],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Two stories"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    for (const f of ["pwned-by-tool.txt", "pwned-by-command.txt", "pwned.txt"]) expect(existsSync(join(root, f)), f).toBe(false);
    const results = parseEvents(r.stdout)
      .filter((e) => e.type === "tool.result" && e.story === "a")
      .map((e) => (e as { ok: boolean }).ok);
    // The file tools refuse outright; a command's writes land nowhere on the host (read-only, or the sandbox's own /tmp).
    expect([results[0], results[4]]).toEqual([false, false]);
    const completed = Object.fromEntries(
      parseEvents(r.stdout)
        .filter((e) => e.type === "story.completed")
        .map((e) => [e.story, (e as { filesChanged: string[] }).filesChanged]),
    );
    // What a story changed comes from git, not from its handoff's claims.
    expect(completed).toEqual({ a: ["src/add.js"], b: ["b.txt"] });
    expect(execFileSync("git", ["log", "--format=%s"], { cwd: root, encoding: "utf8" }).trim()).toBe("init");
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\n");
  });

  it("yolo refuses to commit from a worktree whose git link was rewritten (sandbox off), so the thread's branch is never written", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, GREEN);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [TWO],
      "dev:a": [
        call("run_command", { command: `printf 'gitdir: ${UP}/.git\\n' > .git && cat .git` }),
        handoff({ summary: "a", files_changed: [] }),
        // The resume: the story runs again in a worktree made again from its branch.
        call("write_file", { path: "a.txt", content: "a\n" }),
        handoff({ summary: "a again", files_changed: ["a.txt"] }),
      ],
      // Story b runs beside a: when a's commit is refused before b's step is saved, the resume runs b again.
      "dev:b": [handoff({ summary: "b", files_changed: [] }), handoff({ summary: "b", files_changed: [] })],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Two stories"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("no longer links to its own entry");
    expect(execFileSync("git", ["log", "--all", "--format=%s", "HEAD"], { cwd: root, encoding: "utf8" })).not.toContain("Story A");
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" })).toBe("");

    // Not stuck: the resume moves the broken worktree aside (nothing deleted), makes it again, and the thread finishes.
    const thread = threadIdFrom(r.stdout);
    const resumed = await runYolo(["resume", "--ci", "--json", thread], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "off" } });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const warnings = parseEvents(resumed.stdout).filter((e) => e.type === "warning");
    expect(warnings.map((e) => (e as { message: string }).message)).toContainEqual(
      expect.stringMatching(/^Story a's worktree was broken \(moved aside to .*broken-worktrees\/a-1\): it was made again from its branch/),
    );
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(execFileSync("git", ["log", "--all", "--format=%s", "HEAD"], { cwd: root, encoding: "utf8" })).not.toContain("Story A");
  });

  it("pm's story ids that would escape as a branch or folder name, and depends_on cycles, go back to pm as handoff errors", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, GREEN);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [
        pmStories([
          { id: "../../x", title: "Escape", depends_on: [] },
          { id: "a;rm -rf ~", title: "Shell", depends_on: [] },
        ]),
        (req) => {
          const error = String(lastToolResults(req)[0]?.content);
          return error.includes('"../../x" is not a valid story id') && error.includes('"a;rm -rf ~" is not a valid story id')
            ? pmStories([
                { id: "a", title: "A", depends_on: ["b"] },
                { id: "b", title: "B", depends_on: ["a"] },
              ])
            : { status: 400, content: `unexpected: ${error}` };
        },
        (req) => (String(lastToolResults(req)[0]?.content).includes("cycle: a → b → a") ? TWO : { status: 400, content: "no cycle error" }),
      ],
      "dev:a": [handoff({ summary: "a", files_changed: [] })],
      "dev:b": [handoff({ summary: "b", files_changed: [] })],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Two stories"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(director.log.filter((x) => x === "pm")).toHaveLength(3);
    expect(execFileSync("git", ["for-each-ref", "--format=%(refname)"], { cwd: root, encoding: "utf8" })).not.toMatch(/\.\.|;/);
  });

  it("a link one story commits that another writes through is refused at the merge, and the thread is not stuck: the story fails with its reason, a human is asked, and resume goes on", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, GREEN);
    const outside = project(onTestFinished);
    const director = storyDirector({
      analyst: [analystDone],
      pm: [TWO],
      "dev:a": [call("run_command", { command: `ln -s ${outside} lib` }), handoff({ summary: "a", files_changed: ["lib"] })],
      "dev:b": [
        call("write_file", { path: "lib/x.js", content: "export const x = 1;\n" }),
        handoff({ summary: "b", files_changed: ["lib/x.js"] }),
        // After the human's answer the story runs again in its worktree; the link is gone from the tree by then.
        handoff({ summary: "b again", files_changed: ["lib/x.js"] }),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await mockWith(onTestFinished, director);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "Two stories"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: "off" } });
    expect(r.exitCode, describeResult(r)).toBe(3);
    expect(existsSync(join(outside, "x.js"))).toBe(false);
    const events = parseEvents(r.stdout);
    const warning = events.find((e) => e.type === "warning" && (e as { message: string }).message.startsWith("Story b (Story B) was not merged")) as {
      message: string;
    };
    expect(warning?.message).toMatch(/refusing to merge lib\/x\.js: a folder above it links outside the project/);
    const end = events.at(-1) as { type: string; status: string; reason: string };
    expect(end).toMatchObject({ type: "run.completed", status: "waiting" });
    expect(end.reason).toMatch(/Story b \(Story B\) could not be merged/);
    const show = await runYolo(["show", threadIdFrom(r.stdout)], { cwd: root });
    expect(show.stdout).toMatch(/- b failed — Story B\n.*\n {2}why: not merged: refusing to merge lib\/x\.js/);

    // The human removes the link and answers: the story runs again, merges, and the thread passes.
    execFileSync("rm", [join(root, "lib")]);
    const resumed = await runYolo(["resume", "--ci", "--json", threadIdFrom(r.stdout), "--answer", "removed the link"], {
      cwd: root,
      baseURL: mock.url,
      env: { YOLO_SANDBOX: "off" },
    });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(readFileSync(join(root, "lib/x.js"), "utf8")).toBe("export const x = 1;\n");
    expect(existsSync(join(outside, "x.js"))).toBe(false);
  });
});
