import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { base, recordedRun, usage, widths } from "./ink-fixtures.js";

const STEP_LIMIT =
  "The run reached its step limit: 2 of 2 steps, resumes included, before dev. The thread is saved: resume it with a higher limit (yolo resume k3f9x2ab --max-steps N) or raise limits.maxSteps in yolo.config.ts.";
const PROVIDER =
  "The model provider at http://127.0.0.1:9/v1 could not be reached (ECONNREFUSED). Check that the server is running and the base URL is right (OPENAI_BASE_URL or model.baseURL), then resume the thread.";

// The start of the recorded run, then a run that ends on `reason` (with its error event, as the engine emits it).
function endsWith(status: "limit" | "provider_error", reason: string, code: string): YoloEvent[] {
  const [started] = recordedRun();
  return [
    started,
    { ...base, type: "node.started", node: "analyst", fixAttempt: 0 },
    { ...base, type: "error", code, message: reason },
    {
      ...base,
      type: "run.completed",
      status,
      ...(status === "limit" ? { limit: "steps" as const } : {}),
      exitCode: status === "limit" ? 4 : 5,
      reason,
      usage,
      filesChanged: [],
      resumeCommand: "yolo resume k3f9x2ab",
    },
  ];
}

async function frameOf(events: YoloEvent[], ready: string): Promise<string> {
  const source = createEventSource();
  for (const e of events) source.push(e);
  const view = render(<App events={source} width={80} />);
  await vi.waitFor(() => expect(view.lastFrame()).toContain(ready));
  const frame = view.lastFrame()!;
  view.unmount();
  return frame;
}

// The frame's text with line breaks (and the spaces around them) as single spaces.
const joined = (frame: string) =>
  frame
    .split("\n")
    .map((l) => l.trim())
    .join(" ");

describe("the last screen shows why the run stopped, whole", () => {
  it("the live view wraps a long limit reason to 80 columns instead of cutting it", async () => {
    const frame = await frameOf(endsWith("limit", STEP_LIMIT, "limit"), "resume:");
    expect(joined(frame)).toContain(STEP_LIMIT);
    expect(frame).toContain("✗ stopped at the step limit (exit 4)");
    expect(frame.slice(frame.indexOf("✗ stopped"))).not.toContain("…");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
    // Wrapped at word boundaries: no line starts with a space or ends inside a word it cut.
    const reasonLines = frame.split("\n").slice(frame.split("\n").findIndex((l) => l.startsWith("The run reached")));
    expect(reasonLines.slice(0, 3)).toEqual([
      "The run reached its step limit: 2 of 2 steps, resumes included, before dev. The",
      "thread is saved: resume it with a higher limit (yolo resume k3f9x2ab --max-steps",
      "N) or raise limits.maxSteps in yolo.config.ts.",
    ]);
    // Shown once: the error notice that said the same is left out of the last screen.
    expect(frame.split("The run reached its step limit")).toHaveLength(2);
  });

  it("the live view wraps a provider error's advice, and says 'provider error'", async () => {
    const frame = await frameOf(endsWith("provider_error", PROVIDER, "provider"), "resume:");
    expect(joined(frame)).toContain(PROVIDER);
    expect(frame).toContain("✗ provider error (exit 5)");
    expect(frame).not.toContain("provider_error");
    for (const w of widths(frame)) expect(w).toBeLessThanOrEqual(80);
  });

  it("the plain summary wraps the whole reason onto indented lines instead of cutting its middle", () => {
    let out = "";
    const long = `${STEP_LIMIT} ${PROVIDER}`;
    const r = createPlainRenderer((s) => (out += s));
    for (const e of endsWith("limit", long, "limit")) r.onEvent(e);
    const summary = out.split("\n").filter((l) => !/ (yolo thread|▶|✗ error) /.test(l));
    expect(summary[0]).toMatch(/^\d\d:\d\d:\d\d ✗ run stopped at the step limit \(exit 4\) in \d+s: The run reached/);
    expect(summary.join(" ").replace(/\s+/g, " ")).toContain(long);
    expect(summary.join("\n")).not.toContain("…");
    for (const l of summary) expect(Array.from(l).length).toBeLessThanOrEqual(160);
  });
});
