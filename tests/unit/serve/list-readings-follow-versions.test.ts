import { describe, expect, it } from "vitest";
import { ListReadings } from "../../../src/serve/list-readings.js";
import type { ThreadSource } from "../../../src/serve/source.js";
import { ZERO_USAGE } from "../../../src/events/usage.js";

// A source whose state is the number of times it was read (as total tokens), under a version the test sets.
function counting(version: () => string | null) {
  let reads = 0;
  const source: Pick<ThreadSource, "state" | "stateVersion"> = {
    stateVersion: async () => version(),
    state: async () => {
      reads++;
      const values = { gateHistory: [], usage: { ...ZERO_USAGE, totalTokens: reads } };
      return { values, position: { kind: "done" } } as unknown as Awaited<ReturnType<ThreadSource["state"]>>;
    },
  };
  return { source, reads: () => reads };
}

describe("the list's kept readings", () => {
  it("read a state again exactly when its version moves", async () => {
    let version = "c1|0.";
    const { source, reads } = counting(() => version);
    const readings = new ListReadings(source);
    expect((await readings.of("t"))?.usage?.totalTokens).toBe(1);
    expect((await readings.of("t"))?.usage?.totalTokens).toBe(1);
    version = "c1|1.7";
    expect((await readings.of("t"))?.usage?.totalTokens).toBe(2);
    expect(reads()).toBe(2);
  });

  it("read a store without versions (PostgreSQL) every time", async () => {
    const { source, reads } = counting(() => null);
    const readings = new ListReadings(source);
    await readings.of("t");
    await readings.of("t");
    expect(reads()).toBe(2);
  });
});
