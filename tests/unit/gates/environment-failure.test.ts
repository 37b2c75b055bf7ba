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
