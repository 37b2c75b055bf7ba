import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { suiteScope } from "../../../src/eval/suite-scope.js";

// Which test files run when some files differ from a tree whose results are known (the judge's hidden tests): those
// files' tests and every test importing (through others) a changed file; anything the static imports cannot vouch for
// runs the whole suite, with the reason.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T = 'import { test } from "node:test";\n';
const BASE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
  "src/shared.js": "export const scale = (x) => x * 2;\n",
  "src/a.js": 'import { scale } from "./shared.js";\nexport const a = (x) => scale(x) + 1;\n',
  "src/b.js": "export const b = (x) => x;\n",
  "src/c.js": "export const c = (x) => x;\n",
  "test/a.test.js": `${T}import { a } from "../src/a.js";\ntest("a", () => a(1));\n`,
  "test/b.test.js": `${T}import { b } from "../src/b.js";\ntest("b", () => b(1));\n`,
  "test/c.test.js": `${T}const { c } = require("../src/c.js");\ntest("c", () => c(1));\n`,
  "test/helpers/make.js": 'export { b } from "../../src/b.js";\n',
  "test/uses-helper.test.js": `${T}import { b } from "./helpers/make.js";\ntest("h", () => b(1));\n`,
  "docs/guide.md": "# guide\n",
};

function scope(extra: Record<string, string>, changed: Record<string, string | null>, testFiles: string[], command = "npm test", env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), "yolo-scope-"));
  dirs.push(dir);
  const files = { ...BASE, ...extra };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const gates = [{ name: "test", command, required: true, timeoutS: 60 }];
  return suiteScope({ dir, files: Object.keys(files), changed: new Map(Object.entries(changed)), testFiles, gates, env });
}

describe("the parent's run of a history candidate", () => {
  it("is narrowed to the commit's tests and the tests importing what it changes, through helpers too", () => {
    const s = scope({}, { "src/b.js": "export const b = (x) => x + 1;\n" }, ["test/b.test.js"]);
    expect(s).toMatchObject({ narrowed: true, files: ["test/b.test.js", "test/helpers/make.js", "test/uses-helper.test.js"] });
    if (s.narrowed) expect(s.gates[0].command).toBe("node --test 'test/b.test.js' 'test/helpers/make.js' 'test/uses-helper.test.js'");
  });

  it("follows a change to a shared module to every test reaching it, and require() as well as import", () => {
    const s = scope({}, { "src/shared.js": "export const scale = (x) => x * 3;\n", "src/c.js": "export const c = (x) => x + 1;\n" }, ["test/a.test.js"]);
    expect(s).toMatchObject({ narrowed: true, files: ["test/a.test.js", "test/c.test.js"] });
  });

  it("counts an import the commit adds to a changed module, read from the commit's text", () => {
    const atCommit = 'import { c } from "./c.js";\nexport const b = (x) => c(x);\n';
    const s = scope({}, { "src/b.js": atCommit, "src/c.js": "export const c = (x) => x + 2;\n" }, ["test/b.test.js"]);
    expect(s).toMatchObject({ narrowed: true });
    if (s.narrowed) expect(s.files).toEqual(["test/b.test.js", "test/c.test.js", "test/helpers/make.js", "test/uses-helper.test.js"]);
  });

  it("ignores documentation the commit changes", () => {
    expect(scope({}, { "src/b.js": "", "docs/guide.md": "# new\n" }, ["test/b.test.js"])).toMatchObject({ narrowed: true });
  });

  it.each([
    ["a data file a test may read", {}, { "src/b.js": "", "test/fixtures/data.txt": "1\n" }, /changes test\/fixtures\/data\.txt, which a test may read/],
    ["package.json", {}, { "src/b.js": "", "package.json": "{}" }, /changes package\.json/],
    ["a module no test imports", { "src/cli.js": "export {};\n" }, { "src/cli.js": "export const x = 1;\n" }, /no test imports src\/cli\.js/],
    [
      "a computed import",
      { "test/d.test.js": `${T}const m = await import("../src/" + "b.js");\n` },
      { "src/b.js": "" },
      /test\/d\.test\.js loads a module by a name computed at run time/,
    ],
    [
      "the project's own package name",
      { "test/d.test.js": `${T}import "demo/src/b.js";\n` },
      { "src/b.js": "" },
      /imports the project's own "demo\/src\/b\.js"/,
    ],
    [
      "a test outside the scope that starts processes",
      { "test/cli.test.js": `${T}import { execFileSync } from "node:child_process";\n` },
      { "src/b.js": "" },
      /test\/cli\.test\.js starts processes/,
    ],
    [
      "a test outside the scope that reads files by path (a hidden fixture no import names)",
      { "test/golden.test.js": `${T}import { readFileSync } from "node:fs";\nreadFileSync(new URL("./fixtures/g.json", import.meta.url));\n` },
      { "src/b.js": "" },
      /test\/golden\.test\.js reads files by path/,
    ],
    [
      "a file the suite runs that is not among the commit's tests",
      {},
      { "src/b.js": "", "test/test-extra.js": "" },
      /changes test\/test-extra\.js, which the suite runs as a test file/,
    ],
    ["a change every test file reaches", {}, { "src/shared.js": "", "src/b.js": "", "src/c.js": "" }, /every test file reaches the change/],
  ])("runs the whole suite for %s", (_what, extra, changed, reason) => {
    const s = scope(extra, changed, ["test/b.test.js"]);
    expect(s.narrowed).toBe(false);
    if (!s.narrowed) expect(s.reason).toMatch(reason);
  });

  it("runs the whole suite for a runner it does not narrow, and under a preloading NODE_OPTIONS", () => {
    expect(scope({}, { "src/b.js": "" }, ["test/b.test.js"], "npx vitest run")).toMatchObject({
      narrowed: false,
      reason: expect.stringMatching(/not `node --test <paths>`/),
    });
    expect(scope({}, { "src/b.js": "" }, ["test/b.test.js"], "npm test", { NODE_OPTIONS: "--import ./setup.js" })).toMatchObject({
      narrowed: false,
      reason: expect.stringMatching(/NODE_OPTIONS preloads/),
    });
  });
});
