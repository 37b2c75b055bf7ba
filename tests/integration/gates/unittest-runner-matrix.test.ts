import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateRun } from "../../../src/gates/run-gates.js";
import { judged, matrixProject, type MatrixProject, statuses, verdict } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// The real `python3 -m unittest` on a generated project, through the real gate code in the sandbox: an expected
// failure (a pass), an unexpected success (a failure, as Python 3.11 counts it), a skip, a failing subTest, a module
// that does not import, and `-v` or not; each judged against the green baseline.
const TESTS = `import unittest
import calc


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(calc.add(2, 3), 5)

    @unittest.expectedFailure
    def test_float(self):
        self.assertEqual(calc.add(0.1, 0.2), 0.3)

    @unittest.skip("later")
    def test_later(self):
        pass

    def test_many(self):
        for a in range(3):
            with self.subTest(a=a):
                self.assertEqual(calc.add(a, 0), a)
`;
const MORE = "import unittest\nimport calc\n\n\nclass TestMore(unittest.TestCase):\n    def test_more(self):\n        self.assertEqual(calc.add(1, 2), 3)\n";
const CALC = "def add(a, b):\n    return a + b\n";
const FILES = { "calc.py": CALC, "test_calc.py": TESTS, "test_more.py": MORE };
const clean = { regressions: [], preExisting: [], newFailures: [], missing: [], fixed: [] };
const VERBOSE = "python3 -m unittest discover -v";

describe.runIf(toolchain("python3", ["python3", "--version"]))("unittest through the gate, judged against its baseline", () => {
  let p: MatrixProject;
  let baseline: GateRun;
  beforeAll(async () => {
    p = matrixProject("unittest-matrix", FILES);
    baseline = await p.gate(VERBOSE);
  }, 120_000);
  afterAll(() => p?.remove());
  const state = (files: Record<string, string>, command = VERBOSE) => {
    p.write({ ...FILES, ...files });
    return p.gate(command);
  };

  it("green: an expected failure passes, the skip is skipped", () => {
    expect(baseline.result.passed, baseline.result.tail).toBe(true);
    expect(statuses(baseline.tests)).toEqual({
      "test_calc.TestCalc.test_add": "passed",
      "test_calc.TestCalc.test_float": "passed",
      "test_calc.TestCalc.test_later": "skipped",
      "test_calc.TestCalc.test_many": "passed",
      "test_more.TestMore.test_more": "passed",
    });
  });

  it("an unexpected success and a failing subTest are regressions", async () => {
    const run = await state({ "calc.py": "def add(a, b):\n    if a == 2 and b == 0:\n        return 0\n    return round(a + b, 6)\n" });
    expect(verdict(judged(run, baseline))).toEqual({
      ...clean,
      regressions: ["test_calc.TestCalc.test_float", "test_calc.TestCalc.test_many"],
      blocking: true,
    });
  }, 120_000);

  it("a module that does not import fails its tests (not missing); without -v the exit code decides", async () => {
    const broken = { "test_more.py": `import gone\n${MORE}` };
    const run = await state(broken);
    expect(verdict(judged(run, baseline))).toEqual({ ...clean, regressions: ["test_more.TestMore.test_more"], blocking: true });
    const quiet = await state(broken, "python3 -m unittest discover");
    expect(quiet.tests).toBeNull();
    expect(quiet.result).toMatchObject({ passedCount: 3, failedCount: 1 });
    expect(judged(quiet, baseline).blocking).toBe(true);
  }, 120_000);
});
