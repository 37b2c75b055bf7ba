import { uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { inspectThread } from "../../../src/engine/inspect.js";
import { openIndex, openSession } from "../../../src/engine/session.js";
import { readThreadState } from "../../../src/engine/stored-thread.js";
import { graphNodeNames } from "../../../src/engine/thread-profile.js";
import { decodeJson, DeltaSnapshotValue, UnreadableCheckpoint } from "../../../src/store/checkpoint-rows.js";
import { checkpointView } from "../../../src/store/checkpoint-view.js";
import { tempDir } from "../../helpers/per-test.js";

// What a model writes reaches checkpoints as data (notes, flags, summaries). Whatever LangGraph's serializer would
// revive into something other than plain JSON, the reader refuses, and show/history take LangGraph's answer instead.

describe("decodeJson revives what JsonPlusSerializer revives, and refuses the rest", () => {
  it("keeps plain JSON and revives undefined", () => {
    expect(decodeJson('{"a":[1,"x",null,{"lc":2,"type":"undefined"}],"b":{"lc":2,"type":"undefined"}}')).toEqual({
      a: [1, "x", null, undefined],
      b: undefined,
    });
    expect(decodeJson('{"lc":3,"type":"constructor"}')).toEqual({ lc: 3, type: "constructor" });
  });

  it.each([
    ["a LangChain object", '{"note":{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"hi"}}}'],
    ["a serialized Map", '{"note":{"lc":2,"type":"constructor","id":["Map"],"method":null,"args":[[["a",1]]]}}'],
    ["a __proto__ key", '{"flags":{"__proto__":{"polluted":true}}}'],
    ["a delta snapshot inside a value", '{"notes":{"x":{"lc":2,"type":"delta_snapshot","value":[1]}}}'],
    ["text that is not JSON", "{not json"],
  ])("refuses %s", (_, text) => {
    expect(() => decodeJson(text)).toThrow(UnreadableCheckpoint);
  });

  it("revives a delta snapshot only where a channel's value is stored", () => {
    expect(decodeJson('{"channel_values":{"gateHistory":{"lc":2,"type":"delta_snapshot","value":[1]}}}', 2)).toEqual({
      channel_values: { gateHistory: new DeltaSnapshotValue([1]) },
    });
  });
});

describe("a checkpoint holding what a hostile model could put in the state", () => {
  // One checkpoint written by LangGraph's own SqliteSaver (through yolo's serializer), as after a node's step.
  async function threadWith(root: string, notes: unknown) {
    const config = resolveConfig({ root, fileConfig: {}, file: null, env: {} });
    const session = await openSession(config);
    const thread = "hostile1";
    const checkpoint = {
      v: 4,
      id: uuid6(0),
      ts: new Date().toISOString(),
      channel_values: { requirement: "x", notes, "branch:to:pm": "analyst" },
      channel_versions: { __start__: 2, requirement: 2, notes: 3, "branch:to:pm": 3 },
      versions_seen: { analyst: { "branch:to:analyst": 2 } },
    };
    await session.checkpointer.put({ configurable: { thread_id: thread, checkpoint_ns: "" } }, checkpoint, { source: "loop", step: 2, parents: {} }, {});
    return { config, session, thread };
  }

  it.for([
    ["plain notes (the reader answers)", { analyst: { summary: "ok", fields: { n: 1 } } }, true],
    [
      "a LangChain constructor in a note",
      { analyst: { summary: "x", fields: { lc: 1, type: "constructor", id: ["langchain_core", "messages", "AIMessage"], kwargs: { content: "hi" } } } },
      false,
    ],
    ["a serialized Error in a note", { analyst: { summary: "x", fields: { lc: 2, type: "constructor", id: ["Error"], method: null, args: ["boom"] } } }, false],
  ] as const)("%s: show's data is LangGraph's answer", async ([, notes, readable], { onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-hostile-");
    const { config, session, thread } = await threadWith(root, notes);
    const index = await openIndex(config);
    try {
      const rows = index.checkpointRows!(thread);
      const read = () => checkpointView(rows, rows.ids()[0], { latest: true, nodes: graphNodeNames(config) });
      if (readable) expect(read().next).toEqual(["pm"]);
      else expect(read).toThrow(UnreadableCheckpoint);
      expect(await readThreadState(config, index, thread)).toEqual(await inspectThread(config, session, thread));
    } finally {
      await index.close();
      await session.close();
    }
  });
});
