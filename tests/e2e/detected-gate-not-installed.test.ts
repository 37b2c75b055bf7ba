import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// A Python project whose pyproject configures ruff, on a machine without ruff (none is installed here): the run used
// to stop at the baseline (exit 2, "failed because of its environment") before any agent worked.
const PYTHON = {
  "pyproject.toml": '[project]\nname = "demo"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = 100\n',
  "tests/test_two.py": "def test_two():\n    assert 1 + 1 == 2\n",
};
// Python alone: the fixture's package.json and node test go.
function pythonProject(onTestFinished: Parameters<typeof project>[0], files: Record<string, string> = {}): string {
  const root = project(onTestFinished, { ...PYTHON, ...files });
  rmSync(join(root, "package.json"));
  rmSync(join(root, "test"), { recursive: true });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "python only"], { cwd: root });
  return root;
}

// The machine's pytest plugins (hypothesis, benchmark) cost seconds a run; the test needs none of them.
const env = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };
const script = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });

describe("a detected gate whose tool is not installed", { timeout: 180_000 }, () => {
  it("is left out with one warning at the start; the run ends 0 on the tests that pass", async ({ expect, onTestFinished }) => {
    const root = pythonProject(onTestFinished);
    const mock = await mockWith(onTestFinished, script());
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url, env });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const events = parseEvents(r.stdout);
    const warnings = events.flatMap((e) => (e.type === "warning" && /ruff/.test(e.message) ? [e.message] : []));
    expect(warnings).toEqual([expect.stringMatching(/detected gate "ruff" \(ruff check \.\) is left out of this run: ruff is not installed/)]);
    const gates = events.flatMap((e) => (e.type === "gate.result" ? [e.gate.name] : []));
    expect(gates).toContain("test");
    expect(gates).not.toContain("ruff");

    const doctor = await runYolo(["doctor", "--json"], { cwd: root, baseURL: mock.url, env: { ...env, YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    const left = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks.find(
      (c) => c.id === "gates:left-out:ruff",
    );
    expect(left, doctor.stdout).toMatchObject({ status: "warn", detail: expect.stringContaining("ruff is not installed") });
  });

  it("configured, it still stops the run as the environment's failure", async ({ expect, onTestFinished }) => {
    const root = pythonProject(onTestFinished, {
      "yolo.config.ts": 'export default { gates: [{ name: "test", command: "pytest -rA" }, { name: "ruff", command: "ruff check .", required: false }] };\n',
    });
    const mock = await mockWith(onTestFinished, script());
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url, env });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/ruff/);
  });
});
