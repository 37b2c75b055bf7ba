import { describe, expect, it } from "vitest";
import { runChangingReason, treeFacts } from "../../../src/eval/run-changing-files.js";

// Which new files a runner or an interpreter loads by their place and name (never judged), and which are ordinary
// files a fix may add (judged). The real runners prove the dangerous ones in tests/integration/eval/run-changing-files.

const tree = treeFacts(["package.json", "src/add.js", "pycalc/__init__.py", "pycalc/add.py", "tests/test_add.py", "tests/helpers.py", "test/add.test.js"]);

describe("new files that change how the tests run", () => {
  it("start-up hooks, runner configs in any folder, compiled Python, nested dependencies and package.json", () => {
    for (const path of [
      "sitecustomize.py",
      "pycalc/usercustomize.py",
      "pycalc/sub/conftest.py",
      "tests/pytest.ini",
      "pycalc/setup.cfg",
      "pycalc/tox.ini",
      "pycalc/pyproject.toml",
      "lib/x.pth",
      "tests/__pycache__/helpers.cpython-311.pyc",
      "pycalc/add.pyc",
      ".npmrc",
      "test/node_modules/dep/index.js",
      "src/package.json",
      "src/tsconfig.json",
      "test/.babelrc",
      ".swcrc",
    ]) {
      expect(runChangingReason(path, tree), path).not.toBeNull();
    }
  });

  it("a Python module that would shadow the tests' imports: at the root, as a new top-level package, beside or below the tests", () => {
    expect(runChangingReason("unittest.py", tree)).toMatch(/project's root/);
    expect(runChangingReason("requests/__init__.py", tree)).toMatch(/project's root/);
    expect(runChangingReason("tests/pycalc/add.py", tree)).toMatch(/beside the Python tests/);
    expect(runChangingReason("tests/unittest.py", tree)).toMatch(/beside the Python tests/);
  });

  it("control: a module inside the project's package, a JS module, a data file are ordinary", () => {
    for (const path of ["pycalc/ops.py", "pycalc/sub/__init__.py", "src/ops.js", "src/util/index.ts", "src/data.json", "docs/notes.md"]) {
      expect(runChangingReason(path, tree), path).toBeNull();
    }
  });
});
