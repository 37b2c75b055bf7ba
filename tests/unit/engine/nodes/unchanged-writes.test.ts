import { END, START, StateGraph } from "@langchain/langgraph";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withRunLimits } from "../../../../src/engine/nodes/run-limits.js";
import { FIELD_REDUCERS, withoutNoOpWrites } from "../../../../src/engine/nodes/unchanged-writes.js";
import { PipelineState, type PipelineStateType, type PipelineUpdate } from "../../../../src/state/pipeline.js";
import { createCheckpointer } from "../../../../src/store/checkpointer.js";
import { openDatabase } from "../../../../src/store/db.js";
import { tempDir } from "../../../helpers/per-test.js";

const usage = { promptTokens: 10, completionTokens: 2, totalTokens: 12, calls: 1, cachedTokens: 0 };
const gate = {
  name: "test",
  command: "true",
  required: true,
  passed: true,
  exitCode: 0,
  timedOut: false,
  durationMs: 3,
  attempt: 1,
  passedCount: null,
  failedCount: null,
  failures: [],
  logFile: null,
  tail: "",
};

// A state as a tea step finds it in a fix loop: every field a later update repeats already has that value.
const before: PipelineUpdate = {
  requirement: "add",
  devSummary: "changed nothing",
  filesChanged: ["src/a.js"],
  verdict: "FAIL",
  findings: ["keep looping"],
  lastGates: [gate],
  gateBlocked: true,
  fixAttempts: 1,
  escalateToHuman: false,
  question: null,
  visits: { dev: 1, tea: 1 },
  usage,
};

// What a tea step returns: repeated values, one real change of each kind, an accumulating field, a delta field.
const teaUpdate: PipelineUpdate = {
  verdict: "FAIL",
  findings: ["keep looping"],
  gateBlocked: true,
  escalateToHuman: false,
  question: null,
  filesChanged: [],
  lastGates: [{ ...gate, durationMs: 4 }],
  gateHistory: [{ ...gate, durationMs: 4 }],
  fixAttempts: 2,
  visits: { tea: 1 },
  usage,
};

describe("writes that change nothing are left out of a node's update", () => {
  it("reads every reducer from LangGraph's compiled channels (an upgrade that hides them fails here, not silently)", () => {
    for (const key of ["escalateToHuman", "question", "verdict", "lastGates", "filesChanged", "visits", "usage", "steps"])
      expect(FIELD_REDUCERS.has(key)).toBe(true);
    // The delta channel has no reducer of that shape: its writes are always kept.
    expect(FIELD_REDUCERS.has("gateHistory")).toBe(false);
  });

  it("drops repeated newest-wins values and empty appends; keeps changes, counters and accumulating fields", () => {
    const state = { ...(before as PipelineStateType), gateHistory: [] } as PipelineStateType;
    const kept = withoutNoOpWrites(teaUpdate, state);
    expect(Object.keys(kept).sort()).toEqual(["fixAttempts", "gateHistory", "lastGates", "usage", "visits"]);
    // The same value written where the state differs is a change: an escalation answered sets it back to false.
    expect(withoutNoOpWrites({ escalateToHuman: false }, { ...state, escalateToHuman: true })).toEqual({ escalateToHuman: false });
    // A new file in a union is a change, one already there is not.
    expect(withoutNoOpWrites({ filesChanged: ["src/b.js"] }, state)).toEqual({ filesChanged: ["src/b.js"] });
    expect(withoutNoOpWrites({ filesChanged: ["src/a.js"] }, state)).toEqual({});
    // A field the state does not hold yet (a thread from before it existed) is always written.
    expect(withoutNoOpWrites({ devSummary: "x" }, { steps: 0 } as PipelineStateType)).toEqual({ devSummary: "x" });
  });

  it("every workflow node's update goes through it (withRunLimits), its step and duration added after", async () => {
    const node = withRunLimits("dev", async () => ({ escalateToHuman: false, question: null, devSummary: "new" }), { maxSteps: 5, maxTimeMs: null });
    const update = await node({ ...(before as PipelineStateType), steps: 0, activeMs: 0 }, {});
    expect(Object.keys(update).sort()).toEqual(["activeMs", "devSummary", "steps"]);
  });

  it("LangGraph stores the same state with or without them, in fewer pending writes (real SQLite checkpointer)", async ({ onTestFinished }) => {
    const dir = tempDir(onTestFinished, "yolo-noop-");
    const run = async (filter: boolean) => {
      const db = openDatabase(join(dir, `${filter}.db`));
      const graph = new StateGraph(PipelineState)
        .addNode("dev", () => before)
        .addNode("tea", (state: PipelineStateType) => (filter ? withoutNoOpWrites(teaUpdate, state) : teaUpdate))
        .addEdge(START, "dev")
        .addEdge("dev", "tea")
        .addEdge("tea", END)
        .compile({ checkpointer: createCheckpointer(db) });
      const config = { configurable: { thread_id: "t" }, durability: "sync" as const };
      await graph.invoke({ requirement: "add" }, config);
      const values = (await graph.getState(config)).values;
      const rows = Number((db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number }).n);
      db.close();
      return { values, rows };
    };
    const full = await run(false);
    const filtered = await run(true);
    expect(filtered.values).toEqual(full.values);
    expect(filtered.values).toMatchObject({ fixAttempts: 2, gateBlocked: true, escalateToHuman: false, visits: { dev: 1, tea: 2 } });
    expect(full.rows - filtered.rows).toBe(6);
  });
});
