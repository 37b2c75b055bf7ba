import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateRun } from "../../../src/gates/run-gates.js";
import { judged, matrixProject, type MatrixProject, PYTEST_NO_PLUGINS, statuses, verdict } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// The real pytest on a generated project, through the real gate code in the sandbox, in each state a project is in:
// green, one failure, a failure inside a parametrized test, xfail and xpass (strict and not), a skip, a file that does
// not import, a timeout, a test passing on a rerun; and under each output mode a user sets. Every state is judged
// against the green baseline as a run's gate is.
const CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n\n\nSTRICT_BUG_FIXED = False\n";
const TESTS = `import pytest
import calc


def test_add():
    assert calc.add(2, 3) == 5


@pytest.mark.parametrize("a,b,want", [
    pytest.param(2, 3, 6, id="two words"),
    pytest.param(1, 1, 1, id="[1, 1]"),
    pytest.param(0, 5, 0, id="zéro - x"),
])
def test_mul(a, b, want):
    assert calc.mul(a, b) == want


@pytest.mark.xfail(reason="known bug")
def test_known_bug():
    assert calc.add(0.1, 0.2) == 0.3


@pytest.mark.xfail(reason="was flaky")
def test_unexpected_pass():
    assert calc.add(1, 1) == 2


@pytest.mark.xfail(strict=True, reason="until the bug is fixed")
def test_strict():
    assert calc.STRICT_BUG_FIXED


@pytest.mark.skip(reason="later")
def test_later():
    pass
`;
const MORE = "import calc\n\n\nclass TestMore:\n    def test_more(self):\n        assert calc.add(1, 2) == 3\n";
const FILES = { "calc.py": CALC, "tests/__init__.py": "", "tests/test_calc.py": TESTS, "tests/test_more.py": MORE, "pytest.ini": "[pytest]\n" };

const GREEN = {
  "tests/test_calc.py::test_add": "passed",
  "tests/test_calc.py::test_mul[two words]": "passed",
  "tests/test_calc.py::test_mul[[1, 1]]": "passed",
  "tests/test_calc.py::test_mul[z\\xe9ro - x]": "passed",
  "tests/test_calc.py::test_known_bug": "passed",
  "tests/test_calc.py::test_unexpected_pass": "passed",
  "tests/test_calc.py::test_strict": "passed",
  "tests/test_more.py::TestMore::test_more": "passed",
};
const clean = { regressions: [], preExisting: [], newFailures: [], missing: [], fixed: [] };

const hasPytest = toolchain("pytest", ["pytest", "--version"]);

