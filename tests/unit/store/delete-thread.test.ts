import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ThreadError } from "../../../src/errors.js";
import { deleteThread } from "../../../src/store/delete-thread.js";
import { openStorage, type Storage } from "../../../src/store/open-storage.js";
import { BACKENDS, useTestDatabase } from "../../helpers/postgres.js";

// Deleting a thread behaves the same on SQLite and PostgreSQL.
describe.each(BACKENDS)("deleting a thread (%s)", (backend) => {
  const pg = useTestDatabase(backend);
  let dir: string;
  let storage: Storage;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "yolo-delete-thread-"));
    storage = await openStorage(backend === "postgres" ? { kind: "postgres", url: pg.url() } : { kind: "sqlite", path: join(dir, "yolo.db") });
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A thread with an index row, one checkpoint and artifacts on disk. */
  async function seed(id: string): Promise<void> {
    await storage.threads.create({ id, requirement: "r", model: "m", root: dir });
    await storage.checkpointer.put({ configurable: { thread_id: id, checkpoint_ns: "" } }, emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {});
    mkdirSync(join(dir, "artifacts/threads", id, "transcripts"), { recursive: true });
    writeFileSync(join(dir, "artifacts/threads", id, "transcripts/dev.jsonl"), "{}\n");
    mkdirSync(join(dir, "artifacts/logs"), { recursive: true });
    writeFileSync(join(dir, "artifacts/logs", `${id}.log`), "log\n");
  }

  it("removes its checkpoints, index row, transcripts and run log, and nothing of another thread", async () => {
    await seed("gone0001");
    await seed("kept0001");
    const deleted = await deleteThread(storage, join(dir, "artifacts"), "gone0001");

    expect(deleted.files.sort()).toEqual([join(dir, "artifacts/logs/gone0001.log"), join(dir, "artifacts/threads/gone0001")]);
    expect(await storage.threads.get("gone0001")).toBeNull();
    expect(await storage.checkpointer.getTuple({ configurable: { thread_id: "gone0001" } })).toBeUndefined();
    expect(existsSync(join(dir, "artifacts/threads/gone0001"))).toBe(false);
    expect(await storage.threads.get("kept0001")).not.toBeNull();
    expect(await storage.checkpointer.getTuple({ configurable: { thread_id: "kept0001" } })).toBeDefined();
    expect(existsSync(join(dir, "artifacts/logs/kept0001.log"))).toBe(true);
    // The lease taken for the deletion is released: the id can be used again.
    await (await storage.threads.acquireLease("gone0001")).release();
  });

  it("refuses a thread a live process is running, and an id that could leave the artifacts folder", async () => {
    await seed("busy0001");
    const lease = await storage.threads.acquireLease("busy0001");
    try {
      await expect(deleteThread(storage, join(dir, "artifacts"), "busy0001")).rejects.toThrow(ThreadError);
      expect(await storage.threads.get("busy0001")).not.toBeNull();
      expect(existsSync(join(dir, "artifacts/threads/busy0001"))).toBe(true);
    } finally {
      await lease.release();
    }
    await expect(deleteThread(storage, join(dir, "artifacts"), "../logs")).rejects.toThrow(/not a valid thread id/);
  });
});
