import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { createEventSource } from "../../../src/ui/event-source.js";
import { App } from "../../../src/ui/ink/App.js";
import { ANSWER_COMMAND, askedAndWaiting, base, recordedRun, usage } from "./ink-fixtures.js";

// The first leg of a run whose analyst asks a question before doing anything.
function firstLeg(): YoloEvent[] {
  const [started] = recordedRun();
  return [started, { ...base, type: "node.started", node: "analyst", fixAttempt: 0 }, ...askedAndWaiting()];
}

// Renders the view with an inline answer, waiting until the input is on screen.
async function asking(events: YoloEvent[], props: { answersInline?: boolean } = {}) {
  const source = createEventSource();
  for (const e of events) source.push(e);
  const onAnswer = vi.fn();
  const view = render(<App events={source} width={80} answersInline onAnswer={onAnswer} {...props} />);
  await vi.waitFor(() => expect(view.lastFrame()).toContain("? analyst asks:"));
  return { source, onAnswer, ...view };
}

describe("an escalated question answered inline in the Ink view", () => {
  it("shows the question with an input and no resume hint; Enter hands the answer over and the same view goes on", async () => {
    const { source, onAnswer, stdin, lastFrame, unmount } = await asking(firstLeg());
    const frame = lastFrame()!;
    expect(frame).toMatch(/\? analyst\s+asked a question/);
    expect(frame).toContain("  Integers only, or floats too?\n›");
    expect(frame).toContain("Enter answers and the run goes on");
    expect(frame).not.toContain("yolo resume");
    expect(frame).not.toContain("waiting (exit 3)");

    stdin.write("Floats");
    stdin.write(" too");
    await vi.waitFor(() => expect(lastFrame()).toContain("› Floats too"));
    stdin.write("\x7f\x7f\x7f\x7f, please");
    await vi.waitFor(() => expect(lastFrame()).toContain("› Floats, please"));
    stdin.write("\r");
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith("Floats, please"));
    await vi.waitFor(() => expect(lastFrame()).toContain("resuming…"));

    const [started] = recordedRun();
    source.push({ ...started, resumed: true, ts: "2025-05-01T12:01:00.000Z", ran: ["analyst"] } as YoloEvent);
    source.push({ ...base, type: "node.started", node: "analyst", fixAttempt: 0 });
    source.push({ ...base, type: "node.completed", node: "analyst", summary: "2 acceptance criteria" });
    source.push({ ...base, type: "node.started", node: "pm", fixAttempt: 0 });
    await vi.waitFor(() => expect(lastFrame()).toMatch(/pm\s+running/));
    const after = lastFrame()!;
    expect(after).toMatch(/✓ analyst\s+2 acceptance criteria/);
    expect(after).not.toContain("asks:");
    expect(after).not.toContain("resuming…");
    expect(after.split("\n")[0]).not.toContain("(resumed)");
    expect(onAnswer).toHaveBeenCalledTimes(1);
    unmount();
  });

  it("takes text and Enter arriving in one chunk, as a paste or a fast terminal sends them, and answers only once", async () => {
    const { onAnswer, stdin, unmount } = await asking(firstLeg());
    stdin.write("Floats too\r");
    stdin.write("\r");
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith("Floats too"));
    await new Promise((r) => setTimeout(r, 50));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    unmount();
  });

  it("an empty Enter leaves the question for later: the frame then says how to answer it", async () => {
    const { onAnswer, stdin, lastFrame, unmount } = await asking(firstLeg());
    stdin.write("\r");
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(null));
    await vi.waitFor(() => expect(lastFrame()).toContain("waiting (exit 3)"));
    expect(lastFrame()).toContain(`Answer with: ${ANSWER_COMMAND}`);
    expect(lastFrame()!.match(/yolo resume k3f9x2ab/g)).toHaveLength(1);
    unmount();
  });

  it("Ctrl+C while asking leaves the question for later instead of stopping a run", async () => {
    const onInterrupt = vi.fn();
    const source = createEventSource();
    for (const e of firstLeg()) source.push(e);
    const onAnswer = vi.fn();
    const { stdin, unmount } = render(<App events={source} width={80} answersInline onAnswer={onAnswer} onInterrupt={onInterrupt} />);
    await new Promise((r) => setTimeout(r, 50));
    stdin.write("\x03");
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(null));
    expect(onInterrupt).not.toHaveBeenCalled();
    unmount();
  });

  it("without an inline answer (no terminal to type in), shows the command that answers it, once", async () => {
    const { lastFrame, unmount } = await asking(firstLeg(), { answersInline: false });
    await vi.waitFor(() => expect(lastFrame()).toContain("waiting (exit 3)"));
    const frame = lastFrame()!;
    expect(frame).toContain(`Answer with: ${ANSWER_COMMAND}`);
    expect(frame.match(/yolo resume k3f9x2ab/g)).toHaveLength(1);
    expect(frame).not.toContain("›");
    unmount();
  });

  it("a human review (approval) is not answered inline: it shows the command that answers it", async () => {
    const [started] = recordedRun();
    const review = 'yolo resume k3f9x2ab --approve | --edit <file> | --reject "<why>"';
    const events: YoloEvent[] = [
      started,
      {
        ...base,
        type: "interrupt",
        node: "signoff",
        askedBy: "analyst",
        question: "Approve the brief?",
        resumeCommand: review,
        kind: "approval",
        artifact: "# Brief",
      },
      { ...base, type: "run.completed", status: "waiting", exitCode: 3, reason: "signoff waits", usage, filesChanged: [], resumeCommand: review },
    ];
    const { lastFrame, unmount } = await asking(events);
    await vi.waitFor(() => expect(lastFrame()).toContain("waiting (exit 3)"));
    expect(lastFrame()).toContain(`Answer with: ${review}`);
    expect(lastFrame()).not.toContain("›");
    unmount();
  });
});
