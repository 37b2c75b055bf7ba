import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bounded, targetOutputs, testFailureText } from "../../../src/gates/test-output.js";
import { testCasesFromOutput } from "../../../src/gates/test-cases.js";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gate-output/${name}`, import.meta.url), "utf8");
const ROOT = "/home/dev/range";
// The ids a test is judged by are the ones yolo reads from the same output.
const failingIds = (output: string) => (testCasesFromOutput(output, ROOT) ?? []).filter((t) => t.status === "failed").map((t) => t.id);

describe("one failing test's own output, cut from real runner output", () => {
  it("node --test TAP: the test's subtest block with its YAML diagnostic, not its neighbours'", () => {
    const tap = fixture("node-20-tap.txt");
    expect(failingIds(tap)).toContain("byte range > suffix > rejects an empty suffix");
    const text = testFailureText(tap, "byte range > suffix > rejects an empty suffix") ?? "";
    expect(text.split("\n")[0]).toBe("        # Subtest: rejects an empty suffix");
    expect(text).toContain("should return -2 for an empty suffix");
    expect(text).toContain("expected: -2");
    expect(text.trim().endsWith("...")).toBe(true);
    expect(text).not.toContain("parses a closed range");
    expect(text).not.toContain("keeps the last bytes");
    expect(testFailureText(tap, "throws a plain error")).toContain("boom: range start is past its end");
  });

  it("node --test spec: the ✖ line with the error indented under it", () => {
    const spec = fixture("node-20-spec.txt");
    const text = testFailureText(spec, "byte range > parses a closed range") ?? "";
    expect(text.split("\n")[0]).toBe("  ✖ parses a closed range (3.206421ms)");
    expect(text).toContain("operator: 'deepStrictEqual'");
    expect(text).not.toContain("▶ suffix");
    expect(text).not.toContain("rejects an empty suffix");
  });

  it("pytest: the test's ___ section, captured stdout included, up to the next one", () => {
    const py = fixture("pytest-9-ra.txt");
    expect(failingIds(py)).toContain("tests/test_ranges.py::TestSuffix::test_empty_suffix");
    const text = testFailureText(py, "tests/test_ranges.py::TestSuffix::test_empty_suffix") ?? "";
    expect(text).toMatch(/^_+ TestSuffix\.test_empty_suffix _+$/m);
    expect(text).toContain("ValueError: invalid literal for int() with base 10: ''");
    expect(text).toContain("checking the empty suffix");
    expect(text).not.toContain("test_numbers");
    expect(testFailureText(py, "tests/test_ranges.py::test_numbers[x-2]")).toContain("base 10: 'x'");
  });

  it("vitest: the FAIL … > name block up to the separator", () => {
    const vt = fixture("vitest-4-verbose.txt");
    const id = "test/range.test.js > byte range > suffix > rejects an empty suffix";
    expect(failingIds(vt)).toContain(id);
    const text = testFailureText(vt, id) ?? "";
    expect(text).toContain("expected -1 to be -2");
    expect(text).not.toContain("to deeply equal");
    expect(text).not.toContain("⎯");
  });

  it("jest: the ● suite › name block of the test's file", () => {
    const jest = fixture("jest-30-verbose.txt");
    const id = failingIds(jest)[0];
    expect(id).toBe("test/add.test.js > add > fails");
    const text = testFailureText(jest, id) ?? "";
    expect(text.split("\n")[0].trim()).toBe("● add › fails");
    expect(text).toContain("Received: 1");
    expect(text).not.toContain("Test Suites:");
  });

  it("an unknown test, or output that lists no tests, gives null", () => {
    expect(testFailureText(fixture("node-20-tap.txt"), "no such test")).toBeNull();
    expect(testFailureText("Segmentation fault\n", "adds")).toBeNull();
  });
});

describe("the targets' output for dev's fix prompt", () => {
  it("pairs each target's failure now with its failure at the baseline", () => {
    const tap = fixture("node-20-tap.txt");
    const [entry] = targetOutputs(["throws a plain error"], [tap], fixture("node-20-tap.txt").replace("boom: range", "bang: range"));
    expect(entry.output).toContain("boom: range");
    expect(entry.baseline).toContain("bang: range");
  });

  it("bounds each test's text at a line and says so, and all of them together", () => {
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} of the failure`).join("\n");
    const cut = bounded(long, 2048);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(2048);
    expect(cut).toMatch(/^line 0 of the failure\n/);
    expect(cut).toMatch(/\nline \d+ of the failure\n\[… cut: \d+ more lines of this test's output\]$/);
    const tap = fixture("node-20-tap.txt");
    const ids = ["byte range > parses a closed range", "byte range > suffix > rejects an empty suffix", "throws a plain error"];
    const all = targetOutputs(ids, [tap], tap, 2048, 2500);
    const size = all.reduce((n, t) => n + Buffer.byteLength(t.output ?? "") + Buffer.byteLength(t.baseline ?? ""), 0);
    expect(size).toBeLessThanOrEqual(2500);
    expect(all.length).toBeLessThan(ids.length);
    expect(all[0].output).toContain("deepStrictEqual");
  });

  it("a target no output can be cut for is left out; the first output that can be cut for it wins", () => {
    const tap = fixture("node-20-tap.txt");
    expect(targetOutputs(["nowhere"], [tap], null)).toEqual([]);
    const [entry] = targetOutputs(["throws a plain error"], ["garbage", tap], null);
    expect(entry.output).toContain("boom");
    expect(entry.baseline).toBeUndefined();
  });
});
