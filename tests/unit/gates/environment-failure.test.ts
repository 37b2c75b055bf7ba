import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { environmentFailure } from "../../../src/gates/environment-failure.js";

const failed = { passed: false, exitCode: 1, timedOut: false };
const ROOT = "/home/me/proj";

describe("a gate's failure read as the environment's or the tests'", () => {
  it("Go's read-only build cache inside the sandbox is the environment's, with the line and the fix", () => {
    const out = "ok\nfailed to initialize build cache at /root/.cache/go-build: mkdir /root/.cache/go-build: read-only file system\n";
    expect(environmentFailure(failed, out, ROOT, true)).toMatchObject({
      kind: "read-only",
      line: "failed to initialize build cache at /root/.cache/go-build: mkdir /root/.cache/go-build: read-only file system",
    });
  });

  it("a read-only or permission error on the project's own files is the tests' business", () => {
    expect(environmentFailure(failed, `Error: EROFS: read-only file system, open '${ROOT}/fixtures/ro.txt'`, ROOT, true)).toBeNull();
    expect(environmentFailure(failed, `Error: EACCES: permission denied, open '${ROOT}/secret'`, ROOT, true)).toBeNull();
    expect(environmentFailure(failed, "Error: EACCES: permission denied, open '/etc/shadow'", ROOT, true)?.kind).toBe("permission");
  });

  it("a missing command is exit code 127 only; a test named 'not found' is not", () => {
    expect(environmentFailure({ ...failed, exitCode: 127 }, "sh: 1: cargo: not found", ROOT, true)?.kind).toBe("missing-toolchain");
    expect(environmentFailure(failed, "✗ returns 404 when the user is not found", ROOT, true)).toBeNull();
  });

  it("no network counts only inside the sandbox; a full disk anywhere", () => {
    const net = 'go: example.com/x@v1.0.0: Get "https://proxy.golang.org/...": dial tcp: lookup proxy.golang.org: Temporary failure in name resolution';
    expect(environmentFailure(failed, net, ROOT, true)?.kind).toBe("network");
    expect(environmentFailure(failed, net, ROOT, false)).toBeNull();
    expect(environmentFailure(failed, "write /tmp/x: no space left on device", ROOT, false)?.kind).toBe("disk");
  });

  it("a passing, timed-out or killed gate is never called an environment failure", () => {
    const out = "mkdir /root/.cache/go-build: read-only file system";
    expect(environmentFailure({ passed: true, exitCode: 0, timedOut: false }, out, ROOT, true)).toBeNull();
    expect(environmentFailure({ passed: false, exitCode: null, timedOut: true }, out, ROOT, true)).toBeNull();
    expect(environmentFailure({ passed: false, exitCode: null, timedOut: false }, out, ROOT, true)).toBeNull();
  });
});

describe("a Python package in src/ that the tests cannot import", () => {
  const tree = (files: string[]) => {
    const root = mkdtempSync(join(tmpdir(), "yolo-env-src-"));
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), "");
    }
    return root;
  };
  const pytest = (name: string) =>
    `ImportError while importing test module '/p/tests/test_calc.py'.\nHint: make sure your test modules/packages have valid Python names.\nTraceback:\ntests/test_calc.py:1: in <module>\n    from ${name} import add\nE   ModuleNotFoundError: No module named '${name.split(".")[0]}'\n`;

  it("is the environment's: the project is not installed, with the line and both ways to fix it", () => {
    const root = tree(["src/calc/__init__.py", "tests/test_calc.py"]);
    const found = environmentFailure(failed, pytest("calc.ops"), root, true);
    expect(found).toMatchObject({ kind: "not-installed", line: "E   ModuleNotFoundError: No module named 'calc'" });
    expect(found?.fix).toContain("pip install -e .");
    expect(found?.fix).toContain('pythonpath = ["src"]');
    expect(environmentFailure(failed, "ModuleNotFoundError: No module named 'util'", tree(["src/util.py"]), false)?.kind).toBe("not-installed");
  });

  it("a module that does not exist yet may be the task; one Python can find at the top level is not this", () => {
    expect(environmentFailure(failed, pytest("calc"), tree(["tests/test_calc.py"]), true)).toBeNull();
    expect(environmentFailure(failed, pytest("calc"), tree(["src/calc/__init__.py", "calc/__init__.py"]), true)).toBeNull();
    expect(environmentFailure(failed, pytest("calc"), tree(["src/calc/__init__.py", "calc.py"]), true)).toBeNull();
  });

  it("a missing third-party module is not read as the project's own", () => {
    expect(environmentFailure(failed, pytest("requests"), tree(["src/calc/__init__.py"]), true)).toBeNull();
  });
});
