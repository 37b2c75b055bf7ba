import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { ADD_TEST } from "../helpers/project.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";
const script = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });

describe.concurrent("a run on a dirty tree without --branch records the tree as its start", { timeout: 240_000 }, () => {
  it("the user's staged, unstaged and untracked edits are not listed as yolo's; index, HEAD and stash untouched; a warning says so", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
    writeFileSync(join(root, "README.md"), "# demo\nmy own edit\n");
    writeFileSync(join(root, "notes.txt"), "my notes\n");
    writeFileSync(join(root, "package.json"), `${git("show", "HEAD:package.json").trimEnd()}\n\n`);
    git("add", "package.json");
    const before = { head: git("rev-parse", "HEAD"), index: git("diff", "--cached"), stash: git("stash", "list"), status: git("status", "--porcelain") };

    const mock = await mockWith(onTestFinished, script());
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const warning = parseEvents(r.stdout).find((e) => e.type === "warning" && e.message.includes("uncommitted changes"));
    expect(warning?.type === "warning" && warning.message).toMatch(/README\.md, package\.json, notes\.txt|README\.md.*notes\.txt/);
    const thread = threadIdFrom(r.stdout);

    const diff = await runYolo(["show", thread, "--diff"], { cwd: root });
    expect(diff.exitCode, describeResult(diff)).toBe(0);
    expect(diff.stdout).toContain("src/add.js");
    expect(diff.stdout).not.toMatch(/README\.md|notes\.txt|package\.json/);

    const report = await runYolo(["report", thread], { cwd: root });
    const changed = report.stdout.slice(report.stdout.indexOf("Changed files"));
    expect(changed).toContain("`src/add.js`");
    expect(changed).not.toMatch(/README\.md|notes\.txt|package\.json/);

    // The user's checkout is as it was, plus yolo's one new file.
    expect(git("rev-parse", "HEAD")).toBe(before.head);
    expect(git("diff", "--cached")).toBe(before.index);
    expect(git("stash", "list")).toBe(before.stash);
    expect(git("status", "--porcelain")).toBe(`${before.status}?? src/\n`);
  });

  it("a start snapshot that cannot be kept by its ref ends the run before any model call (the ref is written while run.started goes out)", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    writeFileSync(join(root, "notes.txt"), "mine\n");
    // A file where git's refs/yolo folder would go: no ref under it can be written.
    writeFileSync(join(root, ".git", "refs", "yolo"), "in the way\n");
    const mock = await mockWith(onTestFinished, script());
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(70);
    const events = parseEvents(r.stdout);
    expect(events.map((e) => e.type)).toEqual(["run.started", "error", "run.completed"]);
    expect(events[1]).toMatchObject({ type: "error", code: "git", message: expect.stringContaining("update-ref") });
    expect(mock.requests).toHaveLength(0);
  });

  it("the plain view prints the warning; a clean tree gets none", async ({ expect, onTestFinished }) => {
    const dirty = project(onTestFinished);
    writeFileSync(join(dirty, "notes.txt"), "mine\n");
    const r = await runYolo(["run", "--no-tui", REQ], { cwd: dirty, baseURL: (await mockWith(onTestFinished, script())).url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/! warning: The work tree had uncommitted changes \(notes\.txt\)/);

    const clean = project(onTestFinished);
    const c = await runYolo(["run", "--json", REQ], { cwd: clean, baseURL: (await mockWith(onTestFinished, script())).url });
    expect(parseEvents(c.stdout).filter((e) => e.type === "warning" && /uncommitted|git/.test(e.message))).toEqual([]);
  });

  it("outside git: a warning at start says what does not work, and show --diff says why", async ({ expect, onTestFinished }) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-nogit-")));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "d", type: "module", scripts: { test: "node --test test/" } }));
    mkdirSync(join(root, "test"));
    writeFileSync(join(root, "test/add.test.js"), ADD_TEST);
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, script())).url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const warning = parseEvents(r.stdout).find((e) => e.type === "warning" && e.message.startsWith("Not a git repository"));
    expect(warning?.type === "warning" && warning.message).toMatch(/show --diff, --branch and the report's changed files/);
    const diff = await runYolo(["show", threadIdFrom(r.stdout), "--diff"], { cwd: root });
    expect(diff.exitCode).toBe(2);
    expect(diff.stderr).toContain("is not a git repository");
  });
});
