import { describe, it } from "vitest";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { mockWith, project } from "../helpers/per-test.js";

// The suite writes a cache file outside the project, as Go and Gradle do: the sandbox keeps it read-only.
const WRITES_OUTSIDE = `import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
writeFileSync("/var/tmp/yolo-env-failure-cache", "");
`;

describe.runIf(probeBwrap(process.env.PATH).available)("a gate the environment broke", { timeout: 240_000 }, () => {
  it("is worded as an environment failure with its line and the fix, ends the run (exit 2), and dev is never sent it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node cache.mjs && node --test test/" } }),
      "cache.mjs": WRITES_OUTSIDE,
    });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("failed because of its environment (a read-only file system), not because of the code");
    expect(r.stderr).toMatch(/EROFS: read-only file system, open '\/var\/tmp\/yolo-env-failure-cache'/);
    expect(r.stderr).toContain("Nothing was sent to dev");
    const baseline = parseEvents(r.stdout).find((e) => e.type === "gate.result" && e.gate.baseline);
    expect(baseline?.type === "gate.result" && baseline.gate.environment?.kind).toBe("read-only");
    expect(rolesOf(mock)).not.toContain("dev");

    // The environment fixed (the suite no longer writes outside the project), the thread resumes and passes.
    writeFileSync(join(root, "cache.mjs"), "");
    const resumed = await runYolo(["resume", threadIdFrom(r.stdout), "--json"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(rolesOf(mock)).toContain("dev");
  });

  // A src-layout package (src/calc/) that is not installed, as a fresh clone of many Python projects is: every test
  // fails to import it at the baseline, the same in the user's terminal, and no change to the code fixes that.
  it("a src-layout Python package the tests cannot import: the project is not installed (exit 2), dev never asked", async ({ expect, onTestFinished }) => {
    const pyproject = '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n';
    const root = project(onTestFinished, {
      "pyproject.toml": pyproject,
      "src/calc/__init__.py": "def add(a, b):\n    return a - b\n",
      "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    });
    rmSync(join(root, "package.json"));
    rmSync(join(root, "test"), { recursive: true });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "python only"], { cwd: root });
    const fix = [
      call("write_file", { path: "src/calc/__init__.py", content: "def add(a, b):\n    return a + b\n" }),
      handoff({ summary: "fixed add", files_changed: ["src/calc/__init__.py"] }),
    ];
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: fix, tea: [teaSays("PASS")] }));
    const env = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };
    const r = await runYolo(["run", "--json", "Fix add()"], { cwd: root, baseURL: mock.url, env });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("failed because of its environment (the project is not installed), not because of the code");
    expect(r.stderr).toContain("ModuleNotFoundError: No module named 'calc'");
    expect(r.stderr).toContain("pip install -e .");
    expect(rolesOf(mock)).not.toContain("dev");
    // The run ended before a checkpoint held the baseline, yet show, the report and JUnit still show the refused run.
    const thread = threadIdFrom(r.stdout);
    const report = await runYolo(["report", thread], { cwd: root, env });
    expect(report.stdout).not.toContain("No gate has run");
    expect(report.stdout).toMatch(
      /\| 0 \| test \| `pytest[^`]*` \| ❌ failed \(baseline, exit 1\) — the environment's failure: the project is not installed \|/,
    );
    const shown = await runYolo(["show", thread], { cwd: root, env });
    expect(shown.stdout).toMatch(/Gate results:\n- attempt 0 test \(pytest[^)]*\): failed, exit 1/);
    const junit = await runYolo(["report", thread, "--format", "junit"], { cwd: root, env });
    expect(junit.stdout).toMatch(
      /<testcase classname="yolo.gates" name="test"[^>]*>\n {6}<failure message="`pytest[^`]*` exit 1: 0 passed, 1 failed — the environment's failure: the project is not installed" type="environment">/,
    );

    // Told where the package is, the thread resumes at the baseline and the fix passes.
    writeFileSync(join(root, "pyproject.toml"), `${pyproject}pythonpath = ["src"]\n`);
    const resumed = await runYolo(["resume", thread, "--json"], { cwd: root, baseURL: mock.url, env });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const fixed = parseEvents(resumed.stdout).flatMap((e) => (e.type === "gate.result" && !e.gate.baseline ? (e.gate.fixed ?? []) : []));
    expect(fixed).toContain("tests/test_calc.py::test_add");
    // The refused run is history once the gates ran again: the report shows the runs the thread holds, and no other.
    const after = await runYolo(["report", thread], { cwd: root, env });
    expect(after.stdout).toContain("Baseline before any agent changed a file: test failed (1 test).");
    expect(after.stdout).not.toContain("environment's failure");
  });
});
