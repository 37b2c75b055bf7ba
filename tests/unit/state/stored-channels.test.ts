import { describe, expect, it } from "vitest";
import { PipelineState } from "../../../src/state/pipeline.js";
import { replayDelta, STORED_CHANNELS } from "../../../src/state/stored-channels.js";

// The checkpoint reader's table of the state's channels must be PipelineState's, key for key, default for default.
type Channel = { lc_graph_name: string; fromCheckpoint(v: undefined): { get(): unknown }; reducer?: (a: unknown[], w: unknown[][]) => unknown };
const channels = Object.fromEntries(Object.entries(PipelineState.spec).map(([k, v]) => [k, (typeof v === "function" ? (v as () => unknown)() : v) as Channel]));

describe("STORED_CHANNELS is PipelineState as a checkpoint stores it", () => {
  it("the same keys, in the state's order", () => {
    expect(Object.keys(STORED_CHANNELS)).toEqual(Object.keys(PipelineState.spec));
  });

  it.each(Object.keys(PipelineState.spec))("%s: the same kind and default", (key) => {
    const channel = channels[key];
    const spec = STORED_CHANNELS[key];
    expect(channel.lc_graph_name).toBe(spec.kind === "delta" ? "DeltaChannel" : "BinaryOperatorAggregate");
    expect(spec.initial()).toEqual(channel.fromCheckpoint(undefined).get());
  });

  it("a delta channel's replay is its reducer's", () => {
    for (const [key, spec] of Object.entries(STORED_CHANNELS)) {
      if (spec.kind !== "delta") continue;
      const writes = [[{ a: 1 }], [], [{ b: 2 }, { c: 3 }]];
      expect(replayDelta([{ z: 0 }], writes)).toEqual(channels[key].reducer!([{ z: 0 }], writes));
    }
  });
});
