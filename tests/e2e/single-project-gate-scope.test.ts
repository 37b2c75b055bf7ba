import { describe, it } from "vitest";
import type { YoloEvent } from "../../src/events/schema.js";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { toolchain } from "../helpers/toolchain.js";

const testOf = (mod: string, n: number) =>
  `from ${mod} import f\n\n${Array.from({ length: 3 }, (_, i) => `def test_${mod}_${i}():\n    assert f(${i}) == ${i + n}\n`).join("\n")}`;

// A pytest project of three modules, each with its test file; detection makes its gate `pytest -rA`.
function pytestProject(onTestFinished: Parameters<typeof project>[0]): string {
  return project(onTestFinished, {
    "package.json": JSON.stringify({ name: "demo", private: true }),
    "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider\n",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
    "tests/conftest.py": "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n",
    "alpha.py": "def f(x):\n    return x + 1\n",
    "beta.py": "def f(x):\n    return x + 2\n",
    "gamma.py": "def f(x):\n    return x + 3\n",
    "tests/test_alpha.py": testOf("alpha", 1),
    "tests/test_beta.py": testOf("beta", 2),
    "tests/test_gamma.py": testOf("gamma", 3),
  });
}

const writesBeta = (body: string) => [
  call("write_file", { path: "beta.py", content: `def f(x):\n    return ${body}\n` }),
  handoff({ summary: "beta", files_changed: ["beta.py"] }),
];
const teaGates = (events: YoloEvent[]) => events.filter((e) => (e.type === "gate.started" && !e.baseline) || (e.type === "gate.result" && !e.gate.baseline));

describe.runIf(toolchain("pytest", ["pytest", "--version"]))("a single pytest project: fix attempts run what the change touched", { timeout: 180_000 }, () => {
  it("a broken module fails its narrowed run at once (no whole suite); the fix passes narrowed and is confirmed whole", async ({ expect, onTestFinished }) => {
    const root = pytestProject(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [...writesBeta("x - 2"), ...writesBeta("2 + x")], tea: [teaSays("FAIL"), teaSays("PASS")] }),
    );
    const r = await runYolo(["run", "--json", "Change beta"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const gates = teaGates(parseEvents(r.stdout)).map((e) => {
      if (e.type === "gate.started") return `started ${e.command} ${e.scope?.kind ?? "-"}`;
      return e.type === "gate.result" ? `result ${e.gate.passed} ${e.gate.passedCount}/${e.gate.failedCount}` : e.type;
    });
    expect(gates).toEqual([
      "started pytest -rA -p no:unraisableexception 'tests/test_beta.py' changed",
      "result false 0/3",
      "started pytest -rA -p no:unraisableexception 'tests/test_beta.py' changed",
      "result true 3/0",
      "started pytest -rA all",
      "result true 9/0",
    ]);
  });
});
