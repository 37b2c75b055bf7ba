import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { errorText } from "../../../src/cli/wording/error-text.js";
import { ConfigError } from "../../../src/errors.js";
import { changeSince, parseNumstat } from "../../../src/git/repo.js";
import { prepareWorkspace } from "../../../src/git/workspace.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const log = () => git("log", "--format=%s", "HEAD").trim().split("\n");

beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-ws-");
  git("init", "-q", "-b", "main");
  writeFileSync(join(root, "README.md"), "# p\n");
  git("add", "-A");
  git("commit", "-qm", "init");
  // yolo's state folder ignores itself, as ensureStateDir makes it.
  mkdirSync(join(root, ".yolo"));
  writeFileSync(join(root, ".yolo/.gitignore"), "*\n");
  writeFileSync(join(root, ".yolo/yolo.db"), "x");
});

const iteration = { threadId: "t1234567", node: "dev", attempt: 1, stories: ["Add"], summary: "s" };

describe("--branch: a thread works on yolo/<thread> and commits each dev iteration", () => {
  it("without --branch only notes the start commit", async () => {
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: false, allowDirty: false, mode: "start" });
    expect(ws).toEqual({ startCommit: git("rev-parse", "HEAD").trim(), inRepo: true, dirty: [], branch: null, commit: null, pendingStart: null });
    expect(git("branch", "--show-current").trim()).toBe("main");
  });

  it("refuses a dirty tree unless allowDirty, listing the changes", async () => {
    writeFileSync(join(root, "README.md"), "# changed\n");
    writeFileSync(join(root, "new.txt"), "n\n");
    const error = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(["M README.md", "?? new.txt"]);
    expect(git("branch", "--show-current").trim()).toBe("main");
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: true, mode: "start" });
    expect(ws.branch).toBe("yolo/t1234567");
    expect(git("branch", "--show-current").trim()).toBe("yolo/t1234567");
  });

  it("commits the change without .yolo/, skips when nothing changed, and amends when the same attempt runs again", async () => {
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    writeFileSync(join(root, "add.js"), "v1\n");
    const first = await ws.commit!(iteration);
    expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git("show", "--name-only", "--format=", "HEAD").trim()).toBe("add.js");

    // The node ran again after a crash with nothing new: no second commit.
    expect(await ws.commit!(iteration)).toEqual({ commit: null });
    // …or it wrote something different: the attempt's commit is amended, not duplicated.
    writeFileSync(join(root, "add.js"), "v1 again\n");
    await ws.commit!({ ...iteration, summary: "s2" });
    expect(log()).toEqual(["yolo(t1234567): Add (attempt 1)", "init"]);

    writeFileSync(join(root, "add.js"), "v2\n");
    await ws.commit!({ ...iteration, attempt: 2 });
    expect(log()).toEqual(["yolo(t1234567): Add (attempt 2)", "yolo(t1234567): Add (attempt 1)", "init"]);
    expect(git("ls-files").split("\n")).not.toContain(".yolo/yolo.db");
  });

  it("never commits what test runs leave behind (__pycache__/, .pytest_cache/, coverage data), nor lists it in the diff", async () => {
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    const start = git("rev-parse", "HEAD").trim();
    for (const rel of [
      "calc.py",
      "__pycache__/calc.cpython-312.pyc",
      "tests/__pycache__/t.pyc",
      ".pytest_cache/v/cache/nodeids",
      ".coverage",
      "coverage/lcov.info",
    ]) {
      mkdirSync(join(root, rel, ".."), { recursive: true });
      writeFileSync(join(root, rel), "x\n");
    }
    await ws.commit!(iteration);
    expect(git("show", "--name-only", "--format=", "HEAD").trim()).toBe("calc.py");
    expect(parseNumstat(await changeSince(root, { startCommit: start, branch: null }, "numstat")).map((f) => f.path)).toEqual(["calc.py"]);
  });

  it("commits with a fallback identity when git has none configured", async () => {
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    writeFileSync(join(root, "a.txt"), "a\n");
    const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: root, GIT_CONFIG_NOSYSTEM: "1" };
    const saved = process.env;
    process.env = env;
    try {
      await ws.commit!(iteration);
    } finally {
      process.env = saved;
    }
    expect(git("log", "-1", "--format=%an <%ae>").trim()).toMatch(/.+ <.+>/);
  });

  it("refuses to commit when another branch was checked out meanwhile", async () => {
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    git("checkout", "-q", "main");
    writeFileSync(join(root, "a.txt"), "a\n");
    await expect(ws.commit!(iteration)).rejects.toThrow(/only on yolo\/t1234567, but main is checked out/);
  });

  it("a resume switches back to the thread's branch, and refuses one that has none", async () => {
    await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    git("checkout", "-q", "main");
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "resume" });
    expect(ws.branch).toBe("yolo/t1234567");
    expect(git("branch", "--show-current").trim()).toBe("yolo/t1234567");
    const refused = await prepareWorkspace({ root, threadId: "other000", branch: true, allowDirty: false, mode: "resume" }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ fact: { kind: "thread-without-branch", thread: "other000", branch: "yolo/other000" } });
    expect(errorText(refused)).toMatch(/started without --branch/);
  });

  it("--branch outside a git repository is a usage error", async ({ onTestFinished }) => {
    const plain = tempDir(onTestFinished, "yolo-nogit-");
    await expect(prepareWorkspace({ root: plain, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" })).rejects.toThrow(
      /needs a git repository/,
    );
    expect(await prepareWorkspace({ root: plain, threadId: "t1234567", branch: false, allowDirty: false, mode: "start" })).toEqual({
      startCommit: null,
      inRepo: false,
      dirty: [],
      branch: null,
      commit: null,
      pendingStart: null,
    });
  });
});

