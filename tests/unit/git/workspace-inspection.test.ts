import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { headCommit, isGitRepo, repoState, snapshotRef, snapshotWorkTree, uncommittedChanges } from "../../../src/git/repo.js";
import { indexFile } from "../../../src/git/staged-work-tree.js";
import { inspectWithSnapshot, inspectWorkspace, prepareWorkspace, startSnapshot } from "../../../src/git/workspace.js";
import { tempDir } from "../../helpers/per-test.js";

// A run's start reads git once, all at once (repoState stands in for isGitRepo + headCommit; inspectWorkspace runs
// the status beside it). Each shortcut is checked against the separate commands it replaces, on real repositories.

const gitIn = (root: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });

// Every kind of place a run can start in: outside git, a repository before its first commit, with commits (clean and
// dirty), a sub-folder of one, its .git folder, a detached HEAD.
function places(onTestFinished: Parameters<typeof tempDir>[0]): Record<string, string> {
  const outside = tempDir(onTestFinished, "yolo-inspect-none-");
  const empty = tempDir(onTestFinished, "yolo-inspect-empty-");
  gitIn(empty, "init", "-q");
  writeFileSync(join(empty, "a.txt"), "a\n");
  const repo = tempDir(onTestFinished, "yolo-inspect-repo-");
  gitIn(repo, "init", "-q");
  mkdirSync(join(repo, "sub"));
  writeFileSync(join(repo, "sub", "b.txt"), "b\n");
  gitIn(repo, "add", "-A");
  gitIn(repo, "commit", "-qm", "init");
  const dirty = tempDir(onTestFinished, "yolo-inspect-dirty-");
  gitIn(dirty, "init", "-q");
  writeFileSync(join(dirty, "c.txt"), "c\n");
  gitIn(dirty, "add", "-A");
  gitIn(dirty, "commit", "-qm", "init");
  writeFileSync(join(dirty, "c.txt"), "changed\n");
  writeFileSync(join(dirty, "new.txt"), "n\n");
  const detached = tempDir(onTestFinished, "yolo-inspect-detached-");
  gitIn(detached, "init", "-q");
  gitIn(detached, "commit", "-q", "--allow-empty", "-m", "one");
  gitIn(detached, "commit", "-q", "--allow-empty", "-m", "two");
  gitIn(detached, "checkout", "-q", "HEAD~1");
  return { outside, empty, repo, sub: join(repo, "sub"), dotGit: join(repo, ".git"), dirty, detached };
}

