import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTasksFromHistory } from "../../../src/eval/build.js";
import { candidateCommits } from "../../../src/eval/commits.js";
import { runSuite, targetsAndGuards } from "../../../src/eval/suite.js";
import { addWorktree, removeWorktree, takeFilesFrom } from "../../../src/eval/worktree.js";
import { commitFiles, HOST_SUITE, NODE_TEST_HEAD } from "../../helpers/eval-build-repo.js";

// Building tasks from history carries test files' results from tree to tree by their import closure, two candidates
// at a time: every task's targets and guards, and every discard, must be what running the whole suite at both ends gives.
// Real git, real `node --test`; the reference runs the whole suite itself.

const T = NODE_TEST_HEAD;
let root: string;
let base: string;
const settings = HOST_SUITE;
const commit = (message: string, files: Record<string, string>) => commitFiles(root, message, files);

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-narrowed-build-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  commit("start", {
    "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
    "src/shared.js": "export const scale = (x) => x * 2;\n",
    "src/b.js": "export const b = (x) => x - 1;\n",
    "src/words.js":
      'import { readFileSync } from "node:fs";\nexport const words = () => readFileSync(new URL("../data/words.txt", import.meta.url), "utf8").trim().split("\\n");\n',
    "data/words.txt": "one\n",
    // Imports the shared module and expects what only the shared fix gives: a target no commit's test file holds.
    "test/uses-shared.test.js": `${T}import { scale } from "../src/shared.js";\ntest("scale triples", () => assert.equal(scale(1), 3));\ntest("scale zero", () => assert.equal(scale(0), 0));\n`,
    "test/words.test.js": `${T}import { words } from "../src/words.js";\ntest("two words", () => assert.equal(words().length, 2));\n`,
    "test/broken.test.js": `${T}test("always broken", () => assert.fail("no"));\n`,
    "test/truth.test.js": `${T}test("truth", () => assert.ok(true));\n`,
  });
  base = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  commit("Fix b", {
    "src/b.js": "export const b = (x) => x + 1;\n",
    "test/b.test.js": `${T}import { b } from "../src/b.js";\ntest("b adds", () => assert.equal(b(1), 2));\n`,
  });
  commit("Fix scale", {
    "src/shared.js": "export const scale = (x) => x * 3;\n",
    "test/shared.test.js": `${T}import { scale } from "../src/shared.js";\ntest("scale", () => assert.equal(scale(2), 6));\n`,
  });
  // The data file is read, never imported: the whole suite runs at the parent.
  commit("Add a word", {
    "data/words.txt": "one\ntwo\n",
    "src/words.js":
      'import { readFileSync } from "node:fs";\n// words, one a line\nexport const words = () => readFileSync(new URL("../data/words.txt", import.meta.url), "utf8").trim().split("\\n");\n',
    "test/words-more.test.js": `${T}import { words } from "../src/words.js";\ntest("first word", () => assert.equal(words()[0], "one"));\n`,
  });
  commit("Refactor b", {
    "src/b.js": "export const b = (x) => 1 + x;\n",
    "test/b.test.js": `${T}import { b } from "../src/b.js";\ntest("b adds", () => assert.equal(b(1), 2));\ntest("b zero", () => assert.equal(b(0), 1));\n`,
  });
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Targets and guards from the whole suite at the parent with the commit's tests and at the commit. */
async function reference(c: { commit: string; parent: string; testFiles: string[] }, dir: string) {
  await addWorktree(root, dir, c.parent);
  await takeFilesFrom(dir, c.commit, c.testFiles);
  const before = await runSuite(dir, [{ name: "test", command: "npm test", required: true, timeoutS: 120 }], join(dir, "..", "ref-logs-b"), settings);
  execFileSync("git", ["checkout", "-q", "--force", "--detach", c.commit], { cwd: dir });
  const after = await runSuite(dir, [{ name: "test", command: "npm test", required: true, timeoutS: 120 }], join(dir, "..", "ref-logs-a"), settings);
  await removeWorktree(root, dir);
  if (!before.ok || !after.ok) throw new Error("the reference suite did not run");
  return targetsAndGuards(before.tests, after.tests);
}

describe("a history build with test files' results carried", { timeout: 300_000 }, () => {
  it("gives every candidate the targets, guards and discards of whole-suite runs at both ends", async () => {
    const workDir = join(root, ".yolo", "eval", "work");
    const built = await buildTasksFromHistory({ root, range: `${base}..HEAD`, max: null, gates: null, workDir, suite: settings, parallel: 2 });
    const candidates = await candidateCommits(root, `${base}..HEAD`, null);
    expect(built.tasks.map((t) => t.requirement)).toEqual(["Fix b", "Fix scale", "Add a word"]);
    expect(built.discarded.map((d) => d.subject)).toEqual(["Refactor b"]);
    // The always-broken test is outside the narrowed run: it keeps its failure at the parent, as a whole run finds it.
    expect(built.discarded[0].reason).toMatch(/its targets do not pass after: the 1 test\(s\) failing .*always broken/);
    for (const task of built.tasks) {
      const c = candidates.find((x) => x.commit === task.commit) as (typeof candidates)[number];
      const expected = await reference(c, join(root, ".yolo", "ref"));
      expect({ id: task.requirement, targets: task.targets, guards: task.guards }).toEqual({ id: task.requirement, ...expected });
    }
    const scale = built.tasks[1];
    expect(scale.targets).toEqual(["test: scale", "test: scale triples"]);
    expect(scale.guards).toContain("test: scale zero");
    expect(scale.guards).toContain("test: truth");
    // Carried file by file where the imports vouch for it; the tests reading a data file by path run at every end.
    const logs = (t: { commit: string }, end: string) => join(workDir, "logs", t.commit.slice(0, 12), end);
    for (const t of built.tasks) for (const end of ["before", "after"]) expect(existsSync(join(logs(t, end), "unkeyed"))).toBe(true);
    expect(built.tasks.some((t) => existsSync(join(logs(t, "after"), "whole")))).toBe(false);
  });
});
