import { checkGate, exists, listDir, readText, testGate, type Detector } from "./files.js";

const MARKERS = ["pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "pytest.ini", "requirements.txt", "requirements-dev.txt"];
const TEST_FILE = /^(test_.*|.*_test)\.py$/;

/**
 * Python: pytest when the project uses it (its config, a conftest.py, or pytest named in a manifest), run under
 * `uv run` when the project is uv-managed or through `tox` when it has a tox config; `python3 -m unittest` when
 * there are test files but no sign of pytest. `-rA` makes pytest list every test's outcome; `-v` does for unittest.
 * ruff, when configured, is an optional lint gate.
 */
export const detectPython: Detector = (root) => {
  const testDir = ["tests", "test"].find((d) => listDir(root, d).some((e) => TEST_FILE.test(e.name)));
  const rootTests = listDir(root, "").some((e) => e.isFile() && TEST_FILE.test(e.name));
  if (!MARKERS.some((m) => exists(root, m)) && !testDir && !rootTests) return null;
  const pyproject = readText(root, "pyproject.toml") ?? "";
  const manifests = [
    pyproject,
    readText(root, "setup.cfg"),
    readText(root, "setup.py"),
    readText(root, "tox.ini"),
    readText(root, "requirements.txt"),
    readText(root, "requirements-dev.txt"),
  ].join("\n");
  const uv = exists(root, "uv.lock") || /^\[tool\.uv\b/m.test(pyproject);
  const tox = exists(root, "tox.ini") || /^\[tool\.tox\b/m.test(pyproject);
  const pytest =
    exists(root, "pytest.ini") ||
    exists(root, "conftest.py") ||
    (testDir !== undefined && exists(root, `${testDir}/conftest.py`)) ||
    /\bpytest\b/.test(manifests);
  let test = null;
  if (pytest) test = testGate(uv ? "uv run pytest -rA" : tox ? "tox" : "pytest -rA");
  else if (rootTests) test = testGate("python3 -m unittest discover -v");
  // A tests package (its own __init__.py) is discovered from the root as its top level, so its modules' relative
  // imports (`from . import helpers`) resolve; with the folder itself as the top level none of them imports.
  else if (testDir) test = testGate(`python3 -m unittest discover -v -s ${testDir}${exists(root, `${testDir}/__init__.py`) ? " -t ." : ""}`);
  const ruff = exists(root, "ruff.toml") || exists(root, ".ruff.toml") || /^\[tool\.ruff\b/m.test(pyproject);
  const checks = ruff ? [checkGate("ruff", uv ? "uv run ruff check ." : "ruff check .")] : [];
  return { ecosystem: "python", test, checks };
};
