import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { YoloError } from "../../../src/errors.js";
import { createCheckpointer } from "../../../src/store/checkpointer.js";
import { openDatabase } from "../../../src/store/db.js";
import { tempDir } from "../../helpers/per-test.js";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-open-db-");
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("openDatabase", () => {
  it("creates the parent folder and opens in WAL mode with full sync and a busy timeout", () => {
    const path = join(dir, "nested", "state", "yolo.db");
    const db = openDatabase(path);
    try {
      expect(existsSync(path)).toBe(true);
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("synchronous", { simple: true })).toBe(2);
      expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      db.close();
    }
  });

  it("reports a garbage file as a storage error naming it, and leaves the file alone", () => {
    const path = join(dir, "yolo.db");
    const garbage = Buffer.from("this is not a sqlite database, just some bytes ".repeat(200));
    writeFileSync(path, garbage);
    const error = thrown(() => openDatabase(path));
    expect(error).toBeInstanceOf(YoloError);
    expect((error as YoloError).code).toBe("storage");
    expect((error as YoloError).message).toContain(path);
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it("reports a path it cannot create as a storage error naming it", () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const path = join(blocker, "yolo.db");
    const error = thrown(() => openDatabase(path));
    expect((error as YoloError).code).toBe("storage");
    expect((error as YoloError).message).toContain(path);
  });

  it("hands a database the LangGraph checkpointer can use", async () => {
    const db = openDatabase(join(dir, "yolo.db"));
    try {
      const saver = createCheckpointer(db);
      expect(await saver.getTuple({ configurable: { thread_id: "none" } })).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
