import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitKillers } from "../../../src/eval/mutant-split.js";
import { commitFiles, HOST_SUITE } from "../../helpers/eval-build-repo.js";

// A mutant killed by tests in two files shows the run the first and hides the other file. pytest names each test's
// file in its id, so that file alone holds it: a test in another file whose name merely starts with it (pytest's
// test_copy_function and test_copy_function_kw_defaults, as mahmoud/boltons has them) must not count as holding
// it too, or nothing is hidden. Real git and pytest on a generated project.

let root: string;
const gates = [{ name: "test", command: "pytest -rA", required: true, timeoutS: 120 }];
const failing = ["test: tests/test_copy.py::test_copy", "test: tests/test_copy_more.py::test_copy_kw"];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-mutant-split-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  commitFiles(root, "mutant", {
    "conftest.py": "",
    "calc/__init__.py": "",
    // The mutant: copy drops the keyword defaults, and both files' tests fail.
    "calc/ops.py": "def copy(d, **kw):\n    return dict(d)\n",
    "tests/test_copy.py": "from calc.ops import copy\n\n\ndef test_copy():\n    assert copy({}, a=1) == {'a': 1}\n",
    "tests/test_copy_more.py": "from calc.ops import copy\n\n\ndef test_copy_kw():\n    assert copy({'b': 2}, a=1) == {'a': 1, 'b': 2}\n",
  });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("splitting a mutant's killing tests (pytest)", { timeout: 120_000 }, () => {
  it("hides the other file when a test's name is a prefix of the hidden one's", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const trial = { dir: root, head, gates, passing: [], suite: HOST_SUITE, logDir: join(root, ".yolo", "logs") };
    const split = await splitKillers(failing, trial, join(root, ".yolo", "logs", "split"));
    expect(split).toEqual({ visible: [failing[0]], hiddenFiles: ["tests/test_copy_more.py"] });
  });
});
