import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, type ExpectStatic, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { mockWith, tempDir } from "../helpers/per-test.js";
import { toolchain } from "../helpers/toolchain.js";

// Revert and refix through the built binary with the real pytest and go: a test fails at the baseline, dev's first
// attempt fixes it but breaks another test (the gate sends it back), the second is right. The final gate names the
// target fixed and nothing regressed or missing; the wrong attempt was judged failing.
const attempt = (file: string, content: string, summary: string): Turn[] => [
  call("write_file", { path: file, content }),
  handoff({ summary, files_changed: [file] }),
];
const script = (dev: Turn[]) => director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS"), teaSays("PASS"), teaSays("PASS")] });
// The project alone in its own git repository (no package.json: its only gate is the runner's).
function project(onTestFinished: Parameters<typeof tempDir>[0], files: Record<string, string>): string {
  const root = tempDir(onTestFinished, "yolo-refix-");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  return root;
}
type Gate = ReturnType<typeof gateResults>[number];
// The wrong attempt's runs (a narrowed one included) are failing and block, naming the test it broke; the last run,
// the whole suite, passes with the targets fixed and nothing regressed or missing.
function expectRefixed(expect: ExpectStatic, runs: Gate[], broken: string, fixed: string[]): void {
  const wrong = runs.filter((g) => g.attempt === 1);
  expect(wrong.length).toBeGreaterThan(0);
  for (const g of wrong) expect(g).toMatchObject({ passed: false, blocking: true, failures: [broken] });
  const last = runs.at(-1);
  expect(last).toMatchObject({ passed: true, blocking: false, scope: { kind: "all" } });
  expect(last?.fixed).toEqual(fixed);
  expect([...(last?.regressions ?? []), ...(last?.missing ?? []), ...(last?.newFailures ?? [])]).toEqual([]);
}
// Real toolchains on a loaded machine: each gate run can take tens of seconds.
const SLOW = 300_000;
const gateResults = (stdout: string) => parseEvents(stdout).flatMap((e) => (e.type === "gate.result" && e.gate.name.endsWith("test") ? [e.gate] : []));

const PY_TESTS = `import pytest
import calc


def test_add():
    assert calc.add(2, 3) == 5


@pytest.mark.parametrize("a,b,want", [pytest.param(2, 3, 6, id="two words"), pytest.param(0, 5, 0, id="zéro - x")])
def test_mul(a, b, want):
    assert calc.mul(a, b) == want


@pytest.mark.xfail(reason="floats")
def test_float():
    assert calc.add(0.1, 0.2) == 0.3
`;
const PY = {
  "pytest.ini": "[pytest]\n",
  "calc.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b if a else 1\n",
  "tests/__init__.py": "",
  "tests/test_calc.py": PY_TESTS,
  "tests/test_more.py": "import calc\n\n\ndef test_times_zero():\n    assert calc.mul(3, 0) == 0\n",
};
const PY_TARGET = "tests/test_calc.py::test_mul[z\\xe9ro - x]";

const GO = {
  "go.mod": "module example.com/calc\n\ngo 1.19\n",
  "calc.go": "package calc\n\nfunc Mul(a, b int) int {\n\tif a == 0 {\n\t\treturn 1\n\t}\n\treturn a * b\n}\n",
  "calc_test.go": `package calc

import "testing"

func TestMul(t *testing.T) {
	t.Run("positive", func(t *testing.T) {
		if Mul(2, 3) != 6 {
			t.Fatal("2*3")
		}
	})
	t.Run("zero first", func(t *testing.T) {
		if Mul(0, 5) != 0 {
			t.Fatal("0*5")
		}
	})
}

func TestTimesZero(t *testing.T) {
	if Mul(3, 0) != 0 {
		t.Fatal("3*0")
	}
}
`,
};

describe.concurrent("revert and refix with the real pytest and go", { timeout: 400_000 }, () => {
  it.runIf(toolchain("pytest", ["pytest", "--version"]))(
    "pytest: the wrong attempt is sent back, the right one fixes the parametrized case",
    async ({ expect, onTestFinished }) => {
      const root = project(onTestFinished, PY);
      const wrong = attempt("calc.py", PY["calc.py"].replace("a * b if a else 1", "a * b if b else 1"), "zero now multiplies");
      const right = attempt("calc.py", PY["calc.py"].replace("a * b if a else 1", "a * b"), "mul multiplies");
      const mock = await mockWith(onTestFinished, script([...wrong, ...right]));
      const r = await runYolo(["run", "--ci", "--json", "Make the failing test in tests/test_calc.py pass"], { cwd: root, baseURL: mock.url, timeoutMs: SLOW });
      expect(r.exitCode, describeResult(r)).toBe(0);
      const results = gateResults(r.stdout);
      expect(results.find((g) => g.baseline)).toMatchObject({ passed: false, reading: "structured", failures: [PY_TARGET] });
      expectRefixed(
        expect,
        results.filter((g) => !g.baseline),
        "tests/test_more.py::test_times_zero",
        [PY_TARGET],
      );
      expect(readFileSync(join(root, "calc.py"), "utf8")).toContain("return a * b\n");
    },
  );

  it.runIf(toolchain("go", ["go", "version"]))("go: the wrong attempt is sent back, the right one fixes the subtest", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, GO);
    const wrong = attempt("calc.go", GO["calc.go"].replace("if a == 0", "if b == 0"), "zero now multiplies");
    const right = attempt("calc.go", GO["calc.go"].replace("\tif a == 0 {\n\t\treturn 1\n\t}\n", ""), "Mul multiplies");
    const mock = await mockWith(onTestFinished, script([...wrong, ...right]));
    const r = await runYolo(["run", "--ci", "--json", "Make the failing test in calc_test.go pass"], { cwd: root, baseURL: mock.url, timeoutMs: SLOW });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const runs = gateResults(r.stdout).filter((g) => !g.baseline);
    expectRefixed(expect, runs, "example.com/calc TestTimesZero", ["example.com/calc TestMul", "example.com/calc TestMul/zero_first"]);
  });
});
