import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTasksFromHistory } from "../../../src/eval/build.js";
import { candidateCommits } from "../../../src/eval/commits.js";
import { runSuite, targetsAndGuards } from "../../../src/eval/suite.js";
import { addWorktree, removeWorktree, takeFilesFrom } from "../../../src/eval/worktree.js";
import { commitFiles, HOST_SUITE, NODE_TEST_HEAD } from "../../helpers/eval-build-repo.js";

// A history build carries each test file's results from tree to tree by a key over the file and its static import
// closure (with the runner's command and config): a file runs only where its key is new, or every time when it
// reads files by path; a changed runner config runs them all. The verdicts stay those of whole-suite runs at both
// ends. Real git, real `node --test`; which files ran is read from the logs each run leaves.

const T = NODE_TEST_HEAD;
let root: string;
let base: string;
const settings = HOST_SUITE;
const commit = (message: string, files: Record<string, string>) => commitFiles(root, message, files);

const pkg = (more: object = {}) => JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" }, ...more });

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-carried-build-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  commit("start", {
    "package.json": pkg(),
    "src/b.js": "export const b = (x) => x - 1;\n",
    "src/c.js": "export const c = (x) => x;\n",
    "src/shared.js": "export const scale = (x) => x * 2;\n",
    // A helper outside the test folder (node does not run it): the test importing it depends on its bytes.
    "support/scale.js": 'import { scale } from "../src/shared.js";\nexport const triple = (x) => scale(x) + x;\n',
    "src/words.js":
      'import { readFileSync } from "node:fs";\nexport const words = () => readFileSync(new URL("../data/words.txt", import.meta.url), "utf8").trim().split("\\n");\n',
    "data/words.txt": "one\ntwo\n",
    "test/truth.test.js": `${T}test("truth", () => assert.ok(true));\n`,
    "test/c.test.js": `${T}import { c } from "../src/c.js";\ntest("c keeps", () => assert.equal(c(1), 1));\n`,
    "test/uses-helper.test.js": `${T}import { triple } from "../support/scale.js";\ntest("triple", () => assert.equal(triple(1), 3));\n`,
    "test/words.test.js": `${T}import { words } from "../src/words.js";\ntest("two words", () => assert.equal(words().length, 2));\n`,
  });
  base = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  commit("Fix b", {
    "src/b.js": "export const b = (x) => x + 1;\n",
    "test/b.test.js": `${T}import { b } from "../src/b.js";\ntest("b adds", () => assert.equal(b(1), 2));\n`,
  });
  commit("Fix the helper", {
    "support/scale.js": 'import { scale } from "../src/shared.js";\nexport const triple = (x) => scale(x) + x;\nexport const quad = (x) => scale(scale(x));\n',
    "test/quad.test.js": `${T}import { quad } from "../support/scale.js";\ntest("quad", () => assert.equal(quad(1), 4));\n`,
  });
  commit("Make c double, with a package.json change", {
    "package.json": pkg({ description: "demo" }),
    "src/c.js": "export const c = (x) => x * 2;\n",
    "test/c.test.js": `${T}import { c } from "../src/c.js";\ntest("c doubles", () => assert.equal(c(1), 2));\n`,
  });
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Targets and guards from the whole suite at the parent with the commit's tests and at the commit. */
async function reference(c: { commit: string; parent: string; testFiles: string[] }, dir: string) {
  const gates = [{ name: "test", command: "npm test", required: true, timeoutS: 120 }];
  await addWorktree(root, dir, c.parent);
  await takeFilesFrom(dir, c.commit, c.testFiles);
  const before = await runSuite(dir, gates, join(dir, "..", "ref-logs-b"), settings);
  execFileSync("git", ["checkout", "-q", "--force", "--detach", c.commit], { cwd: dir });
  const after = await runSuite(dir, gates, join(dir, "..", "ref-logs-a"), settings);
  await removeWorktree(root, dir);
  if (!before.ok || !after.ok) throw new Error("the reference suite did not run");
  return targetsAndGuards(before.tests, after.tests);
}

/** The test files run at one end of a candidate: alone (keyed) and together (unkeyed), from the logs. */
function ran(workDir: string, commit: string, end: "before" | "after") {
  const dir = join(workDir, "logs", commit.slice(0, 12), end);
  const alone = existsSync(join(dir, "files")) ? readdirSync(join(dir, "files")) : [];
  return {
    alone: alone
      .map((f) =>
        f
          .replace(/^attempt-1-test-/, "")
          .replace(/\.log$/, "")
          .replace(/^test-/, "test/"),
      )
      .sort(),
    unkeyed: existsSync(join(dir, "unkeyed")),
    whole: existsSync(join(dir, "whole")),
  };
}

describe("a history build carrying test files' results by their import closure", { timeout: 300_000 }, () => {
  it("runs a file only where its key is new, keeps the verdicts of whole-suite runs, and carries them to the next build", async () => {
    const workDir = join(root, ".yolo", "eval", "work");
    const built = await buildTasksFromHistory({ root, range: `${base}..HEAD`, max: null, gates: null, workDir, suite: settings, parallel: 1 });
    expect(built.discarded).toEqual([]);
    const [fixB, helper, doubleC] = built.tasks;
    expect(built.tasks.map((t) => t.requirement)).toEqual(["Fix b", "Fix the helper", "Make c double, with a package.json change"]);
    const candidates = await candidateCommits(root, `${base}..HEAD`, null);
    for (const task of built.tasks) {
      const c = candidates.find((x) => x.commit === task.commit) as (typeof candidates)[number];
      expect({ id: task.requirement, targets: task.targets, guards: task.guards }).toEqual({
        id: task.requirement,
        ...(await reference(c, join(root, ".yolo", "ref"))),
      });
    }
    const everyKeyed = ["test/b.test.js", "test/c.test.js", "test/truth.test.js", "test/uses-helper.test.js"];
    // The first tree runs every keyed file alone; the test reading a data file by path runs at every end, unkeyed.
    expect(ran(workDir, fixB.commit, "before")).toEqual({ alone: everyKeyed, unkeyed: true, whole: false });
    expect(ran(workDir, fixB.commit, "after")).toEqual({ alone: ["test/b.test.js"], unkeyed: true, whole: false });
    // A changed helper a test imports invalidates that test's key, and no other.
    expect(ran(workDir, helper.commit, "before")).toEqual({ alone: ["test/quad.test.js"], unkeyed: true, whole: false });
    expect(ran(workDir, helper.commit, "after")).toEqual({ alone: ["test/quad.test.js", "test/uses-helper.test.js"], unkeyed: true, whole: false });
    // A changed package.json (the runner's config) invalidates every key at the commit.
    expect(ran(workDir, doubleC.commit, "before")).toEqual({ alone: ["test/c.test.js"], unkeyed: true, whole: false });
    expect(ran(workDir, doubleC.commit, "after").alone).toEqual([...everyKeyed, "test/quad.test.js"].sort());
    expect(doubleC.targets).toEqual(["test: c doubles"]);

    // The next build of the same range reads the results kept by this one: only the unkeyed file runs again.
    const again = await buildTasksFromHistory({ root, range: `${base}..HEAD`, max: null, gates: null, workDir, suite: settings, parallel: 1 });
    expect(again.tasks).toEqual(built.tasks);
    for (const task of again.tasks)
      for (const end of ["before", "after"] as const) expect(ran(workDir, task.commit, end)).toEqual({ alone: [], unkeyed: true, whole: false });
  });
});
