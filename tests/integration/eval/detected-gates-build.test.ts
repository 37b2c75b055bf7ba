import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTasksFromHistory } from "../../../src/eval/build.js";
import { commitFiles, HOST_SUITE } from "../../helpers/eval-build-repo.js";

// With no gates configured, a history build detects them as a run does, and a run leaves out a detected gate whose
// program is not installed, running the plain runner in its place: `tox` for a project with a tox.ini (as
// mahmoud/boltons has) becomes `pytest -rA` when tox is not on PATH. The build ran `tox` itself, so every candidate
// was discarded ("listed no tests (exit code 127)") and a task written would name a gate no judge could run. Real
// git and pytest, on the PATH without tox.

const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir && !existsSync(join(dir, "tox")))
  .join(delimiter);
let root: string;
let base: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-detected-gates-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  commitFiles(root, "start", {
    "tox.ini": "[tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest {posargs}\n",
    // A root conftest puts the project on sys.path, as a project does for `pytest` run by its name.
    "conftest.py": "",
    "calc/__init__.py": "",
    "calc/ops.py": "def add(a, b):\n    return a - b\n",
    "tests/test_truth.py": "def test_truth():\n    assert True\n",
  });
  base = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  commitFiles(root, "Fix add", {
    "calc/ops.py": "def add(a, b):\n    return a + b\n",
    "tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a history build with detected gates", { timeout: 120_000 }, () => {
  it("runs the gates a run would, the plain runner in place of a missing tox, and writes those in the task", async () => {
    const workDir = join(root, ".yolo", "eval", "work", "history");
    const suite = { ...HOST_SUITE, env: { ...HOST_SUITE.env, PATH } };
    const built = await buildTasksFromHistory({ root, range: `${base}..HEAD`, max: null, gates: null, workDir, suite, parallel: 1 });
    expect(built.discarded).toEqual([]);
    expect(built.tasks.map((t) => [t.targets, t.guards])).toEqual([[["test: tests/test_ops.py::test_add"], ["test: tests/test_truth.py::test_truth"]]]);
    expect(built.tasks[0].gates.map((g) => g.command)).toEqual(["pytest -rA"]);
  });
});
