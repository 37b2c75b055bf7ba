import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { appendTranscript, readTranscript } from "../../../src/store/artifacts.js";
import { openDatabase, withoutFsync } from "../../../src/store/db.js";
import { SqliteThreadStore } from "../../../src/store/sqlite-threads.js";
import { tempDir } from "../../helpers/per-test.js";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-progress-writes-");
});

describe("progress writes on SQLite", () => {
  it("land in the file for another process to read, and the connection is back to full sync after each", async () => {
    const path = join(dir, "yolo.db");
    const db = openDatabase(path);
    const threads = new SqliteThreadStore(db);
    await threads.create({ id: "t1", requirement: "r", model: "m", root: dir });
    expect(await threads.update("t1", { currentNode: "dev", unsettledUsage: '{"steps":3,"byNode":{}}' }, { progress: true })).toBe(true);
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    // Another process, as `yolo threads` or a resume after kill -9 would be: the write is in the WAL it reads.
    const read = spawnSync(
      process.execPath,
      [
        "-e",
        `const D = require("better-sqlite3"); const db = new D(process.argv[1], { readonly: true }); process.stdout.write(JSON.stringify(db.prepare("SELECT current_node, unsettled_usage FROM yolo_threads WHERE id = 't1'").get()));`,
        path,
      ],
      { encoding: "utf8", cwd: process.cwd() },
    );
    expect(read.stderr).toBe("");
    expect(JSON.parse(read.stdout)).toEqual({ current_node: "dev", unsettled_usage: '{"steps":3,"byNode":{}}' });
    db.close();
  });

  it("a thread created unsynced (a run's row at its start) is in the file for another process, and its id is still taken", async () => {
    const path = join(dir, "yolo.db");
    const db = openDatabase(path);
    const threads = new SqliteThreadStore(db);
    await threads.create({ id: "t1", requirement: "r", model: "m", root: dir }, { progress: true });
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    await expect(threads.create({ id: "t1", requirement: "again", model: "m", root: dir }, { progress: true })).rejects.toThrow(/t1/);
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    const read = spawnSync(
      process.execPath,
      [
        "-e",
        `const D = require("better-sqlite3"); const db = new D(process.argv[1], { readonly: true }); process.stdout.write(JSON.stringify(db.prepare("SELECT requirement, status FROM yolo_threads WHERE id = 't1'").get()));`,
        path,
      ],
      { encoding: "utf8", cwd: process.cwd() },
    );
    expect(read.stderr).toBe("");
    expect(JSON.parse(read.stdout)).toEqual({ requirement: "r", status: "running" });
    db.close();
  });

  it("go back to full sync when the write throws", () => {
    const db = openDatabase(join(dir, "yolo.db"));
    try {
      expect(() => withoutFsync(db, () => db.prepare("UPDATE no_such_table SET x = 1").run())).toThrow(/no such table/);
      expect(db.pragma("synchronous", { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });
});

describe("transcript appends", () => {
  it("recreate the folder when it was removed between two appends", () => {
    appendTranscript(dir, "dev", { n: 1 });
    rmSync(join(dir, "transcripts"), { recursive: true });
    appendTranscript(dir, "dev", { n: 2 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 2 }]);
  });

  it("start a transcript removed between two appends afresh", () => {
    appendTranscript(dir, "dev", { n: 1 });
    rmSync(join(dir, "transcripts", "dev.jsonl"));
    appendTranscript(dir, "dev", { n: 2 });
    appendTranscript(dir, "dev", { n: 3 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
