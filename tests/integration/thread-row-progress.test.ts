import { afterEach, describe, expect, it, vi } from "vitest";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/store/db.js";
import { SqliteThreadStore } from "../../src/store/sqlite-threads.js";
import type { ThreadPatch } from "../../src/store/thread-store.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

// The thread row's progress notes (src/engine/run/start.ts): the running node and the paid calls a kill -9 must not
// lose. A node's start also clears the previous node's settled usage, so a step writes the row once plus once per call.
describe("the thread row's progress writes", () => {
  it("are one per node started and one per paid call, and leave no unsettled usage behind", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [call("list_files", {}), ...devWrites(GOOD_ADD)], tea: [teaSays("PASS")] }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const update = vi.spyOn(SqliteThreadStore.prototype, "update");
    const run = await runEngine({ root: project.root, baseURL: mock.url, threadId: "rowwrite", requirement: "Add numbers" });
    expect(run.result.status).toBe("passed");
    const progress = update.mock.calls.filter(([, , options]) => options?.progress).map(([, patch]) => patch as ThreadPatch);
    const calls = run.events.filter((e) => e.type === "usage").length;
    expect(calls).toBe(mock.requests.length);
    // The running node once each (the baseline gate's node too, which emits no node.started) ...
    expect(progress.filter((p) => p.currentNode !== undefined).map((p) => p.currentNode)).toEqual(["gate_baseline", "analyst", "pm", "dev", "tea"]);
    // ... each paid call once ...
    expect(progress.filter((p) => typeof p.unsettledUsage === "string").length).toBe(calls);
    // ... and a node's settled usage cleared with the next node's name, not on its own: only the last one is.
    expect(progress.filter((p) => p.currentNode !== undefined && p.unsettledUsage === null).map((p) => p.currentNode)).toEqual(["pm", "dev", "tea"]);
    expect(progress.filter((p) => p.currentNode === undefined && p.unsettledUsage === null)).toEqual([{ unsettledUsage: null }]);
    expect(progress.at(-1)).toEqual({ unsettledUsage: null });
    expect(progress.length).toBe(5 + calls + 1);
    const db = openDatabase(join(project.root, ".yolo", "yolo.db"));
    try {
      expect(await new SqliteThreadStore(db).get("rowwrite")).toMatchObject({ status: "passed", unsettledUsage: null });
    } finally {
      closeDatabase(db);
    }
  });
});