describe("the change since a thread's start commit", () => {
  it("includes new untracked files and leaves the user's index untouched", async () => {
    const start = git("rev-parse", "HEAD").trim();
    writeFileSync(join(root, "README.md"), "# p\nmore\n");
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src/add.js"), "a\nb\n");
    const stats = parseNumstat(await changeSince(root, { startCommit: start, branch: null }, "numstat"));
    expect(stats).toEqual([
      { path: "README.md", added: 1, removed: 0 },
      { path: "src/add.js", added: 2, removed: 0 },
    ]);
    expect(git("status", "--porcelain")).toContain("?? src/");
    expect(await changeSince(root, { startCommit: start, branch: null }, "patch")).toContain("+++ b/src/add.js");
  });

  it("reads a thread's branch when another branch is checked out", async () => {
    const start = git("rev-parse", "HEAD").trim();
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: true, allowDirty: false, mode: "start" });
    writeFileSync(join(root, "add.js"), "x\n");
    await ws.commit!(iteration);
    git("checkout", "-q", "main");
    expect(parseNumstat(await changeSince(root, { startCommit: start, branch: "yolo/t1234567" }, "numstat"))).toEqual([
      { path: "add.js", added: 1, removed: 0 },
    ]);
  });
});

describe("a dirty tree without --branch: the start is a snapshot of it", () => {
  it("a commit of HEAD plus staged, unstaged and untracked changes, kept by a ref; index, HEAD, branches and stash untouched", async () => {
    writeFileSync(join(root, "README.md"), "# edited\n");
    writeFileSync(join(root, "staged.txt"), "s\n");
    git("add", "staged.txt");
    writeFileSync(join(root, "untracked.txt"), "u\n");
    writeFileSync(join(root, ".gitignore"), "ignored.txt\n");
    writeFileSync(join(root, "ignored.txt"), "i\n");
    const head = git("rev-parse", "HEAD");
    const index = git("diff", "--cached", "--name-only");
    const ws = await prepareWorkspace({ root, threadId: "t1234567", branch: false, allowDirty: false, mode: "start" });

    expect(ws.dirty).toEqual([" M README.md", "A  staged.txt", "?? .gitignore", "?? untracked.txt"]);
    expect(ws.startCommit).not.toBe(head.trim());
    expect(git("rev-parse", "refs/yolo/t1234567/start").trim()).toBe(ws.startCommit);
    expect(git("rev-parse", `${ws.startCommit}^`)).toBe(head);
    expect(git("ls-tree", "-r", "--name-only", ws.startCommit!).trim().split("\n").sort()).toEqual([".gitignore", "README.md", "staged.txt", "untracked.txt"]);
    expect(git("show", `${ws.startCommit}:README.md`)).toBe("# edited\n");
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(git("diff", "--cached", "--name-only")).toBe(index);
    expect(git("stash", "list")).toBe("");
    expect(git("branch", "--format=%(refname:short)").trim()).toBe("main");

    // Only what changes after the start is the thread's.
    writeFileSync(join(root, "add.js"), "a\n");
    expect(parseNumstat(await changeSince(root, { startCommit: ws.startCommit, branch: null }, "numstat")).map((f) => f.path)).toEqual(["add.js"]);
  });
});
