import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTestOutput } from "../../../src/gates/parse.js";

// node --test output is produced live from a tiny fixture, so the parser is checked against this Node's real format.
let fixture: string;
const nodeTest = (reporter: string) =>
  spawnSync(process.execPath, ["--test", `--test-reporter=${reporter}`], {
    cwd: fixture,
    encoding: "utf8",
    env: { PATH: process.env.PATH, NO_COLOR: "1", FORCE_COLOR: "0" },
  }).stdout;

beforeAll(() => {
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-parse-"));
  fs.mkdirSync(path.join(fixture, "test"));
  fs.writeFileSync(
    path.join(fixture, "test", "a.test.js"),
    `const test = require("node:test");
const assert = require("node:assert");
test("adds numbers", () => assert.strictEqual(1 + 1, 2));
test.describe("math suite", () => {
  test.it("subtracts numbers", () => assert.strictEqual(3 - 1, 1));
  test.it("multiplies", () => assert.strictEqual(2 * 2, 4));
});
`,
  );
  fs.writeFileSync(
    path.join(fixture, "test", "b.test.js"),
    `const test = require("node:test");
test("fails hard", () => { throw new Error("boom"); });
test("skipped one", { skip: true }, () => {});
test("todo one", { todo: true }, () => { throw new Error("not yet"); });
`,
  );
});
afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));

describe("parseTestOutput", () => {
  it("reads node --test TAP output, naming failing leaf tests with their suite", () => {
    const out = nodeTest("tap");
    expect(out).toMatch(/^# pass 2$/m);
    expect(parseTestOutput(out)).toEqual({ passedCount: 2, failedCount: 2, failures: ["math suite > subtracts numbers", "fails hard"] });
  });

  it("reads node --test spec output from its failing-tests section", () => {
    const out = nodeTest("spec");
    expect(out).toMatch(/^ℹ pass 2$/m);
    expect(parseTestOutput(out)).toEqual({ passedCount: 2, failedCount: 2, failures: ["subtracts numbers", "fails hard"] });
  });

  it("reads an all-passing node --test run", () => {
    const out = spawnSync(process.execPath, ["--test", "--test-reporter=tap", "--test-name-pattern=adds numbers", "test/a.test.js"], {
      cwd: fixture,
      encoding: "utf8",
    }).stdout;
    expect(parseTestOutput(out)).toEqual({ passedCount: 1, failedCount: 0, failures: [] });
  });

  it("reads vitest's default reporter", () => {
    // Captured from vitest 4.1.12 with NO_COLOR=1.
    const out = `
 RUN  v4.1.12 /tmp/vt

 ❯ math.test.js (4 tests | 2 failed | 1 skipped) 35ms
     ✓ adds 2ms
     × subtracts 23ms
   × top level fails 1ms
   ↓ skipped
 ✓ ok.test.js (1 test) 4ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  math.test.js > math > subtracts
AssertionError: expected 2 to be 1 // Object.is equality

 ❯ math.test.js:4:39

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  math.test.js > top level fails
Error: boom
 ❯ math.test.js:6:37

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯


 Test Files  1 failed | 1 passed (2)
      Tests  2 failed | 2 passed | 1 skipped (5)
   Start at  00:00:34
   Duration  1.47s (transform 58ms, setup 0ms, import 115ms, tests 39ms, environment 0ms)
`;
    expect(parseTestOutput(out)).toEqual({
      passedCount: 2,
      failedCount: 2,
      failures: ["math.test.js > math > subtracts", "math.test.js > top level fails"],
      // Each file with the runner's own count: evidence for the tests a file did not list.
      files: [
        { file: "math.test.js", status: "failed", count: 4, skipped: 1 },
        { file: "ok.test.js", status: "passed", count: 1, skipped: 0 },
      ],
      skippedCount: 1,
    });
  });

  it("reads vitest output even with colour codes", () => {
    const out = "\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m3 passed\u001b[39m\u001b[22m\u001b[90m (3)\u001b[39m\n";
    expect(parseTestOutput(out)).toEqual({ passedCount: 3, failedCount: 0, failures: [] });
  });

  it("reads jest's default reporter", () => {
    // Jest 29's format (jest is not installed here; the lines follow its documented reporter output).
    const out = `FAIL src/sum.test.js
  sum
    ✓ adds 1 + 2 to equal 3 (2 ms)
    ✕ subtracts (3 ms)

  ● sum › subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 1
    Received: 2

PASS src/other.test.js

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 4 passed, 5 total
Snapshots:   0 total
Time:        0.512 s
Ran all test suites.
`;
    expect(parseTestOutput(out)).toEqual({
      passedCount: 4,
      failedCount: 1,
      failures: ["sum › subtracts"],
      // jest names each file without its count.
      files: [
        { file: "src/sum.test.js", status: "failed", count: null, skipped: 0 },
        { file: "src/other.test.js", status: "passed", count: null, skipped: 0 },
      ],
    });
  });

  it("reads mocha's spec reporter, joining multi-line titles", () => {
    const out = `

  math
    ✔ adds
    1) subtracts
  2) top level


  1 passing (6ms)
  2 failing
  1 pending

  1) math
       subtracts:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

2 !== 1

      at Context.<anonymous> (test/math.spec.js:6:12)

  2) top level:
     Error: boom
      at Context.<anonymous> (test/math.spec.js:9:9)



`;
    expect(parseTestOutput(out)).toEqual({ passedCount: 1, failedCount: 2, failures: ["math > subtracts", "top level"] });
  });

  it("reads pytest, counting errors as failures", () => {
    // Captured from pytest 9.0.3.
    const out = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/py
collected 5 items

test_math.py .FFEs                                                       [100%]

==================================== ERRORS ====================================
__________________________ ERROR at setup of test_err __________________________
E       RuntimeError: fixture boom
=================================== FAILURES ===================================
___________________________________ test_sub ___________________________________
E       assert (3 - 1) == 1
=========================== short test summary info ============================
FAILED test_math.py::test_sub - assert (3 - 1) == 1
FAILED test_math.py::TestSuite::test_mul - assert (2 * 2) == 5
ERROR test_math.py::test_err - RuntimeError: fixture boom
=============== 2 failed, 1 passed, 1 skipped, 1 error in 3.07s ================
`;
    expect(parseTestOutput(out)).toEqual({
      passedCount: 1,
      failedCount: 3,
      failures: ["test_math.py::test_sub", "test_math.py::TestSuite::test_mul", "test_math.py::test_err"],
    });
    expect(parseTestOutput("============================== 4 passed in 0.02s ===============================\n")).toEqual({
      passedCount: 4,
      failedCount: 0,
      failures: [],
    });
  });

  it("keeps at most 10 failure names", () => {
    const lines = Array.from({ length: 15 }, (_, i) => `FAILED t.py::test_${i} - boom`).join("\n");
    const out = parseTestOutput(`${lines}\n===== 15 failed in 0.10s =====\n`);
    expect(out.failedCount).toBe(15);
    expect(out.failures).toHaveLength(10);
  });

  it("returns null counts for output it does not recognise", () => {
    expect(parseTestOutput("make: *** [all] Error 2\n")).toEqual({ passedCount: null, failedCount: null, failures: [] });
    expect(parseTestOutput("")).toEqual({ passedCount: null, failedCount: null, failures: [] });
  });
});
