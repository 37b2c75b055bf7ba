import { afterAll, describe, expect, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";
import { matrixProject, type MatrixProject, statuses } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// The unittest command detected for a tests/ folder, run for real. Many projects (tomli among them) make tests/ a
// package whose modules import each other relatively (`from . import helpers`): discovered with tests/ as the top
// level, none of them imports, and every test fails before a line of the project is run. A folder of plain test
// modules must keep working as well.
const CALC = "def add(a, b):\n    return a + b\n";
const HELPERS = "import calc\n\n\ndef check(case, a, b, expected):\n    case.assertEqual(calc.add(a, b), expected)\n";
const PACKAGED = `import unittest

from . import helpers


class TestAdd(unittest.TestCase):
    def test_small(self):
        helpers.check(self, 2, 3, 5)
`;
const PLAIN = "import unittest\nimport calc\n\n\nclass TestAdd(unittest.TestCase):\n    def test_small(self):\n        self.assertEqual(calc.add(2, 3), 5)\n";

describe.runIf(toolchain("python3", ["python3", "--version"]))("the detected unittest command on a tests/ folder", () => {
  const projects: MatrixProject[] = [];
  afterAll(() => {
    for (const p of projects) p.remove();
  });
  const detectedRun = async (name: string, files: Record<string, string>) => {
    const p = matrixProject(name, { "pyproject.toml": '[project]\nname = "calc"\n', "calc.py": CALC, ...files });
    projects.push(p);
    const [test] = defaultGates(p.root);
    return { command: test.command, run: await p.gate(test.command) };
  };

  it("a tests package with relative imports: every test imports and passes", async () => {
    const { command, run } = await detectedRun("unittest-package", { "tests/__init__.py": "", "tests/helpers.py": HELPERS, "tests/test_add.py": PACKAGED });
    expect(command).toBe("python3 -m unittest discover -v -s tests -t .");
    expect(run.result.passed, run.result.tail).toBe(true);
    expect(statuses(run.tests)).toEqual({ "tests.test_add.TestAdd.test_small": "passed" });
  }, 120_000);

  it("a folder of plain test modules (no __init__.py) keeps its own command", async () => {
    const { command, run } = await detectedRun("unittest-folder", { "tests/test_add.py": PLAIN });
    expect(command).toBe("python3 -m unittest discover -v -s tests");
    expect(run.result.passed, run.result.tail).toBe(true);
    expect(statuses(run.tests)).toEqual({ "test_add.TestAdd.test_small": "passed" });
  }, 120_000);
});
