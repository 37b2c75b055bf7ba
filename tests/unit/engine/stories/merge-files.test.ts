import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { filesWithMarkers, mergeStory } from "../../../../src/engine/stories/merge.js";
import { tempDir } from "../../../helpers/per-test.js";

/** A repository (the thread's tree) and a second checkout of it (a story's worktree), both at the base commit. */
function setup(onTestFinished: Parameters<typeof tempDir>[0], files: Record<string, string>) {
  const dir = tempDir(onTestFinished);
  const root = join(dir, "main");
  const story = join(dir, "story");
  mkdirSync(root);
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();
  git(root, "init", "-q");
  for (const [f, c] of Object.entries(files)) writeFileSync(join(root, f), c);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "base");
  const base = git(root, "rev-parse", "HEAD");
  git(root, "worktree", "add", "-q", "-b", "s", story);
  const commitStory = () => {
    git(story, "add", "-A");
    git(story, "commit", "-qm", "story");
    return { base, tip: git(story, "rev-parse", "HEAD") };
  };
  return { root, story, commitStory };
}

const labels = { ours: "merged stories", theirs: "story s" };

describe("merging a story's files into the thread's tree", () => {
  it("takes the story's side where only it changed, and marks a real conflict", async ({ expect, onTestFinished }) => {
    const { root, story, commitStory } = setup(onTestFinished, { "a.txt": "one\n", "b.txt": "x\n" });
    writeFileSync(join(story, "a.txt"), "one, story\n");
    writeFileSync(join(story, "b.txt"), "story\n");
    writeFileSync(join(story, "new.txt"), "new\n");
    const commits = commitStory();
    writeFileSync(join(root, "b.txt"), "ours\n");
    const r = await mergeStory(root, story, commits, labels);
    expect(r.conflicts).toEqual(["b.txt"]);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one, story\n");
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("new\n");
    expect(filesWithMarkers(root, ["a.txt", "b.txt"])).toEqual(["b.txt"]);
    // Again (a merge step re-run after a kill): files that hold the story's side already are left alone.
    const again = await mergeStory(root, story, commits, labels);
    expect(again.changed).toEqual(["b.txt"]);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one, story\n");
  });

  it("a story's symbolic link to a host file arrives as a link, never as the file's content", async ({ expect, onTestFinished }) => {
    const { root, story, commitStory } = setup(onTestFinished, { "a.txt": "a\n" });
    symlinkSync("/etc/hostname", join(story, "leak.txt"));
    const commits = commitStory();
    await mergeStory(root, story, commits, labels);
    expect(lstatSync(join(root, "leak.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, "leak.txt"))).toBe("/etc/hostname");
  });

  it("never writes through a folder of the thread's tree that links outside it", async ({ expect, onTestFinished }) => {
    const { root, story, commitStory } = setup(onTestFinished, { "a.txt": "a\n" });
    const outside = tempDir(onTestFinished);
    mkdirSync(join(story, "out"));
    writeFileSync(join(story, "out/x.txt"), "x\n");
    const commits = commitStory();
    symlinkSync(outside, join(root, "out"));
    await expect(mergeStory(root, story, commits, labels)).rejects.toThrow(/links outside the project/);
    expect(() => readFileSync(join(outside, "x.txt"))).toThrow();
  });
});
