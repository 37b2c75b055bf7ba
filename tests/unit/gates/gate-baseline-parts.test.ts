import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diffGateDefinition, resolveGateDefinition, scriptsRun } from "../../../src/gates/definition.js";
import { judgeGate } from "../../../src/gates/judge.js";
import { globToRegExp, parseJUnitXml, readJUnitReports } from "../../../src/gates/junit-reports.js";
import { testCasesFromOutput } from "../../../src/gates/test-cases.js";
import { gateResult } from "../../helpers/gate-result.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "yolo-def-"));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}
const npmTest = [{ name: "test", command: "npm test", required: true, timeoutS: 60 }];

describe("what defines a gate", () => {
  it("follows npm run chains and pre/post scripts, and ignores unrelated scripts", () => {
    const scripts = { pretest: "npm run lint", test: "npm run unit && yarn e2e", unit: "vitest run", e2e: "node e2e.js", lint: "eslint .", build: "tsc" };
    expect(scriptsRun("npm test", scripts)).toEqual({
      pretest: "npm run lint",
      lint: "eslint .",
      test: "npm run unit && yarn e2e",
      unit: "vitest run",
      e2e: "node e2e.js",
    });
  });

  it("names a changed script, a removed config, a deleted or emptied test file, and added focus/skip markers; added tests are fine", async () => {
    const before = await resolveGateDefinition(
      tree({
        "package.json": JSON.stringify({ scripts: { test: "jest" }, jest: { testMatch: ["**/*.test.js"] } }),
        "jest.config.js": "module.exports = {};",
        "src/a.test.js": 'test("a", () => {});',
        "src/b.test.js": 'it("b", () => {});',
        "tests/test_x.py": "def test_x():\n    assert True\n",
        "node_modules/dep/x.test.js": "test('ignored', () => {})",
        "src/app.js": "export {}",
      }),
      npmTest,
    );
    expect(Object.keys(before.testFiles).sort()).toEqual(["src/a.test.js", "src/b.test.js", "tests/test_x.py"]);
    expect(Object.keys(before.configs).sort()).toEqual(["jest.config.js", "package.json#jest"]);
    const after = await resolveGateDefinition(
      tree({
        "package.json": JSON.stringify({ scripts: { test: "jest --passWithNoTests" }, jest: { testMatch: [] } }),
        "src/a.test.js": "// gone",
        "tests/test_x.py": "import pytest\n\n@pytest.mark.skip\ndef test_x():\n    assert True\n",
        "src/new.test.js": 'test.only("n", () => {});',
        "src/app.js": "export const changed = 1;",
      }),
      npmTest,
    );
    expect(diffGateDefinition(before, after)).toEqual([
      'package.json scripts.test changed from "jest" to "jest --passWithNoTests"',
      "test runner config package.json#jest was changed",
      "test runner config jest.config.js was removed",
      // The installed package the baseline had is gone (dependency-stamps.ts).
      "installed dependency node_modules/dep was removed",
      "test file src/a.test.js was emptied (no tests left in it)",
      "test file src/b.test.js was deleted",
      "pytest skip added in test file tests/test_x.py (0 → 1)",
      ".only added in test file src/new.test.js (0 → 1)",
    ]);
    expect(diffGateDefinition(before, before)).toEqual([]);
  });

  it("names a changed installed dependency and a re-pointed module resolution field (package.json imports, tsconfig paths)", async () => {
    const pkg = (target: string) => JSON.stringify({ scripts: { test: "node --test" }, imports: { "#check": target } });
    const files = {
      "package.json": pkg("./lib/check.js"),
      "tsconfig.json": '{\n  // comments are allowed\n  "compilerOptions": { "paths": { "@lib/*": ["lib/*"] }, "strict": true },\n}\n',
      "node_modules/tiny-assert/index.js": "export function equal(a, b) { if (a !== b) throw new Error('no'); }\n",
      "node_modules/tiny-assert/package.json": '{"name":"tiny-assert"}',
      "node_modules/.cache/x": "cache",
    };
    const root = tree(files);
    const before = await resolveGateDefinition(root, npmTest);
    // A runner's cache inside node_modules and a strictness flag in tsconfig are not gate changes.
    writeFileSync(join(root, "node_modules/.cache/x"), "other cache");
    writeFileSync(join(root, "tsconfig.json"), files["tsconfig.json"].replace('"strict": true', '"strict": false'));
    expect(diffGateDefinition(before, await resolveGateDefinition(root, npmTest))).toEqual([]);
    writeFileSync(join(root, "node_modules/tiny-assert/index.js"), "export function equal() {}\n");
    writeFileSync(join(root, "package.json"), pkg("./lib/stub.js"));
    writeFileSync(join(root, "tsconfig.json"), files["tsconfig.json"].replace('["lib/*"]', '["stub/*"]'));
    expect(diffGateDefinition(before, await resolveGateDefinition(root, npmTest))).toEqual([
      "module resolution package.json#imports was changed",
      "module resolution tsconfig.json#paths was changed",
      "installed dependency node_modules/tiny-assert was changed",
    ]);
  });

  it("reads only the test sections of shared files such as pyproject.toml", async () => {
    const pyproject = (deps: string, opts: string) => `[project]\ndependencies = [${deps}]\n\n[tool.pytest.ini_options]\naddopts = "${opts}"\n`;
    const gates = [{ name: "py", command: "pytest", required: true, timeoutS: 60 }];
    const a = await resolveGateDefinition(tree({ "pyproject.toml": pyproject('"a"', "-q") }), gates);
    const b = await resolveGateDefinition(tree({ "pyproject.toml": pyproject('"a", "b"', "-q") }), gates);
    const c = await resolveGateDefinition(tree({ "pyproject.toml": pyproject('"a"', "-q --ignore=tests") }), gates);
    expect(diffGateDefinition(a, b)).toEqual([]);
    expect(diffGateDefinition(a, c)).toEqual(["test runner config pyproject.toml was changed"]);
  });
});

