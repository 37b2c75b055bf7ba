import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTestOutput } from "../../../src/gates/parse.js";
import { testCasesFromOutput } from "../../../src/gates/test-cases.js";

// Outputs captured from the real runners on one project: a pass, a failure, an xfail, a non-strict and a strict xpass,
// a skip, parametrized ids with spaces, brackets, ` - ` and unicode, a fixture error, a class, and a second file that
// fails to import (pytest 9.0.3 and 7.2.1, Python 3.11; run with --continue-on-collection-errors as yolo runs pytest).
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gate-output/${name}`, import.meta.url), "utf8");
const statuses = (tests: Array<{ id: string; status: string }> | null | undefined) => Object.fromEntries((tests ?? []).map((t) => [t.id, t.status]));

const PYTEST_OUTCOMES = {
  "tests/test_a.py::test_ok": "passed",
  "tests/test_a.py::test_fail": "failed",
  "tests/test_a.py::test_xfail": "passed",
  "tests/test_a.py::test_xpass": "passed",
  "tests/test_a.py::test_xpass_strict": "failed",
  "tests/test_a.py::test_param[a b-1]": "passed",
  "tests/test_a.py::test_param[s1]": "passed",
  "tests/test_a.py::test_param[\\xfcn\\xef]": "failed",
  "tests/test_a.py::test_param[x::y]": "passed",
  "tests/test_a.py::test_param[a - b]": "passed",
  "tests/test_a.py::test_error": "failed",
  "tests/test_a.py::TestK::test_m": "passed",
  "tests/test_b.py": "failed",
};

describe("pytest: the runner's own count decides", () => {
  it.each(["pytest-9-ra-outcomes.txt", "pytest-7-ra-outcomes.txt", "pytest-9-qq-outcomes.txt"])(
    "%s: xfail and non-strict xpass pass, strict xpass fails, odd parametrized ids stay whole",
    (name) => {
      const out = parseTestOutput(fixture(name));
      expect(statuses(out.tests)).toEqual(PYTEST_OUTCOMES);
      expect(out).toMatchObject({ passedCount: 8, failedCount: 5 });
    },
  );

  it("-v lines and -rA's summary agree; the skipped test is named by -v", () => {
    const out = parseTestOutput(fixture("pytest-9-v-outcomes.txt"));
    expect(statuses(out.tests)).toEqual({ ...PYTEST_OUTCOMES, "tests/test_a.py::test_skip": "skipped" });
  });

  it("a file that fails to import stands for every test in it", () => {
    const out = parseTestOutput(fixture("pytest-9-ra-outcomes.txt"));
    expect(out.tests?.find((t) => t.id === "tests/test_b.py")).toEqual({ id: "tests/test_b.py", status: "failed", unit: "tests/test_b.py::" });
  });

  it("a run that prints only its failures keeps counts and names, never a partial list", () => {
    const out = parseTestOutput(fixture("pytest-9-q-failures-only.txt"));
    expect(out.tests).toBeUndefined();
    expect(out).toMatchObject({ passedCount: 8, failedCount: 5 });
    expect(out.failures).toContain("tests/test_a.py::test_param[\\xfcn\\xef]");
    expect(testCasesFromOutput(fixture("pytest-9-q-failures-only.txt"), "/r")).toBeNull();
  });

  it("a test rerun to a pass passes and is flaky; one rerun to the end fails", () => {
    const out = parseTestOutput(fixture("pytest-7-v-reruns.txt"));
    expect(out.tests).toEqual([
      { id: "tests/test_f.py::test_flaky", status: "passed", flaky: true },
      { id: "tests/test_f.py::test_ok", status: "passed" },
      { id: "tests/test_f.py::test_always", status: "failed", flaky: true },
    ]);
  });

  it("several pytest sessions in one gate add up", () => {
    const one = "===== short test summary info =====\nPASSED a.py::test_x\n===== 1 passed in 0.01s =====";
    const two = "===== short test summary info =====\nFAILED b.py::test_y - boom\n===== 1 failed in 0.01s =====";
    expect(parseTestOutput(`${one}\n${two}`)).toMatchObject({
      passedCount: 1,
      failedCount: 1,
      tests: [
        { id: "a.py::test_x", status: "passed" },
        { id: "b.py::test_y", status: "failed" },
      ],
    });
  });

  it("reads a long or hostile line in linear time and ignores lines past the cap", () => {
    const brackets = `PASSED t.py::test_x${"[".repeat(3000)}`;
    const huge = `PASSED t.py::test_y[${"a - ".repeat(5000)}]`;
    const text = `===== short test summary info =====\n${brackets}\n${huge}\n===== 1 passed in 0.01s =====`;
    const started = performance.now();
    const out = parseTestOutput(text);
    expect(performance.now() - started).toBeLessThan(200);
    expect(out.tests?.map((t) => t.id)).toEqual([`t.py::test_x${"[".repeat(3000)}`]);
  });
});

describe("unittest: the runner's own count decides", () => {
  it("expected failure passes, unexpected success fails, a failing subtest fails its test, a module that did not import fails", () => {
    const out = parseTestOutput(fixture("unittest-311-v-outcomes.txt"));
    expect(statuses(out.tests)).toEqual({
      test_broken: "failed",
      "test_m.T.test_err": "failed",
      "test_m.T.test_fail": "failed",
      "test_m.T.test_ok": "passed",
      "test_m.T.test_skip": "skipped",
      "test_m.T.test_sub": "failed",
      "test_m.T.test_us": "failed",
      "test_m.T.test_xf": "passed",
    });
    expect(out.tests?.find((t) => t.id === "test_broken")).toMatchObject({ unit: "test_broken." });
    expect(out).toMatchObject({ passedCount: 2, failedCount: 5 });
  });

  it("without -v: counts only, an expected failure counted as a pass", () => {
    const out = parseTestOutput(
      "EEF.sFux\n----\nRan 8 tests in 0.014s\n\nFAILED (failures=2, errors=2, skipped=1, expected failures=1, unexpected successes=1)\n",
    );
    expect(out).toMatchObject({ passedCount: 2, failedCount: 5, tests: null });
  });
});
