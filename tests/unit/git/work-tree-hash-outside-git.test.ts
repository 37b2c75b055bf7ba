import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hasGitEntry } from "../../../src/git/git-entry.js";
import { gitOnPath } from "../../../src/git/git-binary.js";
import { workTreeHash } from "../../../src/git/work-tree-hash.js";
import { project, tempDir } from "../../helpers/per-test.js";

afterEach(() => vi.unstubAllEnvs());

// A `git` first on PATH that notes each call, then runs the real one.
function loggingGit(dir: string): string {
  const log = join(dir, "calls.log");
  writeFileSync(join(dir, "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${gitOnPath(process.env.PATH)}' "$@"\n`);
  chmodSync(join(dir, "git"), 0o755);
  vi.stubEnv("PATH", `${dir}:${process.env.PATH}`);
  return log;
}

describe("the work-tree hash outside git", () => {
  it("fails without starting git when no folder from the project up holds a .git", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    writeFileSync(join(root, "a.js"), "1\n");
    expect(hasGitEntry(root)).toBe(false);
    const log = loggingGit(tempDir(onTestFinished));
    await expect(workTreeHash(root)).rejects.toThrow(/is not in a git repository/);
    expect(existsSync(log)).toBe(false);
  });

  it("runs git once the project is in a repository: a .git folder above it, or a .git file in it", async ({ onTestFinished }) => {
    const repo = project(onTestFinished, { "pkg/a.js": "1\n" });
    expect(hasGitEntry(join(repo, "pkg"))).toBe(true);
    expect(await workTreeHash(join(repo, "pkg"))).toMatch(/^[0-9a-f]{40}$/);
    const linked = tempDir(onTestFinished);
    mkdirSync(join(linked, "src"));
    writeFileSync(join(linked, ".git"), "gitdir: /nowhere\n");
    expect(hasGitEntry(join(linked, "src"))).toBe(true);
    const log = loggingGit(tempDir(onTestFinished));
    await expect(workTreeHash(join(linked, "src"))).rejects.toThrow();
    expect(existsSync(log)).toBe(true);
  });
});
