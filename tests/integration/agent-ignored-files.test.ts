import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentIgnoredBefore, isCache, recordIgnoredBaseline, settleIgnoredAfter } from "../../src/engine/nodes/agent-ignored.js";
import { ignoredStamps } from "../../src/git/ignored-stamps.js";

// Which files git ignores are the agents': stamped after the baseline, then compared before each gate run; what a
// gate run writes is yolo's. Real git, real files and stamps.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-ignored-")));
  dirs.push(root);
  put(root, files);
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

function put(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

const notOwn = () => false;

describe("the agents' ignored files", () => {
  it("new and changed ignored files are the agents'; the user's untouched ones and a gate's output are not; an agent's cache is removed", async () => {
    const root = project({ ".gitignore": "dist/\n*.local.js\n.env.local\n", "dist/old.js": "1", ".env.local": "X=1\n", "src/a.js": "a" });
    const file = join(root, ".yolo", "ignored.json");
    await recordIgnoredBaseline(root, file, notOwn);
    expect(await agentIgnoredBefore(root, file, notOwn)).toEqual({ ok: true, paths: [] });
    // The agents: a hidden test, an edit to the user's build output, a forged build info.
    put(root, { "test/x.local.js": "hidden", "dist/old.js": "2", "dist/tsconfig.tsbuildinfo": "{}" });
    const seen = await agentIgnoredBefore(root, file, notOwn);
    expect(seen).toEqual({ ok: true, paths: ["dist/old.js", "test/x.local.js"] });
    expect(existsSync(join(root, "dist/tsconfig.tsbuildinfo"))).toBe(false);
    // A gate run writes new output: yolo's, not the agents'; the agents' files stay theirs.
    put(root, { "dist/new.js": "built" });
    await settleIgnoredAfter(root, file, notOwn);
    expect(await agentIgnoredBefore(root, file, notOwn)).toEqual({ ok: true, paths: ["dist/old.js", "test/x.local.js"] });
  });

  it("past the bound yolo cannot tell, and says so naming the largest folder", async () => {
    const root = project({ ".gitignore": "build/\n", ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`build/f${i}`, "x"])) });
    const walked = await ignoredStamps(root, () => false, 5);
    expect(walked).toEqual({ ok: false, over: 6, folders: ["build (6 files)"] });
    const control = await ignoredStamps(root, () => false, 6);
    expect(control.ok && Object.keys(control.stamps)).toHaveLength(6);
  });

  it("caches by name: build info and files under cache folders, not ordinary files", () => {
    expect(["a/tsconfig.tsbuildinfo", ".jest-cache/x/y.js", "node_modules/.vite/vitest/results.json", "tmp/jest_rs/a"].every(isCache)).toBe(true);
    expect(["src/cache.js", "test/x.local.test.js", "dist/index.js"].some(isCache)).toBe(false);
  });
});