describe("per-test results from runner output", () => {
  it("reads node's TAP: leaves only, with suites as ancestors, skips, and a file that failed to load made relative", () => {
    const tap = [
      "TAP version 13",
      "# Subtest: adds",
      "ok 1 - adds",
      "# Subtest: suite",
      "    # Subtest: inner ok",
      "    ok 1 - inner ok",
      "    # Subtest: inner bad",
      "    not ok 2 - inner bad",
      "    # Subtest: sk",
      "    ok 3 - sk # SKIP",
      "not ok 2 - suite",
      "# Subtest: /root/p/test/b.test.js",
      "not ok 3 - /root/p/test/b.test.js",
      "1..3",
      "# pass 2",
      "# fail 2",
    ].join("\n");
    expect(testCasesFromOutput(tap, "/root/p")).toEqual([
      { id: "adds", status: "passed" },
      { id: "suite > inner ok", status: "passed" },
      { id: "suite > inner bad", status: "failed" },
      { id: "suite > sk", status: "skipped" },
      { id: "test/b.test.js", status: "failed" },
    ]);
  });

  it("reads node's spec reporter and pytest -rA", () => {
    const spec = "✔ adds (1.2ms)\n▶ suite\n  ✔ inner ok (0.3ms)\n  ✖ inner bad (1ms)\n▶ suite (2ms)\nℹ tests 3\nℹ pass 2\nℹ fail 1\n";
    expect(testCasesFromOutput(spec, "/r")).toEqual([
      { id: "adds", status: "passed" },
      { id: "suite > inner ok", status: "passed" },
      { id: "suite > inner bad", status: "failed" },
    ]);
    const py =
      "===== short test summary info =====\nPASSED tests/test_a.py::test_one\nFAILED tests/test_a.py::test_two - assert 1 == 2\n===== 1 failed, 1 passed in 0.03s =====\n";
    expect(testCasesFromOutput(py, "/r")).toEqual([
      { id: "tests/test_a.py::test_one", status: "passed" },
      { id: "tests/test_a.py::test_two", status: "failed" },
    ]);
    expect(testCasesFromOutput("Tests: 3 passed, 3 total", "/r")).toBeNull();
  });

  it("reads JUnit XML reports a gate names by glob, only the ones written during the run", async () => {
    const xml = `<?xml version="1.0"?><testsuite name="calc.AddTest"><testcase classname="calc.AddTest" name="adds"/><testcase classname="calc.AddTest" name="neg &amp; pos"><failure message="x"/></testcase><testcase classname="calc.AddTest" name="later"><skipped/></testcase></testsuite>`;
    expect(parseJUnitXml(xml)).toEqual([
      { id: "calc.AddTest > adds", status: "passed" },
      { id: "calc.AddTest > neg & pos", status: "failed" },
      { id: "calc.AddTest > later", status: "skipped" },
    ]);
    expect(globToRegExp("target/surefire-reports/*.xml").test("target/surefire-reports/TEST-a.xml")).toBe(true);
    expect(globToRegExp("**/build/test-results/**/*.xml").test("app/build/test-results/test/TEST-a.xml")).toBe(true);
    const root = tree({ "target/surefire-reports/TEST-a.xml": xml, "target/surefire-reports/old.xml": xml });
    utimesSync(join(root, "target/surefire-reports/old.xml"), 1000, 1000);
    expect(await readJUnitReports(root, ["target/surefire-reports/*.xml"], Date.now() - 60_000)).toHaveLength(3);
    expect(await readJUnitReports(root, ["nothing/*.xml"])).toBeNull();
  });
});

