import { join } from "node:path";
import { Annotation, DeltaChannel, END, Send, START, StateGraph } from "@langchain/langgraph";
import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it, vi, type TestContext } from "vitest";
import { createCheckpointer } from "../../../src/store/checkpointer.js";
import { openDatabase } from "../../../src/store/db.js";
import { PipelineState, type GateSummary } from "../../../src/state/pipeline.js";
import { tempDir } from "../../helpers/per-test.js";

type Finally = TestContext["onTestFinished"];

// A checkpointer on a fresh SQLite file, closed and removed after the test.
function saverIn(onTestFinished: Finally) {
  const db = openDatabase(join(tempDir(onTestFinished, "yolo-delta-history-"), "yolo.db"));
  onTestFinished(() => {
    db.close();
  });
  return createCheckpointer(db);
}

const concat = (old: string[], writes: string[][]) => writes.reduce((all, w) => all.concat(w), old);

// A graph whose delta channels get writes from parallel tasks (order matters) and, with a small snapshot frequency,
// seeds (DeltaSnapshot values) in some checkpoints; `rare` is written every third round only.
function deltaGraph(saver: ReturnType<typeof createCheckpointer>, rounds: number) {
  const State = Annotation.Root({
    n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
    log: () => new DeltaChannel<string[], string[]>(concat, { initialValueFactory: () => [], snapshotFrequency: 3 }),
    rare: () => new DeltaChannel<string[], string[]>(concat, { initialValueFactory: () => [] }),
  });
  return new StateGraph(State)
    .addNode("start", (s) => ({ n: s.n + 1, log: [`start ${s.n}`] }))
    .addNode("side", (s: { n: number; tag: string }) => ({ log: [`side ${s.tag} ${s.n}`] }))
    .addNode("join", (s) => (s.n % 3 === 0 ? { rare: [`rare ${s.n}`] } : {}))
    .addEdge(START, "start")
    .addConditionalEdges("start", (s) => ["b", "a", "c"].map((tag) => new Send("side", { n: s.n, tag })), ["side"])
    .addEdge("side", "join")
    .addConditionalEdges("join", (s) => (s.n >= rounds ? END : "start"), ["start", END])
    .compile({ checkpointer: saver });
}

// Every checkpoint of the thread, newest first.
async function checkpointConfigs(saver: ReturnType<typeof createCheckpointer>, threadId: string) {
  const configs = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) configs.push(tuple.config);
  return configs;
}

describe("the delta-channel walk on SQLite", () => {
  it("gives LangGraph's own answer for every checkpoint of a thread with parallel writes and snapshots, without getTuple", async ({ onTestFinished }) => {
    const saver = saverIn(onTestFinished);
    const graph = deltaGraph(saver, 12);
    await graph.invoke({ n: 0 }, { configurable: { thread_id: "t" }, recursionLimit: 200 });
    const configs = await checkpointConfigs(saver, "t");
    expect(configs.length).toBeGreaterThan(30);
    const channels = ["log", "rare"];
    let seeded = 0;
    let ordered = 0;
    for (const config of [...configs, { configurable: { thread_id: "t" } }]) {
      const library = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, { config, channels });
      const getTuple = vi.spyOn(saver, "getTuple");
      const ours = await saver.getDeltaChannelHistory({ config, channels });
      expect(getTuple).not.toHaveBeenCalled();
      getTuple.mockRestore();
      expect(ours).toEqual(library);
      if ("seed" in ours.log) seeded++;
      if (ours.log.writes.length >= 3) ordered++;
    }
    // The comparison covered seeds and several writes of one step.
    expect(seeded).toBeGreaterThan(5);
    expect(ordered).toBeGreaterThan(5);
    // And the state LangGraph rebuilds from it is the run's.
    const state = await graph.getState({ configurable: { thread_id: "t" } });
    expect(state.values.log).toHaveLength(12 * 4);
    expect(state.values.rare).toEqual(["rare 3", "rare 6", "rare 9", "rare 12"]);
  });

  it("rebuilds yolo's gate history as LangGraph's walk does", async ({ onTestFinished }) => {
    const saver = saverIn(onTestFinished);
    const summary = (attempt: number): GateSummary => ({
      name: "test",
      command: "npm test",
      required: true,
      passed: attempt % 2 === 0,
      exitCode: attempt % 2,
      timedOut: false,
      durationMs: 5,
      attempt,
      passedCount: 3,
      failedCount: attempt % 2,
      failures: attempt % 2 ? ["adds"] : [],
      logFile: `.yolo/threads/g/gates/attempt-${attempt}-test.log`,
    });
    const graph = new StateGraph(PipelineState)
      .addNode("tea", (s) => ({ gateHistory: [summary(s.fixAttempts)], fixAttempts: s.fixAttempts + 1 }))
      .addEdge(START, "tea")
      .addConditionalEdges("tea", (s) => (s.fixAttempts >= 8 ? END : "tea"), ["tea", END])
      .compile({ checkpointer: saver });
    await graph.invoke({ requirement: "r" }, { configurable: { thread_id: "g" } });
    for (const config of await checkpointConfigs(saver, "g")) {
      const library = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, { config, channels: ["gateHistory"] });
      expect(await saver.getDeltaChannelHistory({ config, channels: ["gateHistory"] })).toEqual(library);
    }
    const state = await graph.getState({ configurable: { thread_id: "g" } });
    expect(state.values.gateHistory.map((g: { attempt: number }) => g.attempt)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("answers for a thread or checkpoint that does not exist as LangGraph does", async ({ onTestFinished }) => {
    const saver = saverIn(onTestFinished);
    await deltaGraph(saver, 1).invoke({ n: 0 }, { configurable: { thread_id: "t" } });
    for (const config of [{ configurable: { thread_id: "none" } }, { configurable: { thread_id: "t", checkpoint_id: "missing" } }]) {
      const library = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, { config, channels: ["log"] });
      expect(await saver.getDeltaChannelHistory({ config, channels: ["log"] })).toEqual(library);
    }
  });
});
