import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createInkRenderer } from "../../../src/ui/ink-renderer.js";
import { askedAndWaiting, base, fakeStdin, fakeStdout, recordedRun, withConsoleClass } from "./ink-fixtures.js";

// Creates a renderer on stand-in streams; `done` restores the console.
async function inkRenderer(opts: { answersInline?: boolean; onInterrupt?: () => void } = {}) {
  const restore = withConsoleClass();
  const stdout = fakeStdout();
  const stdin = fakeStdin();
  const renderer = await createInkRenderer({
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    ...opts,
  });
  return { renderer, stdout, stdin, restore };
}

describe("createInkRenderer", () => {
  it("draws the final frame and close() resolves once Ink has exited", async () => {
    const { renderer, stdout, restore } = await inkRenderer();
    try {
      for (const e of recordedRun()) renderer.onEvent(e);
      await renderer.close();
    } finally {
      restore();
    }
    expect(stdout.text).toContain("passed (exit 0)");
    expect(stdout.text).toContain("gate test: PASS");
  });

  it("exits on close() even when the run never completed", async () => {
    const { renderer, stdout, restore } = await inkRenderer();
    try {
      for (const e of recordedRun().filter((e) => e.type !== "run.completed")) renderer.onEvent(e);
      await renderer.close();
    } finally {
      restore();
    }
    expect(stdout.text).toContain("All required gates pass");
  });

  it("asks inline: ask() resolves with the typed answer, the next leg draws in the same view, keys stop being read at close", async () => {
    const { renderer, stdout, stdin, restore } = await inkRenderer({ answersInline: true });
    try {
      const [started] = recordedRun();
      for (const e of [started, { ...base, type: "node.started", node: "analyst", fixAttempt: 0 } as YoloEvent, ...askedAndWaiting()]) renderer.onEvent(e);
      await vi.waitFor(() => expect(stdout.text).toContain("Enter answers and the run goes on"));
      expect(stdin.rawMode).toBe(true);
      const answer = renderer.ask!("Integers only, or floats too?");
      stdin.type("Floats too\r");
      await expect(answer).resolves.toBe("Floats too");

      renderer.onEvent({ ...started, resumed: true } as YoloEvent);
      renderer.onEvent({ ...base, type: "node.started", node: "analyst", fixAttempt: 0 });
      await vi.waitFor(() => expect(stdout.text).toMatch(/analyst\s+running/));
      await renderer.close();
      expect(stdin.rawMode).toBe(false);
    } finally {
      restore();
    }
  });

  it("an answer left for later resolves ask() with null; close() also releases a pending ask()", async () => {
    const { renderer, stdin, restore } = await inkRenderer({ answersInline: true });
    try {
      const [started] = recordedRun();
      for (const e of [started, ...askedAndWaiting()]) renderer.onEvent(e);
      await new Promise((r) => setTimeout(r, 100));
      stdin.type("\r");
      await expect(renderer.ask!("?")).resolves.toBeNull();
      const pending = renderer.ask!("?");
      await renderer.close();
      await expect(pending).resolves.toBeNull();
    } finally {
      restore();
    }
  });

  it("has no ask() when it cannot read keys, and passes Ctrl+C and stop requests through", async () => {
    const onInterrupt = vi.fn();
    const { renderer, stdout, stdin, restore } = await inkRenderer({ onInterrupt });
    try {
      expect(renderer.ask).toBeUndefined();
      const [started] = recordedRun();
      renderer.onEvent(started);
      renderer.onEvent({ ...base, type: "node.started", node: "pm", fixAttempt: 0 });
      await vi.waitFor(() => expect(stdout.text).toMatch(/pm\s+running/));
      stdin.type("\x03");
      await vi.waitFor(() => expect(onInterrupt).toHaveBeenCalledTimes(1));
      renderer.onStopRequest!("after-step");
      await vi.waitFor(() => expect(stdout.text).toContain("stopping after pm finishes"));
      await renderer.close();
    } finally {
      restore();
    }
  });
});
