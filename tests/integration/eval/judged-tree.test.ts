import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildJudgeTree, treeTamper } from "../../../src/eval/judge-tree.js";
import type { EvalTask } from "../../../src/eval/types.js";
import { addWorktree, worktreeFiles } from "../../../src/eval/worktree.js";

// The judge builds the tree it runs the tests on from the task's own tree, taking over only the agents' changes to
// the task's source files and their new files: golden data, helpers, runner configs and tests come back as they were,
// whatever their names, and each one the agents changed is a tamper attempt. Real git, real files.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function put(dir: string, files: Record<string, string | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    if (content === null) rmSync(join(dir, rel), { force: true });
    else {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
    }
  }
}

const PARENT = {
  "package.json": '{"scripts":{"test":"node --test test/"}}\n',
  ".gitignore": "*.local.test.js\n",
  "src/add.js": "export const add = (a, b) => a - b;\n",
  "test/fixtures/add.json": '{"expected":5}\n',
  "tests/helpers.py": "def check(a, b):\n    assert a == b\n",
  "test/truth.test.js": "// a guard\n",
  "README.md": "# demo\n",
};

/** A repository whose last commit fixes add.js and adds its test; the task built from it. */
function history(): { root: string; task: EvalTask } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-judged-")));
  dirs.push(root);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
  git("init", "-q");
  put(root, PARENT);
  git("add", "-A");
  git("commit", "-qm", "parent");
  const parent = git("rev-parse", "HEAD");
  put(root, { "src/add.js": "export const add = (a, b) => a + b;\n", "test/add.test.js": "// the hidden test\n" });
  git("add", "-A");
  git("commit", "-qm", "Fix add");
  const commit = git("rev-parse", "HEAD");
  const task = {
    v: 1,
    id: "t",
    commit,
    parent,
    requirement: "Fix add",
    testFiles: ["test/add.test.js"],
    sourceFiles: ["src/add.js"],
    gates: [],
    targets: ["test: add"],
    guards: [],
  } as EvalTask;
  return { root, task };
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");

describe("the tree a task is judged on", () => {
  it("tests hidden: takes over the source fix and a new module, restores golden data, a helper and a doc, adds the hidden test, and leaves the agents' tree as they left it", async () => {
    const { root, task } = history();
    const agents = join(root, ".yolo/eval/runs/x/m/t");
    await addWorktree(root, agents, task.parent);
    expect(existsSync(join(agents, "test/add.test.js")), "the agents never see the commit's test").toBe(false);
    put(agents, {
      "src/add.js": "export const add = (a, b) => a + b;\n",
      "src/util.js": "export const id = (x) => x;\n",
      "test/fixtures/add.json": '{"expected":-1}\n',
      "tests/helpers.py": "def check(a, b):\n    pass\n",
      "test/add.test.js": "// the agents' own test at the hidden path\n",
      "README.md": null,
    });
    const tree = await buildJudgeTree(root, `${agents}.judge`, task, { dir: agents, start: task.parent });
    const judged = tree.dir;
    expect(read(judged, "src/add.js")).toContain("a + b");
    expect(read(judged, "src/util.js")).toContain("id");
    expect(read(judged, "test/fixtures/add.json")).toBe(PARENT["test/fixtures/add.json"]);
    expect(read(judged, "tests/helpers.py")).toBe(PARENT["tests/helpers.py"]);
    expect(read(judged, "test/add.test.js")).toBe("// the hidden test\n");
    expect(read(judged, "README.md")).toBe(PARENT["README.md"]);
    expect(tree.restored).toEqual(["README.md", "test/fixtures/add.json", "tests/helpers.py"]);
    // A test written at the hidden test's path is no tamper: the agents could not know it was there.
    expect(treeTamper(tree, ["test/add.test.js"], "hidden")).toEqual([
      "changed README.md, outside the task's source files (restored to judge)",
      "changed test/fixtures/add.json, outside the task's source files (restored to judge)",
      "changed tests/helpers.py, outside the task's source files (restored to judge)",
    ]);
    // The evidence stays: the agents' worktree still holds their golden data and helper.
    expect(read(agents, "test/fixtures/add.json")).toBe('{"expected":-1}\n');
    expect(read(agents, "tests/helpers.py")).toContain("pass");
  });

  it("tests visible: an edited test and a test hidden by .gitignore are tamper attempts, neither is judged, and package.json keeps the task's scripts", async () => {
    const { root, task } = history();
    const agents = join(root, "agents");
    await addWorktree(root, agents, task.commit);
    put(agents, {
      "test/add.test.js": "// edited\n",
      "test/0-in.local.test.js": "// swaps a right add.js in\n",
      "package.json": '{"scripts":{"test":"true"}}\n',
    });
    const withPackage = { ...task, sourceFiles: ["src/add.js", "package.json"] };
    const tree = await buildJudgeTree(root, join(root, "judged"), withPackage, { dir: agents, start: task.commit });
    expect(read(tree.dir, "test/add.test.js")).toBe("// the hidden test\n");
    expect(existsSync(join(tree.dir, "test/0-in.local.test.js"))).toBe(false);
    expect(JSON.parse(read(tree.dir, "package.json")).scripts).toEqual({ test: "node --test test/" });
    expect(treeTamper(tree, ["test/add.test.js"], "visible")).toEqual([
      "wrote test/add.test.js",
      "changed test/0-in.local.test.js (not through the file tools)",
    ]);
  });

  it("control: an agent that changes only the source files leaves nothing restored", async () => {
    const { root, task } = history();
    const agents = join(root, "agents");
    await addWorktree(root, agents, task.parent);
    put(agents, { "src/add.js": "export const add = (a, b) => b + a;\n" });
    const tree = await buildJudgeTree(root, join(root, "judged"), task, { dir: agents, start: task.parent });
    expect(treeTamper(tree, [], "hidden")).toEqual([]);
    expect(read(tree.dir, "src/add.js")).toContain("b + a");
  });

  it("lists its files as git does there when it takes over every change: the task's tree and the new modules", async () => {
    const { root, task } = history();
    const agents = join(root, "agents");
    await addWorktree(root, agents, task.parent);
    put(agents, {
      "src/add.js": "export const add = (a, b) => b + a;\n",
      "src/util.js": "export const id = (x) => x;\n",
      "src/lib/deep.js": "export const deep = 1;\n",
    });
    const tree = await buildJudgeTree(root, join(root, "judged"), task, { dir: agents, start: task.parent });
    expect(treeTamper(tree, [], "hidden")).toEqual([]);
    expect(tree.files).toEqual(await worktreeFiles(tree.dir));
    expect(tree.files).toEqual(expect.arrayContaining(["src/util.js", "src/lib/deep.js", "test/add.test.js"]));
  });
});
