import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { base, recordedUntil, usage } from "./ink-fixtures.js";

describe("Ctrl+C in the Ink view", () => {
  it("hands Ctrl+C to the CLI, says the running step will finish first, then shows the resume command", async () => {
    const source = createEventSource();
    for (const e of recordedUntil((e) => e.type === "usage" && e.node === "dev")) source.push(e);
    const onInterrupt = vi.fn();
    const view = render(<App events={source} width={80} onInterrupt={onInterrupt} />);
    await vi.waitFor(() => expect(view.lastFrame()).toMatch(/dev\s+running/));
    await new Promise((r) => setTimeout(r, 50));
    view.stdin.write("\x03");
    await vi.waitFor(() => expect(onInterrupt).toHaveBeenCalledTimes(1));

    view.rerender(<App events={source} width={80} onInterrupt={onInterrupt} stopping="after-step" />);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("■ stopping after dev finishes · Ctrl+C again to stop now"));
    view.rerender(<App events={source} width={80} onInterrupt={onInterrupt} stopping="now" />);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("■ stopping now…"));

    const stopped: YoloEvent[] = [
      { ...base, type: "node.completed", node: "dev", summary: "Added src/add.js and test/add.test.js" },
      {
        ...base,
        type: "run.completed",
        status: "interrupted",
        exitCode: 130,
        reason: "stopped on request once the running step had finished",
        usage,
        filesChanged: ["src/add.js", "test/add.test.js"],
        resumeCommand: "yolo resume k3f9x2ab",
      },
    ];
    for (const e of stopped) source.push(e);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("interrupted (exit 130)"));
    const frame = view.lastFrame()!;
    expect(frame).toContain("■ interrupted (exit 130) in 29s — resumable; the last completed step is saved");
    expect(frame).toContain("resume: yolo resume k3f9x2ab");
    expect(frame).toMatch(/✓ dev\s+Added src\/add\.js/);
    expect(frame).toMatch(/· tea\s+waiting/);
    expect(frame).not.toContain("stopping");
    view.unmount();
  });

  it("marks an agent cut off by a second Ctrl+C as stopped, to run again on resume", async () => {
    const source = createEventSource();
    for (const e of recordedUntil((e) => e.type === "usage" && e.node === "dev")) source.push(e);
    source.push({
      ...base,
      type: "run.completed",
      status: "interrupted",
      exitCode: 130,
      reason: "interrupted",
      usage,
      filesChanged: [],
      resumeCommand: "yolo resume k3f9x2ab",
    });
    const view = render(<App events={source} width={80} />);
    await vi.waitFor(() => expect(view.lastFrame()).toContain("interrupted (exit 130)"));
    expect(view.lastFrame()).toMatch(/■ dev\s+stopped before finishing; runs again on resume/);
    view.unmount();
  });
});
