import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStorage } from "../../../src/store/open-storage.js";
import { openThreadIndex } from "../../../src/store/thread-index.js";
import { tempDir } from "../../helpers/per-test.js";

// `yolo threads` reads the checkpoint table without LangGraph: what it finds must be what the real saver wrote.
describe("the thread index answers whether a thread has a checkpoint, as LangGraph's saver would", () => {
  it("a thread the saver checkpointed has one; another thread and another namespace do not", async ({ onTestFinished }) => {
    const database = { kind: "sqlite" as const, path: join(tempDir(onTestFinished), "yolo.db") };
    const storage = await openStorage(database);
    await storage.checkpointer.put(
      { configurable: { thread_id: "saved", checkpoint_ns: "" } },
      emptyCheckpoint(),
      { source: "input", step: -1, parents: {} },
      {},
    );
    await storage.checkpointer.put(
      { configurable: { thread_id: "nested", checkpoint_ns: "sub:1" } },
      emptyCheckpoint(),
      { source: "loop", step: 0, parents: {} },
      {},
    );
    expect(await storage.checkpointer.getTuple({ configurable: { thread_id: "nested" } })).toBeUndefined();
    await storage.close();

    const index = await openThreadIndex(database);
    onTestFinished(() => index.close());
    expect(await index.hasCheckpoint("saved")).toBe(true);
    expect(await index.hasCheckpoint("nested")).toBe(false);
    expect(await index.hasCheckpoint("never")).toBe(false);
    // A hostile id is a bound parameter, not SQL.
    expect(await index.hasCheckpoint("' OR 1=1 --")).toBe(false);
  });

  it("a database whose checkpoint table was never created has no checkpoint, and listing works", async ({ onTestFinished }) => {
    const index = await openThreadIndex({ kind: "sqlite", path: join(tempDir(onTestFinished), "yolo.db") });
    onTestFinished(() => index.close());
    expect(await index.hasCheckpoint("any")).toBe(false);
    expect(await index.threads.list({ all: true })).toEqual([]);
  });
});
