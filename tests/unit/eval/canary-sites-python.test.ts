import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pythonCanarySites } from "../../../src/eval/mutate-python.js";
import { ConfigError } from "../../../src/errors.js";

// A non-BMP character before the sites: python counts code points, JavaScript UTF-16 units; the spans must still land.
const TEST = `"""Tests of 🙂: self.assertEqual(f(1), 2) in a docstring is no assertion."""
import unittest

from calc import f, g, h


class TestCalc(unittest.TestCase):
    def test_f(self):
        self.assertEqual(f(1), 2)
        self.assertEqual(g("é"), "b")
        self.assertEqual(h(), True)
        self.assertNotEqual(f(1), 3)
        self.assertEqual(f(1), expected())
        other.assertEqual(f(1), 2)


def test_g():
    assert f(2) == 4
    assert f(2) != 5
    assert 4 == f(2)
    assert f(1) == -1
    assert f(1) == 1.5
    text = "assert f(1) == 1"
`;

const env = process.env;
const flip = async (text: string, file = "tests/test_calc.py") =>
  (await pythonCanarySites([{ file, text }], { env })).map((s) => ({ line: text.slice(0, s.start) + s.replacement + text.slice(s.end), s }));

describe("Python canary sites: expected literals of equality assertions, found with python3's ast", () => {
  it("flips the expected literal of self.assertEqual and of assert ==, never the actual side, other assertions or look-alike text", async () => {
    const flipped = await flip(TEST);
    const changed = flipped.map(({ line }) =>
      line
        .split("\n")
        .find((l, i) => l !== TEST.split("\n")[i])
        ?.trim(),
    );
    expect(changed).toEqual(["self.assertEqual(f(1), 3)", "self.assertEqual(g(\"é\"), 'b!')", "self.assertEqual(h(), False)", "assert f(2) == 5"]);
    expect(flipped[0].s.description).toBe("tests/test_calc.py:9: self.assertEqual(f(1), 2) expects 2 → 3");
    // Every flip is still Python: the interpreter compiles it.
    for (const { line } of flipped) execFileSync("python3", ["-I", "-c", "import sys; compile(sys.stdin.read(), 't.py', 'exec')"], { input: line });
  });

  it("gives a file that does not parse no sites, and says what to do without python3", async () => {
    expect(await flip("def (:\n")).toEqual([]);
    const missing = pythonCanarySites([{ file: "t.py", text: "assert 1 == 1\n" }], { env, python: "python3-not-installed-here" });
    await expect(missing).rejects.toBeInstanceOf(ConfigError);
    await expect(missing).rejects.toThrow(/Building canaries from Python tests needs python3-not-installed-here on PATH/);
  });
});