describe.runIf(hasPytest)("pytest through the gate, judged against its baseline", () => {
  let p: MatrixProject;
  let baseline: GateRun;
  beforeAll(async () => {
    p = matrixProject("pytest-matrix", FILES);
    baseline = await p.gate("pytest", { env: PYTEST_NO_PLUGINS });
  }, 120_000);
  afterAll(() => p?.remove());
  // Each state starts from the baseline's files. No plugin is what these cases read, so none is loaded (PYTEST_NO_PLUGINS
  // says why); the rerun case below loads its plugin as a user's pytest does.
  const state = async (files: Record<string, string | null>, command = "pytest", timeoutS?: number) => {
    p.write({ ...FILES, ...files });
    return p.gate(command, { timeoutS, env: PYTEST_NO_PLUGINS });
  };

  it("green: xfail and a non-strict xpass are passes, the skip is not a test that ran; read from pytest's own report", () => {
    expect(baseline.result.passed, baseline.result.tail).toBe(true);
    expect(baseline.result.reading).toBe("structured");
    expect(baseline.result.tail).toMatch(/passed/);
    expect(baseline.result.tail).not.toMatch(/yolo-report|generated xml/i);
    // pytest's report names the skipped test too (its printed summary does not).
    expect(statuses(baseline.tests)).toEqual({ ...GREEN, "tests/test_calc.py::test_later": "skipped" });
    // The user's log is pytest's usual output.
    expect(baseline.result.tail).toMatch(/5 passed, 1 skipped, 2 xfailed, 1 xpassed in/);
  });

  // `true && …` is not one pytest command: yolo reads the printed output, under each mode a user may set, and must
  // name every test as pytest's report does (the baseline was read from the report).
  it.each(["pytest", "pytest -v", "pytest -q", "pytest -rA", "pytest -qq"])(
    "printed output of %s: a failure inside a parametrized test is that case's regression",
    async (command) => {
      const run = await state({ "calc.py": CALC.replace("return a * b", "return a * b if a else 1") }, `true && ${command}`);
      expect(run.result.reading).toBe("parsed");
      expect(verdict(judged(run, baseline))).toEqual({ ...clean, regressions: ["tests/test_calc.py::test_mul[z\\xe9ro - x]"], blocking: true });
    },
    120_000,
  );

  it("two pytest sessions in one gate: both sessions' tests are read from the printed output", async () => {
    const run = await state({}, "pytest tests/test_calc.py && pytest -q tests/test_more.py");
    expect(run.result.reading).toBe("parsed");
    expect(statuses(run.tests)).toEqual(GREEN);
  }, 120_000);

  it("one failure, and a strict xfail that starts passing, are regressions", async () => {
    const run = await state({ "calc.py": CALC.replace("return a + b", "return a - b if b == 3 else a + b").replace("= False", "= True") });
    expect(verdict(judged(run, baseline))).toEqual({
      ...clean,
      regressions: ["tests/test_calc.py::test_add", "tests/test_calc.py::test_strict"],
      blocking: true,
    });
  }, 120_000);

  it("a test newly skipped is missing", async () => {
    const run = await state({ "tests/test_more.py": MORE.replace("    def test_more", "    @__import__('pytest').mark.skip\n    def test_more") });
    expect(verdict(judged(run, baseline))).toEqual({
      ...clean,
      regressions: ["tests/test_more.py::TestMore::test_more"],
      missing: ["tests/test_more.py::TestMore::test_more"],
      blocking: true,
    });
  }, 120_000);

  it("a file that stops importing fails its tests (not missing), and the other file's tests are still judged", async () => {
    const run = await state({ "tests/test_more.py": `from calc import gone\n${MORE}` });
    expect(statuses(run.tests)).toMatchObject({ "tests/test_calc.py::test_add": "passed", "tests/test_more.py": "failed" });
    expect(verdict(judged(run, baseline))).toEqual({ ...clean, regressions: ["tests/test_more.py::TestMore::test_more"], blocking: true });
  }, 120_000);

  it("a timeout blocks though nothing it listed failed", async () => {
    const run = await state({ "tests/test_more.py": `${MORE}\n    def test_slow(self):\n        __import__('time').sleep(300)\n` }, "pytest", 10);
    expect(run.result.timedOut).toBe(true);
    expect(judged(run, baseline).blocking).toBe(true);
  }, 120_000);

  it("the baseline's failing test fixed is fixed, nothing else moves", async () => {
    const red = await state({ "calc.py": CALC.replace("return a + b", "return a - b if b == 3 else a + b") });
    // The green files are the baseline's, run by the same command: the baseline run is the green run. That a gate run
    // after a red one is not read from the red run's caches is tests/integration/gates/gate-caches-never-trusted's.
    expect(verdict(judged(baseline, red))).toEqual({ ...clean, fixed: ["tests/test_calc.py::test_add"], blocking: false });
  }, 120_000);
});

// pytest-rerunfailures, where an interpreter here has it (Debian's python3-pytest-rerunfailures; .ci/run installs it).
const RERUN_PYTHON = ["python3", "/usr/bin/python3"].find((py) => spawnSync(py, ["-c", "import pytest_rerunfailures"]).status === 0);

describe.runIf(hasPytest && RERUN_PYTHON)("pytest-rerunfailures through the gate", () => {
  it("a test that passes on its rerun is a pass, and flaky", async () => {
    // The counter lives in the sandbox's private /tmp (or a fresh file): each gate run starts at 0.
    const flaky = `import os, tempfile\n\n\ndef test_flaky():\n    path = os.path.join(tempfile.gettempdir(), "yolo-flaky-" + os.environ.get("FLAKY_ID", ""))\n    n = int(open(path).read()) if os.path.exists(path) else 0\n    open(path, "w").write(str(n + 1))\n    assert n >= 1\n\n\ndef test_steady():\n    pass\n`;
    const p = matrixProject("pytest-rerun", { "tests/test_flaky.py": flaky });
    try {
      // Read from -v's RERUN lines: Debian's rerunfailures 10.2 leaves reruns out of the JUnit report.
      const run = await p.gate(`true && ${RERUN_PYTHON} -m pytest -v --reruns 2`, { env: { FLAKY_ID: String(process.hrtime.bigint()) } });
      expect(run.result.passed, run.result.tail).toBe(true);
      expect(run.tests).toEqual(
        expect.arrayContaining([
          { id: "tests/test_flaky.py::test_flaky", status: "passed", flaky: true },
          { id: "tests/test_flaky.py::test_steady", status: "passed" },
        ]),
      );
    } finally {
      p.remove();
    }
  }, 120_000);
});
