import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { callSignal, withCallSignal } from "../../../src/llm/call-signal.js";

describe("a model call's own signal", () => {
  it("follows the parent's abort, and leaves no listener on the parent once the call is over", async () => {
    const parent = new AbortController();
    for (let i = 0; i < 20; i++) {
      await withCallSignal(parent.signal, async (signal) => {
        // What the OpenAI client does with the signal it is given: a listener it never removes.
        signal!.addEventListener("abort", () => {}, { once: true });
      });
    }
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);

    const running = callSignal(parent.signal);
    parent.abort(new Error("stop"));
    expect(running.signal?.aborted).toBe(true);
    expect((running.signal!.reason as Error).message).toBe("stop");
    expect(callSignal(parent.signal).signal?.aborted).toBe(true);
    expect(callSignal(undefined).signal).toBeUndefined();
  });
});
