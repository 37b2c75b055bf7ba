import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ThreadError } from "../../../src/errors.js";
import { openDatabase, type Database } from "../../../src/store/db.js";
import { ThreadIndex } from "../../../src/store/threads.js";

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "yolo-thread-index-"));
  db = openDatabase(join(dir, "yolo.db"));
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("ThreadIndex", () => {
  it("creates a running thread and reads it back in camelCase", () => {
    const index = new ThreadIndex(db);
    const row = index.create({ id: "abc12345", requirement: "add a --verbose flag", model: "gpt-4o-mini", root: "/p" });
    expect(row).toMatchObject({
      id: "abc12345",
      requirement: "add a --verbose flag",
      status: "running",
      currentNode: null,
      root: "/p",
      model: "gpt-4o-mini",
      exitCode: null,
      reason: null,
    });
    expect(row.createdAt).toBe(row.updatedAt);
    expect(index.get("abc12345")).toEqual(row);
    expect(index.get("missing0")).toBeNull();
  });

  it("updates only the given fields", () => {
    const index = new ThreadIndex(db);
    index.create({ id: "t1", requirement: "r", model: "m", root: "/p" });
    expect(index.update("t1", { currentNode: "dev" })).toBe(true);
    expect(index.update("t1", { status: "failed", exitCode: 3, reason: "gates failed" })).toBe(true);
    expect(index.get("t1")).toMatchObject({ status: "failed", currentNode: "dev", exitCode: 3, reason: "gates failed" });
  });

  it("reports an update of an unknown thread instead of throwing", () => {
    expect(new ThreadIndex(db).update("nope", { status: "passed" })).toBe(false);
  });

  it("refuses a duplicate id", () => {
    const index = new ThreadIndex(db);
    index.create({ id: "t1", requirement: "r", model: "m", root: "/p" });
    expect(() => index.create({ id: "t1", requirement: "r", model: "m", root: "/p" })).toThrow(ThreadError);
  });

  it("lists newest first, even within the same millisecond", () => {
    const index = new ThreadIndex(db);
    for (const id of ["first", "second", "third"]) index.create({ id, requirement: id, model: "m", root: "/p" });
    expect(index.list().map((r) => r.id)).toEqual(["third", "second", "first"]);
  });

  it("survives closing and reopening the database", () => {
    new ThreadIndex(db).create({ id: "keep", requirement: "r", model: "m", root: "/p" });
    db.close();
    db = openDatabase(join(dir, "yolo.db"));
    expect(new ThreadIndex(db).get("keep")?.requirement).toBe("r");
  });
});
