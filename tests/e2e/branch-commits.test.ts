import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestContext } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import type { MockOpenAI } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";

type Finally = TestContext["onTestFinished"];
const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate: these cases are about the thread's branch and its commits, not npm's
// detection, and npm's own start is about 0.7 s of CPU a gate run. The detected npm test end to end:
// tests/e2e/run-exit-codes.test.ts and tests/e2e/stories-kill-resume.test.ts.
const GATE = ["--test-cmd", "node --test test/"];

async function setup(
  onTestFinished: Finally,
  files: Record<string, string> = {},
  fixLoop = false,
): Promise<{ root: string; mock: MockOpenAI; git: (...a: string[]) => string }> {
  const root = project(onTestFinished, files);
  const mock = await mockWith(
    onTestFinished,
    fixLoop
      ? director({ analyst: [analystDone], pm: [pmDone(false)], dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)], tea: [teaSays("FAIL"), teaSays("PASS")] })
      : director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }),
  );
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
  return { root, mock, git };
}

describe.concurrent("--branch: yolo/<thread> with a commit per dev iteration", { timeout: 240_000 }, () => {
  it("says at the start and at the end that it leaves the user on yolo/<thread>, and how to go back", async ({ expect, onTestFinished }) => {
    const { root, mock, git } = await setup(onTestFinished);
    const before = git("branch", "--show-current").trim();
    const r = await runYolo(["run", ...GATE, "--ci", "--branch", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const thread = /yolo thread (\S+)/.exec(r.stdout)?.[1];
    const note = `Working on branch yolo/${thread}: each dev iteration is committed there, and it stays checked out after the run. Go back with: git switch ${before}`;
    expect(r.stdout.replace(/\n +/g, " ")).toContain(note);
    expect(r.stderr).toContain(`yolo: ${note}`);
    expect(git("branch", "--show-current").trim()).toBe(`yolo/${thread}`);
    git("switch", before);
  });

  it("commits each attempt on the thread's branch, naming story and attempt, never .yolo/", async ({ expect, onTestFinished }) => {
    const { root, mock, git } = await setup(onTestFinished, {}, true);
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--branch", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const thread = threadIdFrom(r.stdout);
    expect(git("branch", "--show-current").trim()).toBe(`yolo/${thread}`);
    expect(git("log", "--format=%s", "HEAD").trim().split("\n")).toEqual([
      `yolo(${thread}): Add numbers (attempt 2)`,
      `yolo(${thread}): Add numbers (attempt 1)`,
      "init",
    ]);
    expect(git("log", "-1", "--format=%B").trim()).toBe(
      `yolo(${thread}): Add numbers (attempt 2)\n\nwrote add\n\nYolo-Thread: ${thread}\nYolo-Node: dev\nYolo-Attempt: 2`,
    );
    expect(git("log", "--name-only", "--format=").split("\n").filter(Boolean)).toEqual([
      "src/add.js",
      "src/add.js",
      "README.md",
      "package.json",
      "test/add.test.js",
    ]);
    expect(git("status", "--porcelain")).toBe("");
    const devDone = parseEvents(r.stdout).filter((e) => e.type === "node.completed" && e.node === "dev");
    expect(devDone.map((e) => (e as { summary: string }).summary)).toEqual([
      expect.stringMatching(/^1 file changed, committed [0-9a-f]{7}$/),
      expect.stringMatching(/committed/),
    ]);
    const show = await runYolo(["show", thread, "--json"], { cwd: root });
    expect(JSON.parse(show.stdout).thread).toMatchObject({ branch: `yolo/${thread}`, startCommit: git("rev-list", "--max-parents=0", "HEAD").trim() });
  });

  it("refuses a dirty work tree with exit 2 before anything runs, unless --allow-dirty", async ({ expect, onTestFinished }) => {
    const { root, mock, git } = await setup(onTestFinished);
    writeFileSync(join(root, "README.md"), "# demo, edited\n");
    const refused = await runYolo(["run", ...GATE, "--ci", "--branch", REQ], { cwd: root, baseURL: mock.url });
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain("uncommitted changes");
    expect(refused.stderr).toContain("- M README.md");
    expect(refused.stderr).toContain("--allow-dirty");
    expect(mock.requests).toHaveLength(0);
    expect(git("branch", "--list", "yolo/*")).toBe("");

    const allowed = await runYolo(["run", ...GATE, "--ci", "--json", "--branch", "--allow-dirty", REQ], { cwd: root, baseURL: mock.url });
    expect(allowed.exitCode, describeResult(allowed)).toBe(0);
    expect(git("show", "--name-only", "--format=", "HEAD").trim().split("\n")).toEqual(["README.md", "src/add.js"]);
  });

  it("`branch: true` in yolo.config.ts works like the flag, and --no-branch turns it off", async ({ expect, onTestFinished }) => {
    const { root, mock, git } = await setup(onTestFinished, { "yolo.config.ts": "export default { branch: true };\n" });
    const off = await runYolo(["run", ...GATE, "--ci", "--json", "--no-branch", REQ], { cwd: root, baseURL: mock.url });
    expect(off.exitCode, describeResult(off)).toBe(0);
    expect(git("branch", "--show-current").trim()).toBe(git("rev-parse", "--abbrev-ref", "HEAD").trim());
    expect(git("log", "--format=%s").trim()).toBe("init");
    expect(existsSync(join(root, "src/add.js"))).toBe(true);
  });
});
