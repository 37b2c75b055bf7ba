import { describe, expect, it } from "vitest";
import { PipelineState, type PipelineStateType } from "../../../src/state/pipeline.js";
import { composePrompt, layersFor, type ComposeInput } from "../../../src/prompt/compose.js";
import { fence } from "../../../src/text/fence.js";
import { TOOLS } from "../../../src/tools/registry.js";

function state(patch: Partial<PipelineStateType> = {}): PipelineStateType {
  const defaults = Object.fromEntries(
    Object.entries(PipelineState.spec).map(([key, channel]) => {
      const c = channel as unknown as { initialValueFactory?: () => unknown; value?: unknown };
      return [key, c.initialValueFactory ? c.initialValueFactory() : c.value];
    }),
  );
  return { ...defaults, requirement: "Add add()", ...patch } as PipelineStateType;
}

const base: ComposeInput = {
  role: "dev",
  persona: "PERSONA",
  tools: [TOOLS.read_file],
  state: state(),
  maxFixAttempts: 3,
  limits: { readCapBytes: 1000, outputCapBytes: 2000, commandTimeoutS: 30 },
  projectSummary: "Files: src/",
};

describe("composePrompt modes", () => {
  it("names the layer profile of each mode", () => {
    expect(layersFor("run")).toEqual(["runtime-rules", "tool-policy", "persona", "run-directive", "node-brief", "user-input"]);
    expect(layersFor("run", true)).toEqual(["runtime-rules", "tool-policy", "persona", "run-directive", "user-input"]);
    expect(layersFor("agent")).toEqual(["runtime-rules", "tool-policy", "persona", "user-input"]);
    expect(layersFor("chat")).toEqual(["runtime-rules", "tool-policy", "user-input"]);
  });

  it("run mode is the default and tags each layer", () => {
    expect(composePrompt(base).map((m) => m.layer)).toEqual(layersFor("run"));
  });

  it("the post-run profile drops the node brief and says the run has completed", () => {
    const messages = composePrompt({ ...base, runCompleted: true });
    expect(messages.map((m) => m.layer)).toEqual(layersFor("run", true));
    expect(messages.find((m) => m.layer === "run-directive")!.content).toContain("The run has completed");
  });

  it("agent mode keeps the persona and fences what the user typed, with the project summary", () => {
    const messages = composePrompt({ ...base, mode: "agent", userInput: "explain add" });
    expect(messages.map((m) => m.content)).toContain("PERSONA");
    expect(messages[0].content).toContain("working on your own (no pipeline)");
    expect(messages.at(-1)!.content).toBe(`## Project\nFiles: src/\n\n${fence("user", "explain add")}`);
  });

  it("chat mode also drops the persona", () => {
    const messages = composePrompt({ ...base, mode: "chat", userInput: "hi" });
    expect(messages.map((m) => m.content)).not.toContain("PERSONA");
    expect(messages.map((m) => m.role)).toEqual(["system", "system", "user"]);
  });

  it("adds no layer for empty input", () => {
    expect(composePrompt({ ...base, mode: "chat", userInput: "  " }).map((m) => m.layer)).toEqual(["runtime-rules", "tool-policy"]);
    expect(composePrompt({ ...base, state: state({ requirement: "" }) }).map((m) => m.layer)).not.toContain("user-input");
  });

  it("adds no persona layer for an empty persona", () => {
    expect(composePrompt({ ...base, persona: "  " }).map((m) => m.layer)).not.toContain("persona");
  });
});
