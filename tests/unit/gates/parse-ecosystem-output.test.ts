import { describe, expect, it } from "vitest";
import { parseTestOutput } from "../../../src/gates/parse.js";

const lines = (...l: string[]) => l.join("\n");

describe("go test output", () => {
  it("names tests by package across several packages, and a package that does not build fails as a whole", () => {
    const out = lines(
      "=== RUN   TestA",
      "--- PASS: TestA (0.00s)",
      "PASS",
      "ok  \texample.com/m/a\t0.002s",
      "# example.com/m/b",
      "b/b.go:3:1: syntax error: unexpected }",
      "FAIL\texample.com/m/b [build failed]",
      "=== RUN   TestC",
      "    c_test.go:9: boom",
      "--- FAIL: TestC (0.01s)",
      "FAIL",
      "FAIL\texample.com/m/c\t0.010s",
      "?   \texample.com/m/cmd\t[no test files]",
      "FAIL",
    );
    expect(parseTestOutput(out)).toEqual({
      passedCount: 1,
      failedCount: 2,
      failures: ["example.com/m/b [build failed]", "example.com/m/c TestC"],
      tests: [
        { id: "example.com/m/a TestA", status: "passed" },
        { id: "example.com/m/c TestC", status: "failed" },
        { id: "example.com/m/b", status: "failed", unit: "example.com/m/b " },
      ],
    });
  });

  it("without -v knows the failures but not how many passed", () => {
    const out = lines("--- FAIL: TestSub (0.00s)", "    calc_test.go:15: nope", "FAIL", "FAIL\texample.com/calc\t0.004s", "ok  \texample.com/other\t(cached)");
    expect(parseTestOutput(out)).toEqual({
      passedCount: null,
      failedCount: 1,
      failures: ["example.com/calc TestSub"],
      tests: null,
    });
  });

  it("does not take a test's own log line for a result", () => {
    const out = lines("=== RUN   TestLog", "    log_test.go:5: --- PASS: TestFake (0.00s) printed by the test", "--- PASS: TestLog (0.00s)", "ok  \tx\t0.001s");
    expect(parseTestOutput(out).tests).toEqual([{ id: "x TestLog", status: "passed" }]);
  });
});

describe("cargo test output", () => {
  it("names tests by their binary's source and sums every binary's result line", () => {
    const out = lines(
      "     Running unittests src/lib.rs (target/debug/deps/calc-0f1e2d)",
      "running 2 tests",
      "test tests::adds ... ok",
      "test tests::slow ... ignored, needs a database",
      "test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s",
      "     Running tests/api.rs (target/debug/deps/api-9a8b7c)",
      "running 1 test",
      "test adds ... FAILED",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
      "   Doc-tests calc",
      "running 1 test",
      "test src/lib.rs - add (line 3) ... ok",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s",
    );
    expect(parseTestOutput(out)).toEqual({
      passedCount: 2,
      failedCount: 1,
      failures: ["tests/api.rs adds"],
      tests: [
        { id: "src/lib.rs tests::adds", status: "passed" },
        { id: "src/lib.rs tests::slow", status: "skipped" },
        { id: "tests/api.rs adds", status: "failed" },
        // A doc test is named by its item, not its line (an edit above it moves the line).
        { id: "doc calc src/lib.rs - add", status: "passed" },
      ],
    });
  });

  it("counts a crate that does not compile as a failure", () => {
    const out = lines(
      "   Compiling calc v0.1.0",
      "error[E0425]: cannot find value `x` in this scope",
      "error: could not compile `calc` (lib test) due to 1 previous error",
    );
    expect(parseTestOutput(out)).toMatchObject({
      passedCount: 0,
      failedCount: 1,
      failures: ["calc (does not compile)"],
      // No test ran: every test of the run fails with the crate (unit "" covers them all).
      tests: [{ id: "calc (does not compile)", status: "failed", unit: "" }],
    });
  });
});

describe("pytest output", () => {
  it("reads -v lines, and a test that passed then errored in teardown is failed; an expected failure passes", () => {
    const out = lines(
      "tests/test_a.py::test_one PASSED                                       [ 33%]",
      "tests/test_a.py::test_one ERROR                                        [ 33%]",
      "tests/test_a.py::test_two[a-b] SKIPPED (no db)                         [ 66%]",
      "tests/test_a.py::test_three XFAIL (known)                              [100%]",
      "=========== 1 passed, 1 skipped, 1 xfailed, 1 error in 0.12s ===========",
    );
    expect(parseTestOutput(out)).toEqual({
      passedCount: 2,
      failedCount: 1,
      failures: [],
      tests: [
        { id: "tests/test_a.py::test_one", status: "failed" },
        { id: "tests/test_a.py::test_two[a-b]", status: "skipped" },
        { id: "tests/test_a.py::test_three", status: "passed" },
      ],
    });
  });

  it("keeps counts only when the output lists no test", () => {
    expect(parseTestOutput("..F\n=========== 1 failed, 2 passed in 0.10s ===========")).toEqual({
      passedCount: 2,
      failedCount: 1,
      failures: [],
    });
  });
});

describe("unittest output", () => {
  it("reads Python ≤ 3.10's class-only ids and the verdict's counts", () => {
    const out = lines(
      "test_add (test_calc.TestCalc) ... ok",
      "test_div (test_calc.TestCalc) ... ERROR",
      "test_odd (test_calc.TestCalc) ... expected failure",
      "",
      "======================================================================",
      "ERROR: test_div (test_calc.TestCalc)",
      "----------------------------------------------------------------------",
      "ZeroDivisionError: division by zero",
      "",
      "----------------------------------------------------------------------",
      "Ran 3 tests in 0.001s",
      "",
      "FAILED (errors=1, expected failures=1)",
    );
    // An expected failure is a pass, as unittest counts it.
    expect(parseTestOutput(out)).toEqual({
      passedCount: 2,
      failedCount: 1,
      failures: ["test_calc.TestCalc.test_div"],
      tests: [
        { id: "test_calc.TestCalc.test_add", status: "passed" },
        { id: "test_calc.TestCalc.test_div", status: "failed" },
        { id: "test_calc.TestCalc.test_odd", status: "passed" },
      ],
    });
  });

  it("reads a quiet run's counts", () => {
    expect(parseTestOutput("...s\n----------------------------------------------------------------------\nRan 4 tests in 0.002s\n\nOK (skipped=1)\n")).toEqual({
      passedCount: 3,
      failedCount: 0,
      failures: [],
      tests: null,
    });
  });
});