describe("inspecting the workspace in one go", () => {
  it("repoState answers what isGitRepo and headCommit answer, everywhere", async ({ onTestFinished }) => {
    for (const [name, root] of Object.entries(places(onTestFinished))) {
      const inRepo = await isGitRepo(root);
      expect(await repoState(root), name).toEqual({ inRepo, head: inRepo ? await headCommit(root) : null, index: inRepo ? await indexFile(root) : null });
    }
  });

  it("inspectWorkspace answers what the commands one after another answer, and never fails outside git", async ({ onTestFinished }) => {
    for (const [name, root] of Object.entries(places(onTestFinished))) {
      const inRepo = await isGitRepo(root);
      const start = await inspectWorkspace(root, "start");
      expect({ ...start, filters: undefined }, name).toEqual({
        inRepo,
        head: inRepo ? await headCommit(root) : null,
        dirty: inRepo ? await uncommittedChanges(root) : [],
        filters: undefined,
        ...(inRepo ? { index: await indexFile(root) } : {}),
      });
      expect((await inspectWorkspace(root, "resume")).dirty, name).toEqual([]);
    }
  });

  it("a dirty start's snapshot from the early inspection is the one prepareWorkspace made on its own", async ({ onTestFinished }) => {
    const { dirty } = places(onTestFinished);
    const facts = inspectWorkspace(dirty, "start");
    const snapshot = startSnapshot(facts, { root: dirty, branch: false });
    // Written early, kept by nothing until the start is prepared: a start refused in between leaves no ref.
    const written = await snapshot;
    expect(written).toMatch(/^[0-9a-f]{40}$/);
    expect(gitIn(dirty, "for-each-ref", "refs/yolo/").trim()).toBe("");
    const early = await prepareWorkspace({ root: dirty, threadId: "early001", branch: false, allowDirty: false, mode: "start", facts, snapshot });
    // Taken early, it is not waited for: the run records it (pendingStart) before it changes anything.
    expect(early.startCommit).toBeNull();
    const startCommit = await early.pendingStart;
    expect(startCommit).toBe(written);
    const alone = await prepareWorkspace({ root: dirty, threadId: "alone001", branch: false, allowDirty: false, mode: "start" });
    expect(alone.pendingStart).toBeNull();
    expect(early.dirty).toEqual(alone.dirty);
    expect(early.dirty.length).toBe(2);
    // Same tree, same parent; both kept by their refs.
    const tree = (c: string | null) => gitIn(dirty, "rev-parse", `${c}^{tree}`).trim();
    expect(tree(startCommit ?? null)).toBe(tree(alone.startCommit));
    expect(gitIn(dirty, "rev-parse", `${startCommit}^`).trim()).toBe(gitIn(dirty, "rev-parse", "HEAD").trim());
    expect(gitIn(dirty, "rev-parse", snapshotRef("early001")).trim()).toBe(startCommit);
  });

  it("inspectWithSnapshot: the facts inspectWorkspace reads, a dirty tree's commit, and nothing written for a clean tree", async ({ onTestFinished }) => {
    const { repo, dirty, outside } = places(onTestFinished);
    const objects = (root: string) => gitIn(root, "count-objects", "-v");
    const before = objects(repo);
    const clean = inspectWithSnapshot(repo);
    expect({ ...(await clean.facts), filters: undefined }).toEqual({ ...(await inspectWorkspace(repo, "start")), filters: undefined });
    expect(await clean.snapshot).toBeNull();
    expect(objects(repo)).toBe(before);
    expect(await inspectWithSnapshot(outside).snapshot).toBeNull();
    const early = inspectWithSnapshot(dirty);
    const commit = await early.snapshot;
    const alone = await snapshotWorkTree(dirty, "alone002");
    expect(gitIn(dirty, "rev-parse", `${commit}^{tree}`)).toBe(gitIn(dirty, "rev-parse", `${alone}^{tree}`));
    expect(gitIn(dirty, "rev-parse", `${commit}^`)).toBe(gitIn(dirty, "rev-parse", "HEAD"));
  });

  it("no early snapshot where prepareWorkspace takes none: a clean tree, branch mode, outside git", async ({ onTestFinished }) => {
    const { repo, dirty, outside } = places(onTestFinished);
    expect(await startSnapshot(inspectWorkspace(repo, "start"), { root: repo, branch: false })).toBeNull();
    expect(await startSnapshot(inspectWorkspace(dirty, "start"), { root: dirty, branch: true })).toBeNull();
    expect(await startSnapshot(inspectWorkspace(outside, "start"), { root: outside, branch: false })).toBeNull();
  });

  it("a repository's own filter driver runs for none of the start's content commands (status, read-tree, add, and write-tree, which re-reads racily clean files), read once for all", async ({
    onTestFinished,
  }) => {
    const { dirty } = places(onTestFinished);
    const marker = join(tempDir(onTestFinished, "yolo-filter-ran-"), "ran");
    writeFileSync(join(dirty, ".gitattributes"), "* filter=x\n");
    gitIn(dirty, "config", "filter.x.clean", `sh -c 'echo clean >> ${marker}; cat'`);
    gitIn(dirty, "config", "filter.x.smudge", `sh -c 'echo smudge >> ${marker}; cat'`);
    const facts = inspectWorkspace(dirty, "start");
    const snapshot = startSnapshot(facts, { root: dirty, branch: false });
    const ws = await prepareWorkspace({ root: dirty, threadId: "filt0001", branch: false, allowDirty: false, mode: "start", facts, snapshot });
    expect(await ws.pendingStart).toMatch(/^[0-9a-f]{40}$/);
    expect(ws.dirty.length).toBeGreaterThan(0);
    expect(existsSync(marker)).toBe(false);
    // The control: git itself runs the driver when yolo does not neutralise it.
    gitIn(dirty, "add", "-A");
    expect(existsSync(marker)).toBe(true);
  });

  it("a status that fails inside a repository still fails the start, as when it ran on its own", async ({ onTestFinished }) => {
    const { repo } = places(onTestFinished);
    // An index git cannot read.
    writeFileSync(join(repo, ".git", "index"), "garbage");
    const alone = await uncommittedChanges(repo).catch((e: unknown) => e);
    const early = await inspectWorkspace(repo, "start").catch((e: unknown) => e);
    expect(alone).toBeInstanceOf(Error);
    expect(early).toEqual(alone);
  });
});

describe("the start snapshot's author", () => {
  it("is the user when git knows who that is, and yolo when it does not (as when `git var` was asked first)", async ({ onTestFinished }) => {
    const { dirty } = places(onTestFinished);
    const home = tempDir(onTestFinished, "yolo-no-identity-home-");
    vi.stubEnv("HOME", home);
    vi.stubEnv("XDG_CONFIG_HOME", home);
    vi.stubEnv("GIT_CONFIG_GLOBAL", join(home, "none"));
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const author = (commit: string) => gitIn(dirty, "show", "-s", "--format=%an <%ae>|%cn <%ce>", commit).trim();
    expect(author(await snapshotWorkTree(dirty, "anon0001"))).toBe("yolo <yolo@localhost>|yolo <yolo@localhost>");
    vi.stubEnv("GIT_AUTHOR_NAME", "Ada");
    vi.stubEnv("GIT_AUTHOR_EMAIL", "ada@example.com");
    vi.stubEnv("GIT_COMMITTER_NAME", "Ada");
    vi.stubEnv("GIT_COMMITTER_EMAIL", "ada@example.com");
    expect(author(await snapshotWorkTree(dirty, "user0001"))).toBe("Ada <ada@example.com>|Ada <ada@example.com>");
  });
});
