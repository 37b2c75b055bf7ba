import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTestOutput } from "../../../src/gates/parse.js";
import { testCasesFromOutput } from "../../../src/gates/test-cases.js";

// Recorded from a real `npm test -- --verbose` of jest 30.5.2 (one file: a top-level test, a describe with a nested
// describe, one failure, one skipped test), as a gate sees it: npm's header and jest's stderr together.
const JEST_30_VERBOSE = readFileSync(new URL("../../fixtures/gate-output/jest-30-verbose.txt", import.meta.url), "utf8");

describe("jest's per-test results", () => {
  it("reads every test of jest's verbose output by file and describe path, with its status", () => {
    expect(testCasesFromOutput(JEST_30_VERBOSE, "/tmp/jt")).toEqual([
      { id: "test/add.test.js > top level", status: "passed" },
      { id: "test/add.test.js > add > adds two numbers", status: "passed" },
      { id: "test/add.test.js > add > fails", status: "failed" },
      { id: "test/add.test.js > add > negatives > adds negatives", status: "passed" },
      { id: "test/add.test.js > add > negatives > skipped one", status: "skipped" },
    ]);
  });

  it("reads jest's default (non-verbose) output as its failing tests and the file it sums up, never as the whole list", () => {
    const quiet = JEST_30_VERBOSE.split("\n")
      .filter((l) => !/^\s+(✓|○|✕)/.test(l))
      .join("\n");
    expect(testCasesFromOutput(quiet, "/tmp/jt")).toEqual([{ id: "test/add.test.js > add > fails", status: "failed" }]);
    // The passing tests are vouched for by the file's outcome and the run's counts (file-evidence.ts), not listed.
    expect(parseTestOutput(quiet).files).toEqual([{ file: "test/add.test.js", status: "failed", count: null, skipped: 0 }]);
  });
});

describe("mocha's per-test results", () => {
  it("lists mocha's numbered failures as failed tests, beside its passing ones", () => {
    const out =
      "\n  math\n    ✔ adds\n    1) subtracts\n  2) top level\n\n\n  1 passing (6ms)\n  2 failing\n\n  1) math\n       subtracts:\n     Error: boom\n";
    expect(testCasesFromOutput(out, "/p")).toEqual([
      { id: "adds", status: "passed" },
      { id: "subtracts", status: "failed" },
      { id: "top level", status: "failed" },
    ]);
  });
});
