import { describe, expect, it } from "vitest";
import type { YoloEvent } from "../../../src/events/schema.js";
import { statusWords, wrapKeepingIndent } from "../../../src/ui/format.js";
import { createInkRenderer } from "../../../src/ui/ink-renderer.js";
import { createPlainRenderer } from "../../../src/ui/plain-renderer.js";
import { createTranscript } from "../../../src/ui/transcript.js";
import { initialViewState, reduce } from "../../../src/ui/view-state.js";
import { base, fakeStdin, fakeStdout, recordedRun, usage, withConsoleClass } from "./ink-fixtures.js";

const blockedTea: YoloEvent = { ...base, type: "node.completed", node: "tea", summary: "verdict FAIL, gates 0/1 passed — blocked", blocked: true };

describe("a node that blocked the change is marked as a failure", () => {
  it("plain and verbose scrollback use ✗, not ✔", () => {
    let out = "";
    createPlainRenderer((s) => (out += s)).onEvent(blockedTea);
    expect(out).toMatch(/^\d\d:\d\d:\d\d ✗ tea: verdict FAIL, gates 0\/1 passed — blocked\n$/);
    expect(createTranscript().push(blockedTea)).toEqual(["✗ tea: verdict FAIL, gates 0/1 passed — blocked"]);
  });

  it("the live view's row is blocked as soon as the node completes", () => {
    const [started] = recordedRun();
    const state = [started, { ...base, type: "node.started", node: "tea", fixAttempt: 0 } as YoloEvent, blockedTea].reduce(reduce, initialViewState);
    expect(state.agents.find((a) => a.id === "tea")?.status).toBe("blocked");
  });
});

describe("statuses in words", () => {
  it("says what happened instead of an internal name", () => {
    expect(statusWords("provider_error")).toBe("provider error");
    expect(statusWords("config_error")).toBe("configuration error");
    expect(statusWords("error")).toBe("internal error");
    expect(statusWords("limit", "steps")).toBe("stopped at the step limit");
    expect(statusWords("limit", "loop")).toBe("stopped: loop detected");
    expect(statusWords("passed", null, "chat")).toBe("answered");
  });

  it("the plain summary of a provider failure", () => {
    let out = "";
    const r = createPlainRenderer((s) => (out += s));
    r.onEvent({ ...base, type: "run.completed", status: "provider_error", exitCode: 5, reason: "", usage, filesChanged: [], resumeCommand: null });
    expect(out).toContain("✗ run provider error (exit 5)");
  });
});

describe("a chat answer under the live view", () => {
  const answer = `This project is a small demo package: ${"its tests run with node --test and cover add. ".repeat(3)}\n\n    const sum = add(1, 2); // an indented code line that is long enough to need wrapping at 80\n- short item`;

  it("is word-wrapped to the terminal's 80 columns, keeping indentation and short lines", async () => {
    const restore = withConsoleClass();
    const stdout = fakeStdout(80);
    try {
      const renderer = await createInkRenderer({ stdout: stdout as unknown as NodeJS.WriteStream, stdin: fakeStdin() as unknown as NodeJS.ReadStream });
      renderer.onEvent({ ...base, type: "reply", node: "chat", text: answer });
      await renderer.close();
    } finally {
      restore();
    }
    const printed = stdout.text.slice(stdout.text.lastIndexOf("This project is"));
    const lines = printed.trimEnd().split("\n");
    for (const l of lines) expect(Array.from(l).length).toBeLessThanOrEqual(80);
    expect(lines.join(" ").replace(/\s+/g, " ")).toBe(answer.replace(/\s+/g, " ").trim());
    expect(lines[0]).toBe("This project is a small demo package: its tests run with node --test and cover");
    expect(lines).toContain("    const sum = add(1, 2); // an indented code line that is long enough to need");
    expect(lines).toContain("    wrapping at 80");
    expect(lines.at(-1)).toBe("- short item");
  });

  it("wrapKeepingIndent leaves short lines (and blank ones) exactly as they are", () => {
    expect(wrapKeepingIndent("a\n\n  b  c\n", 10)).toEqual(["a", "", "  b  c", ""]);
  });
});
