import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { requireTool, whyUnusable } from "../../helpers/requires.js";
import { tempDir } from "../../helpers/per-test.js";

// requireTool: a missing or broken tool fails the test under CI and skips it (saying why) elsewhere.
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

// A PATH holding only a fake `tmux` that exits with `code`.
function pathWithTmux(dir: string, code: number): string {
  fs.writeFileSync(path.join(dir, "tmux"), `#!/bin/sh\necho 'tmux: broken here' >&2\nexit ${code}\n`, { mode: 0o755 });
  return dir;
}

// A stand-in for the test context whose skip, like vitest's, stops the test by throwing.
function context() {
  const skip = vi.fn((note?: string) => {
    throw new Error(`skipped: ${note}`);
  });
  return { skip, calls: skip.mock.calls };
}

describe("requireTool", () => {
  it("fails under CI when the tool is not installed, naming the test's need, the tool and the fix", ({ onTestFinished }) => {
    vi.stubEnv("PATH", tempDir(onTestFinished, "yolo-nopath-"));
    vi.stubEnv("YOLO_TEST_UNDER_CI", "");
    vi.stubEnv("CI", "true");
    const ctx = context();
    expect(() => requireTool(ctx, "tmux", "the live view in a real terminal")).toThrow(
      "CI is set, so this test must run, but the live view in a real terminal needs tmux: tmux is not installed. To fix: apt-get install tmux.",
    );
    expect(ctx.calls).toEqual([]);
  });

  it("fails under CI as the setup file leaves it (CI moved to YOLO_TEST_UNDER_CI) when the tool is present but broken", ({ onTestFinished }) => {
    vi.stubEnv("PATH", pathWithTmux(tempDir(onTestFinished, "yolo-badtmux-"), 1));
    vi.stubEnv("CI", "");
    vi.stubEnv("YOLO_TEST_UNDER_CI", "1");
    const ctx = context();
    expect(() => requireTool(ctx, "tmux", "the TUI test")).toThrow(
      /CI is set, so this test must run, but the TUI test needs tmux: `tmux -V` failed \(tmux: broken here\)/,
    );
    expect(ctx.calls).toEqual([]);
  });

  it("skips with a printed reason when CI is not set", ({ onTestFinished }) => {
    vi.stubEnv("PATH", tempDir(onTestFinished, "yolo-nopath-"));
    vi.stubEnv("CI", "");
    vi.stubEnv("YOLO_TEST_UNDER_CI", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const ctx = context();
    expect(() => requireTool(ctx, "script", "a pseudo-terminal")).toThrow("skipped: a pseudo-terminal needs script: script is not installed");
    expect(ctx.calls).toEqual([["a pseudo-terminal needs script: script is not installed"]]);
    expect(warn).toHaveBeenCalledWith(
      "[skipped] a pseudo-terminal needs script: script is not installed (apt-get install bsdutils (util-linux's script); under CI this fails)",
    );
  });

  it("neither fails nor skips when the tool works, under CI or not", ({ onTestFinished }) => {
    vi.stubEnv("PATH", pathWithTmux(tempDir(onTestFinished, "yolo-goodtmux-"), 0));
    for (const ci of ["true", ""]) {
      vi.stubEnv("CI", ci);
      const ctx = context();
      expect(() => requireTool(ctx, "tmux", "the TUI test")).not.toThrow();
      expect(ctx.calls).toEqual([]);
    }
    expect(whyUnusable("tmux")).toBeNull();
  });

  it("really skips a vitest test outside CI", (ctx) => {
    vi.stubEnv("PATH", "/nonexistent-yolo-path");
    vi.stubEnv("CI", "");
    vi.stubEnv("YOLO_TEST_UNDER_CI", "");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    requireTool(ctx, "tmux", "this test");
    expect.unreachable("requireTool should have skipped this test");
  });
});
