import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateRun } from "../../../src/gates/run-gates.js";
import { judged, matrixProject, type MatrixProject, statuses, verdict } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// The real `go test` on a generated module of two packages, through the real gate code in the sandbox: subtests, a
// skip, a panic (the package's remaining tests never ran), a package that does not build, and `-v` or not; each
// state judged against the green baseline.
const A_TEST = `package a

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("add")
	}
}

func TestSigns(t *testing.T) {
	t.Run("positive", func(t *testing.T) {
		if Add(1, 1) != 2 {
			t.Fatal("positive")
		}
	})
	t.Run("negative sum", func(t *testing.T) {
		if Add(-1, -1) != -2 {
			t.Fatal("negative")
		}
	})
}
`;
const B_TEST = `package b

import "testing"

func TestFirst(t *testing.T) { Touch() }

func TestSecond(t *testing.T) {}
`;
const FILES = {
  "go.mod": "module example.com/m\n\ngo 1.19\n",
  "a/a.go": "package a\n\nfunc Add(x, y int) int { return x + y }\n",
  "a/a_test.go": A_TEST,
  "b/b.go": "package b\n\nfunc Touch() {}\n",
  "b/b_test.go": B_TEST,
};
const clean = { regressions: [], preExisting: [], newFailures: [], missing: [], fixed: [] };

describe.runIf(toolchain("go", ["go", "version"]))("go test through the gate, judged against its baseline", () => {
  let p: MatrixProject;
  let baseline: GateRun;
  beforeAll(async () => {
    p = matrixProject("go-matrix", FILES);
    baseline = await p.gate("go test -v ./...");
  }, 300_000);
  afterAll(() => p?.remove());
  const state = (files: Record<string, string>, command = "go test -v ./...") => {
    p.write({ ...FILES, ...files });
    return p.gate(command);
  };

  it("green: every test and subtest by package", () => {
    expect(baseline.result.passed, baseline.result.tail).toBe(true);
    expect(statuses(baseline.tests)).toEqual({
      "example.com/m/a TestAdd": "passed",
      "example.com/m/a TestSigns": "passed",
      "example.com/m/a TestSigns/positive": "passed",
      "example.com/m/a TestSigns/negative_sum": "passed",
      "example.com/m/b TestFirst": "passed",
      "example.com/m/b TestSecond": "passed",
    });
  });

  it("a failing subtest is a regression with its parent; a skip is missing", async () => {
    const run = await state({
      "a/a.go": "package a\n\nfunc Add(x, y int) int {\n\tif x < 0 {\n\t\treturn 0\n\t}\n\treturn x + y\n}\n",
      "b/b_test.go": B_TEST.replace("func TestSecond(t *testing.T) {}", 'func TestSecond(t *testing.T) { t.Skip("later") }'),
    });
    expect(verdict(judged(run, baseline))).toEqual({
      ...clean,
      regressions: ["example.com/m/a TestSigns", "example.com/m/a TestSigns/negative_sum", "example.com/m/b TestSecond"],
      missing: ["example.com/m/b TestSecond"],
      blocking: true,
    });
  }, 300_000);

  it("a panic fails the test that panicked and the package's tests that never ran (not missing)", async () => {
    const run = await state({ "b/b.go": 'package b\n\nfunc Touch() {\n\tvar m map[string]int\n\tm["x"] = 1\n}\n' });
    expect(verdict(judged(run, baseline))).toEqual({ ...clean, regressions: ["example.com/m/b TestFirst", "example.com/m/b TestSecond"], blocking: true });
  }, 300_000);

  it("a package that does not build fails each of its tests; without -v the exit code decides", async () => {
    const broken = { "b/b.go": "package b\n\nfunc Touch() { undefined() }\n" };
    const run = await state(broken);
    expect(verdict(judged(run, baseline))).toEqual({ ...clean, regressions: ["example.com/m/b TestFirst", "example.com/m/b TestSecond"], blocking: true });
    const quiet = await state(broken, "go test ./...");
    expect(quiet.tests).toBeNull();
    expect(quiet.result.failures).toContain("example.com/m/b [build failed]");
    expect(judged(quiet, baseline).blocking).toBe(true);
  }, 300_000);
});
