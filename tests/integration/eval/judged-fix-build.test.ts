import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTasksFromHistory } from "../../../src/eval/build.js";
import { commitFiles, HOST_SUITE } from "../../helpers/eval-build-repo.js";

// The judge keeps package.json's scripts, runner keys and module-resolution keys (`main`, `exports`, `type`, …) as
// the task's tree has them, the parent's, whatever a run writes. A commit whose fix changes one of them (jsdom's
// whatwg-mimetype moved `main` to a new `lib/index.js` with the tests requiring the package by `..`) gives a task
// not even its own fix resolves. The build measures the commit's end as the judge would take the upstream fix, so
// such a commit is discarded, saying why, while one changing package.json elsewhere (a dependency, `version`) stays a
// task. Real git, real `node --test`, CommonJS as the project is.

const HEAD = 'const { test } = require("node:test");\nconst assert = require("node:assert/strict");\n';
let root: string;
let base: string;
const commit = (message: string, files: Record<string, string>) => commitFiles(root, message, files);
const pkg = (more: object = {}) =>
  `${JSON.stringify({ name: "demo", version: "1.0.0", main: "lib/old.js", scripts: { test: "node --test test/" }, ...more }, null, 2)}\n`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-judged-fix-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  commit("start", {
    "package.json": pkg(),
    "lib/old.js": "exports.shout = (s) => s;\n",
    "lib/words.js": "exports.count = (s) => 0;\n",
    "test/truth.test.js": `${HEAD}test("truth", () => assert.ok(true));\n`,
  });
  base = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  commit("Add an entry module exporting shout", {
    "package.json": pkg({ main: "lib/index.js" }),
    "lib/index.js": "exports.shout = (s) => s.toUpperCase();\n",
    "test/entry.test.js": `${HEAD}const { shout } = require("..");\ntest("shout upper-cases", () => assert.equal(shout("a"), "A"));\n`,
  });
  commit("Count words, version 1.1.0", {
    "package.json": pkg({ main: "lib/index.js", version: "1.1.0" }),
    "lib/words.js": 'exports.count = (s) => s.split(" ").length;\n',
    "test/words.test.js": `${HEAD}const { count } = require("../lib/words.js");\ntest("count words", () => assert.equal(count("a b"), 2));\n`,
  });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a history build judges the commit's end as the judge takes the upstream fix", { timeout: 120_000 }, () => {
  it("discards a commit whose fix needs a package.json key the judge keeps, and keeps one changing package.json elsewhere", async () => {
    const workDir = join(root, ".yolo", "eval", "work", "history");
    const built = await buildTasksFromHistory({ root, range: `${base}..HEAD`, max: null, gates: null, workDir, suite: HOST_SUITE, parallel: 1 });
    expect(built.tasks.map((t) => [t.requirement, t.targets])).toEqual([["Count words, version 1.1.0", ["test: count words"]]]);
    expect(built.discarded).toEqual([
      {
        commit: expect.any(String),
        subject: "Add an entry module exporting shout",
        reason: expect.stringMatching(
          /its targets do not pass after: .*; judged as the judge takes the commit's fix, with package\.json's main kept as at the parent$/,
        ),
      },
    ]);
  });
});
