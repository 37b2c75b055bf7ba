import { describe, expect, it } from "vitest";
import { tokenBatch } from "../../../src/events/token-batch.js";

describe("tokenBatch", () => {
  it("joins a burst of text into one send, in order, and sends the rest on flush", async () => {
    const sent: string[] = [];
    const batch = tokenBatch((t) => sent.push(t), 5);
    for (const piece of ["a", "b", "c"]) batch.push(piece);
    expect(sent).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual(["abc"]);
    batch.push("d");
    batch.flush();
    batch.flush();
    expect(sent).toEqual(["abc", "d"]);
  });

  it("leaves no timer behind once flushed", async () => {
    const sent: string[] = [];
    const batch = tokenBatch((t) => sent.push(t), 5);
    batch.push("x");
    batch.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual(["x"]);
  });
});
