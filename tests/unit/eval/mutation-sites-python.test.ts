import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonHelperPath, pythonMutationSites } from "../../../src/eval/mutate-python.js";
import { applySite, type MutationSite } from "../../../src/eval/mutation-sites.js";
import { ConfigError } from "../../../src/errors.js";

// Non-ASCII text (an accent, an emoji outside the BMP) before the sites: ast counts UTF-8 bytes, Python code points,
// JavaScript UTF-16 units; the spans must still land on the operators.
const SOURCE = `"""Counting, with a < b in the docstring."""
# a < b in a comment is not code
LABEL = "é🙂"


def count_above(xs, limit):
    n = 0
    label = "a" + str(limit)
    for i in range(0, len(xs)):
        if xs[i] > limit:
            n = n * 2
        log(label, n)
    return pick(xs, limit) if n == 0 else n - 1


def settings():
    return {"retries": 3}


while_flag = 1 if LABEL != "x" else 2
`;

const env = process.env;

describe("Python mutation sites are found with the interpreter's own ast module", async () => {
  const { sites, skipped } = await pythonMutationSites([{ file: "pkg/count.py", text: SOURCE }], { env });
  const mutants = (kind: string) => sites.filter((s) => s.kind === kind).map((s) => applySite(SOURCE, s));

  it("flips comparisons and arithmetic in code, never in comments, docstrings or string concatenation", () => {
    expect(skipped).toEqual([]);
    expect(mutants("flip-comparison")).toContainEqual(expect.stringContaining("if xs[i] <= limit:"));
    expect(mutants("flip-comparison")).toContainEqual(expect.stringContaining("if n != 0 else"));
    expect(mutants("flip-arithmetic")).toContainEqual(expect.stringContaining("n = n / 2"));
    expect(mutants("flip-arithmetic")).toContainEqual(expect.stringContaining("else n + 1"));
    expect(mutants("flip-arithmetic").some((m) => m.includes('"a" - str(limit)'))).toBe(false);
    // After the emoji: the span is still exactly the operator.
    expect(mutants("flip-comparison")).toContainEqual(expect.stringContaining('1 if LABEL == "x" else 2'));
    for (const m of sites.map((s) => applySite(SOURCE, s))) {
      expect(m.split("\n").slice(0, 2)).toEqual(SOURCE.split("\n").slice(0, 2));
    }
  });

  it("shifts boundaries and integer literals by one, negates conditions, drops statements, swaps arguments", () => {
    expect(mutants("off-by-one")).toContainEqual(expect.stringContaining("if xs[i] >= limit:"));
    expect(mutants("off-by-one")).toContainEqual(expect.stringContaining("    n = 1\n"));
    expect(mutants("off-by-one").some((m) => m.includes('"retries": 4'))).toBe(false);
    expect(mutants("negate-condition")).toContainEqual(expect.stringContaining("if not (xs[i] > limit):"));
    expect(mutants("negate-condition")).toContainEqual(expect.stringContaining("if not (n == 0) else"));
    expect(mutants("drop-statement")).toContainEqual(expect.stringContaining("        pass\n    return"));
    expect(mutants("swap-arguments")).toContainEqual(expect.stringContaining("pick(limit, xs)"));
    expect(mutants("swap-arguments")).toContainEqual(expect.stringContaining("range(len(xs), 0)"));
    expect(mutants("drop-statement").some((m) => !m.includes('"""Counting'))).toBe(false);
  });

  it("every mutant still compiles, and each site's description names its line", () => {
    expect(sites.length).toBeGreaterThan(15);
    const check = "import json,sys\nfor m in json.load(sys.stdin): compile(m, 'm', 'exec')\nprint('ok')";
    const all = JSON.stringify(sites.map((s) => applySite(SOURCE, s)));
    expect(execFileSync("python3", ["-I", "-c", check], { input: all, encoding: "utf8" }).trim()).toBe("ok");
    const line = (s: MutationSite) => SOURCE.slice(0, s.start).split("\n").length;
    for (const s of sites) expect(s.description.startsWith(`pkg/count.py:${line(s)}: `)).toBe(true);
  });

  it("skips a file the parser cannot read, with the reason, and keeps the others' sites", async () => {
    const r = await pythonMutationSites(
      [
        { file: "bad.py", text: "def f(:\n" },
        { file: "ok.py", text: "x = 1 + 2\n" },
      ],
      { env },
    );
    expect(r.skipped).toEqual([{ file: "bad.py", reason: expect.stringMatching(/^SyntaxError/) }]);
    expect(r.sites.map((s) => s.file)).toContain("ok.py");
  });

  it("says what to do when python3 is missing", async () => {
    const missing = pythonMutationSites([{ file: "a.py", text: "x = 1\n" }], { env, python: "python3-not-installed-here" });
    await expect(missing).rejects.toBeInstanceOf(ConfigError);
    await expect(missing).rejects.toThrow(/needs python3-not-installed-here on PATH .*Install Python 3.8/);
  });

  it("the helper is shipped: package.json's files holds its folder", () => {
    expect(existsSync(pythonHelperPath())).toBe(true);
    const files = JSON.parse(readFileSync(join(pythonHelperPath(), "..", "..", "package.json"), "utf8")).files as string[];
    expect(files).toContain("python");
  });
});
