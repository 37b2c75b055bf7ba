import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoIdentity } from "../../src/git/repo-identity.js";
import { openDatabase } from "../../src/store/db.js";
import { SqliteThreadStore } from "../../src/store/sqlite-threads.js";
import type { NewThread } from "../../src/store/thread-store.js";
import { describeResult, runYolo } from "../helpers/cli.js";
import { project } from "../helpers/per-test.js";

// `yolo threads` lists this repository's threads: the store's filter (this root, this repository's identity, or no
// identity recorded). When the project's SQLite file holds only threads of this root, the command skips asking git
// for the identity; either way it must list exactly what the store's own filter lists.

const thread = (id: string, root: string, repo: string | null): NewThread => ({ id, requirement: `req ${id}`, model: "m", root, repo });

async function seed(root: string, threads: NewThread[]) {
  const db = openDatabase(join(root, ".yolo", "yolo.db"));
  try {
    const store = new SqliteThreadStore(db);
    for (const t of threads) await store.create(t);
  } finally {
    db.close();
  }
}

// What the store itself lists for this repository, by the identity git gives.
async function storeLists(root: string): Promise<string[]> {
  const db = openDatabase(join(root, ".yolo", "yolo.db"));
  try {
    const rows = await new SqliteThreadStore(db).list({ repo: await repoIdentity(root), root });
    return rows.map((r) => r.id).sort();
  } finally {
    db.close();
  }
}

async function listed(root: string): Promise<string[]> {
  const r = await runYolo(["threads", "--json"], { cwd: root });
  expect(r.exitCode, describeResult(r)).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }[]).map((t) => t.id).sort();
}

describe("yolo threads lists exactly the store's threads of this repository", () => {
  it("with threads of other working copies and other repositories in the file: by the repository's identity", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    execFileSync("git", ["remote", "add", "origin", "https://example.com/org/demo.git"], { cwd: root });
    await seed(root, [
      thread("here", root, "example.com/org/demo"),
      thread("other-copy", "/elsewhere/demo", "example.com/org/demo"),
      thread("other-repo", "/elsewhere/other", "example.com/org/other"),
      thread("before-repo", "/elsewhere/old", null),
    ]);
    expect(await listed(root)).toEqual(["before-repo", "here", "other-copy"]);
    expect(await listed(root)).toEqual(await storeLists(root));
  });

  it("with only this root's threads in the file: all of them, as the store lists them", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    execFileSync("git", ["remote", "add", "origin", "https://example.com/org/demo.git"], { cwd: root });
    // Recorded under another identity (the remote changed since): listed for their root.
    await seed(root, [thread("a", root, "example.com/org/renamed"), thread("b", root, "example.com/org/demo"), thread("c", root, null)]);
    expect(await listed(root)).toEqual(["a", "b", "c"]);
    expect(await listed(root)).toEqual(await storeLists(root));
  });
});
