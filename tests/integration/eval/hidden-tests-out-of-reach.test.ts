import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { chooseSandbox } from "../../../src/engine/run/facts.js";
import { bwrapArgv } from "../../../src/exec/sandbox.js";
import { EVAL_PROJECT_VAR } from "../../../src/exec/sandbox-walls.js";
import { cloneAt } from "../../../src/eval/worktree.js";
import type { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// A task's agents must not read the tests hidden from them another way: not through git in their worktree (the
// commit's later history, the project's refs, its object store), nor through the project checkout around it. Real
// git, real bubblewrap.

const HIDDEN = "the hidden test's own text";

function put(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** A project whose fix commit adds a test (HIDDEN), a mutant-like child of it, and a ref and tag naming them. */
function project(onTestFinished: Parameters<typeof tempDir>[0]) {
  // Not under /tmp, which every sandbox replaces with its own: the checkout must be one the sandbox would show.
  const root = realpathSync(mkdtempSync(join("/var/tmp", "yolo-eval-reach-")));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
  git("init", "-q");
  put(root, { "src/add.js": "export const add = (a, b) => a - b;\n", "node_modules/dep/index.js": "export const dep = 1;\n", ".gitignore": "node_modules/\n" });
  git("add", "-A");
  git("commit", "-qm", "parent");
  const parent = git("rev-parse", "HEAD");
  put(root, { "src/add.js": "export const add = (a, b) => a + b;\n", "test/add.test.js": `// ${HIDDEN}\n` });
  git("add", "-A");
  git("commit", "-qm", "Fix add");
  const fix = git("rev-parse", "HEAD");
  git("tag", "v1");
  put(root, { "src/add.js": "export const add = (a, b) => a * b;\n" });
  git("commit", "-qam", "mutant");
  const mutant = git("rev-parse", "HEAD");
  git("update-ref", "refs/yolo-eval/mutants/x", mutant);
  git("checkout", "-q", fix);
  return { root, parent, fix, mutant };
}

// Everything git in `dir` can reach: every ref's history, every object in its store, printed.
function everythingGitShows(dir: string): string {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
  const objects = git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)").stdout.split("\n").filter(Boolean);
  return [git("log", "--all", "-p").stdout, git("for-each-ref").stdout, ...objects.map((o) => git("cat-file", "-p", o).stdout)].join("\n");
}

describe("hidden tests out of the agents' reach", () => {
  it("a task's repository holds its start's history only: git log --all, git show <fix>:<test> and the object store find no hidden test", async ({
    onTestFinished,
  }) => {
    const { root, parent, fix } = project(onTestFinished);
    const dir = join(root, ".yolo/eval/runs/h/m/t");
    await cloneAt(root, dir, parent);
    const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
    expect(git("rev-parse", "HEAD").stdout.trim()).toBe(parent);
    expect(git("log", "--all", "--format=%H").stdout.trim()).toBe(parent);
    const show = git("show", `${fix}:test/add.test.js`);
    expect(show.status).not.toBe(0);
    expect(everythingGitShows(dir)).not.toContain(HIDDEN);
    expect(everythingGitShows(dir)).not.toContain("a + b");
    expect(git("config", "--get-regexp", "remote").stdout).toBe("");
    // The project's installed dependencies are linked in, so the suite runs.
    expect(readFileSync(join(dir, "node_modules/dep/index.js"), "utf8")).toContain("dep");
  });

  it("a mutant's start, a child of the fix, comes with no history at all", async ({ onTestFinished }) => {
    const { root, mutant } = project(onTestFinished);
    const dir = join(root, ".yolo/eval/runs/m/m/t");
    await cloneAt(root, dir, mutant, true);
    const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
    expect(git("log", "--all", "--format=%H").stdout.trim()).toBe(mutant);
    expect(git("show", "HEAD~1:src/add.js").status).not.toBe(0);
    const all = everythingGitShows(dir);
    expect(all).toContain("a * b");
    // The fix (its parent) is not there to diff against.
    expect(all).not.toContain("a + b");
  });

  it("a task run's sandbox shows the project checkout around its worktree empty, its dependencies read-only", async (ctx) => {
    requireTool(ctx, "bwrap", "the task run's sandbox");
    const { root, parent } = project(ctx.onTestFinished);
    const dir = join(root, ".yolo/eval/runs/h/m/t");
    await cloneAt(root, dir, parent);
    const config = resolveConfig({ root: dir, fileConfig: { limits: { sandboxUnixSockets: "allow" } }, file: null, env: {}, flags: {} });
    const run = (env: NodeJS.ProcessEnv, command: string) => {
      const { sandbox } = chooseSandbox(config, { PATH: process.env.PATH, ...env });
      if (sandbox.kind !== "bwrap") throw new Error("no bubblewrap sandbox");
      const argv = bwrapArgv(sandbox, dir, command);
      return spawnSync(argv[0], argv.slice(1), { encoding: "utf8" });
    };
    const snoop = `cat ${root}/test/add.test.js; git -C ${root} log --all -p; git -C ${root} show v1:test/add.test.js; ls -a ${root}; cat node_modules/dep/index.js`;
    // Control: outside an eval the checkout is there to read.
    expect(run({}, snoop).stdout).toContain(HIDDEN);
    const inEval = run({ [EVAL_PROJECT_VAR]: root }, snoop);
    expect(inEval.stdout).not.toContain(HIDDEN);
    expect(inEval.stdout).not.toContain("a + b");
    expect(inEval.stdout).toContain("export const dep = 1;");
    // The task's own worktree is there, writable, as in any run.
    expect(run({ [EVAL_PROJECT_VAR]: root }, "echo ok > mine.txt && cat mine.txt").stdout).toBe("ok\n");
  });
});