const result = gateResult;
const base = (tests: Array<[string, "passed" | "failed"]>) => ({
  name: "test",
  passed: false,
  passedCount: null,
  failedCount: null,
  tests: tests.map(([id, status]) => ({ id, status })),
});
// `baseline: "report"` (the old default, now an opt-in): failures there at the baseline do not block.
const opts = { preExistingAllowed: true, changes: [] as string[], approved: false };

describe("judging a run against the baseline", () => {
  it('under baseline: "report" pre-existing failures do not block, by default they do; new failures and regressions block', () => {
    const b = base([
      ["a", "passed"],
      ["old", "failed"],
    ]);
    const same = judgeGate(
      result(),
      [
        { id: "a", status: "passed" },
        { id: "old", status: "failed" },
      ],
      b,
      opts,
    );
    expect(same).toMatchObject({ blocking: false, preExisting: ["old"], regressions: [] });
    expect(
      judgeGate(
        result(),
        [
          { id: "a", status: "passed" },
          { id: "old", status: "failed" },
        ],
        b,
        { ...opts, preExistingAllowed: false },
      ).blocking,
    ).toBe(true);
    expect(
      judgeGate(
        result(),
        [
          { id: "a", status: "failed" },
          { id: "old", status: "failed" },
        ],
        b,
        opts,
      ),
    ).toMatchObject({ blocking: true, regressions: ["a"] });
    expect(
      judgeGate(
        result(),
        [
          { id: "a", status: "passed" },
          { id: "n", status: "failed" },
        ],
        b,
        opts,
      ),
    ).toMatchObject({ blocking: true, newFailures: ["n"] });
  });

  it("a missing test blocks even on exit 0, unless a human approved the gate change that removed it", () => {
    const b = base([
      ["a", "passed"],
      ["b", "passed"],
    ]);
    const green = result({ passed: true, exitCode: 0 });
    expect(judgeGate(green, [{ id: "a", status: "passed" }], b, opts)).toMatchObject({
      blocking: true,
      missing: ["b"],
      regressions: ["b"],
      findings: ["fewer tests than the baseline: 1, was 2"],
    });
    expect(judgeGate(green, null, b, opts)).toMatchObject({ blocking: true, regressions: ["a", "b"] });
    expect(judgeGate(green, [{ id: "a", status: "passed" }], b, { ...opts, changes: ["x"], approved: true })).toMatchObject({
      blocking: false,
      regressions: [],
    });
  });

  it("a red run with nothing listed as failing, or a timeout, is not explained by pre-existing failures", () => {
    const b = base([["old", "failed"]]);
    expect(judgeGate(result(), [], b, opts).blocking).toBe(true);
    expect(judgeGate(result({ timedOut: true }), [{ id: "old", status: "failed" }], b, opts).blocking).toBe(true);
  });

  it("an unapproved gate change blocks a green run; counts only fall back to the exit code", () => {
    expect(judgeGate(result({ passed: true, exitCode: 0 }), [], base([]), { ...opts, changes: ["scripts.test changed"] })).toMatchObject({
      blocking: true,
      gateChange: ["scripts.test changed"],
    });
    const counts = { name: "test", passed: false, passedCount: 3, failedCount: 1, tests: null };
    expect(judgeGate(result({ passedCount: 3, failedCount: 1 }), null, counts, opts).blocking).toBe(true);
    expect(judgeGate(result({ passed: true, exitCode: 0, passedCount: 2, failedCount: 0 }), null, counts, opts)).toMatchObject({
      blocking: false,
      findings: ["fewer tests than the baseline: 2, was 4"],
    });
    expect(judgeGate(result({ required: false }), [{ id: "x", status: "failed" }], base([]), opts).blocking).toBe(false);
  });
});
