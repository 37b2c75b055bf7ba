import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../src/store/db.js";
import { SqliteThreadStore } from "../../../src/store/sqlite-threads.js";
import { tempDir } from "../../helpers/per-test.js";

let dir: string;
let db: Database;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-index-migration-");
  db = openDatabase(join(dir, "yolo.db"));
});
afterEach(() => {
  if (db.open) db.close();
});

describe("the thread index records where a thread started in git", () => {
  it("stores the start commit and branch of a new thread", async () => {
    const index = new SqliteThreadStore(db);
    await index.create({ id: "t1", requirement: "r", model: "m", root: "/p", startCommit: "abc", branch: "yolo/t1" });
    await index.create({ id: "t2", requirement: "r", model: "m", root: "/p" });
    expect(await index.get("t1")).toMatchObject({ startCommit: "abc", branch: "yolo/t1" });
    expect(await index.get("t2")).toMatchObject({ startCommit: null, branch: null });
  });

  it("adds the columns to a database created before them, keeping its threads", async () => {
    db.exec(`CREATE TABLE yolo_threads (id TEXT PRIMARY KEY, requirement TEXT NOT NULL, status TEXT NOT NULL, current_node TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, root TEXT NOT NULL, model TEXT NOT NULL, exit_code INTEGER, reason TEXT)`);
    db.prepare("INSERT INTO yolo_threads VALUES ('old00000', 'r', 'passed', NULL, 'c', 'u', '/p', 'm', 0, 'done')").run();
    const index = new SqliteThreadStore(db);
    expect(await index.get("old00000")).toMatchObject({ status: "passed", startCommit: null, branch: null, host: null, user: null, repo: null, mode: "run" });
    // Opening again (the columns now exist) changes nothing; an old row is listed as this project's.
    expect(await new SqliteThreadStore(db).list({ repo: "github.com/o/r", root: "/elsewhere" })).toHaveLength(1);
  });
});
