import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ThreadError } from "../../../src/errors.js";
import { openStorage, type Storage } from "../../../src/store/open-storage.js";
import { BACKENDS, useTestDatabase } from "../../helpers/postgres.js";
import { tempDir } from "../../helpers/per-test.js";

// The thread index behaves the same on SQLite and PostgreSQL.
describe.each(BACKENDS)("thread store (%s)", (backend) => {
  const pg = useTestDatabase(backend);
  let dir: string;
  const open: Storage[] = [];
  const store = async () => {
    const s = await openStorage(backend === "postgres" ? { kind: "postgres", url: pg.url() } : { kind: "sqlite", path: join(dir, "yolo.db") });
    open.push(s);
    return s.threads;
  };
  beforeEach(({ onTestFinished }) => {
    dir = tempDir(onTestFinished, "yolo-thread-store-");
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it("creates a running thread and reads it back in camelCase, with who ran it where", async () => {
    const threads = await store();
    const row = await threads.create({ id: "abc12345", requirement: "add a --verbose flag", model: "gpt-4o-mini", root: "/p", repo: "github.com/o/r" });
    expect(row).toMatchObject({
      id: "abc12345",
      requirement: "add a --verbose flag",
      status: "running",
      currentNode: null,
      root: "/p",
      model: "gpt-4o-mini",
      exitCode: null,
      reason: null,
      startCommit: null,
      branch: null,
      host: hostname(),
      user: userInfo().username,
      repo: "github.com/o/r",
      mode: "run",
    });
    expect(row.createdAt).toBe(row.updatedAt);
    expect(await threads.get("abc12345")).toEqual(row);
    expect(await threads.get("missing0")).toBeNull();
  });

  it("keeps the mode a thread was started in", async () => {
    const threads = await store();
    await threads.create({ id: "c1", requirement: "r", model: "m", root: "/p", mode: "chat" });
    expect((await threads.get("c1"))?.mode).toBe("chat");
  });

  it("updates only the given fields, and moves a thread to another working copy", async () => {
    const threads = await store();
    await threads.create({ id: "t1", requirement: "r", model: "m", root: "/a", startCommit: "abc", branch: "yolo/t1" });
    expect(await threads.update("t1", { currentNode: "dev" })).toBe(true);
    expect(await threads.update("t1", { status: "failed", exitCode: 3, reason: "gates failed" })).toBe(true);
    expect(await threads.update("t1", { root: "/b", host: "ci-2", user: "ci", artifacts: "/b/.yolo" })).toBe(true);
    expect(await threads.get("t1")).toMatchObject({
      status: "failed",
      currentNode: "dev",
      exitCode: 3,
      reason: "gates failed",
      root: "/b",
      host: "ci-2",
      user: "ci",
      artifacts: "/b/.yolo",
      startCommit: "abc",
      branch: "yolo/t1",
    });
  });

  it("reports an update of an unknown thread instead of throwing", async () => {
    expect(await (await store()).update("nope", { status: "passed" })).toBe(false);
  });

  it("refuses a duplicate id", async () => {
    const threads = await store();
    await threads.create({ id: "t1", requirement: "r", model: "m", root: "/p" });
    await expect(threads.create({ id: "t1", requirement: "r", model: "m", root: "/p" })).rejects.toThrow(ThreadError);
  });

  it("lists newest first, even within the same millisecond", async () => {
    const threads = await store();
    for (const id of ["first", "second", "third"]) await threads.create({ id, requirement: id, model: "m", root: "/p", repo: "r" });
    expect((await threads.list({ repo: "r", root: "/p" })).map((r) => r.id)).toEqual(["third", "second", "first"]);
  });

  it("lists one repository's threads from any working copy, or all of them", async () => {
    const threads = await store();
    await threads.create({ id: "mine-a", requirement: "r", model: "m", root: "/x/a", repo: "github.com/o/r" });
    await threads.create({ id: "mine-b", requirement: "r", model: "m", root: "/y/b", repo: "github.com/o/r" });
    await threads.create({ id: "other", requirement: "r", model: "m", root: "/z", repo: "github.com/o/other" });
    expect((await threads.list({ repo: "github.com/o/r", root: "/q" })).map((r) => r.id).sort()).toEqual(["mine-a", "mine-b"]);
    expect((await threads.list({ all: true })).map((r) => r.id).sort()).toEqual(["mine-a", "mine-b", "other"]);
  });

  it("survives closing and reopening the database", async () => {
    await (await store()).create({ id: "keep", requirement: "r", model: "m", root: "/p" });
    for (const s of open.splice(0)) await s.close();
    expect((await (await store()).get("keep"))?.requirement).toBe("r");
  });
});
