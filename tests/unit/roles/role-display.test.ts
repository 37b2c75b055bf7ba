import { describe, expect, it } from "vitest";
import { PipelineState, type PipelineStateType } from "../../../src/state/pipeline.js";
import { outputSections } from "../../../src/roles/displays.js";
import { BUILT_IN_ROLES, roleOf } from "../../../src/roles/registry.js";

// A state as the graph's channels default it, with what the roles wrote on top.
function stateWith(over: Partial<PipelineStateType>): PipelineStateType {
  const state: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(PipelineState.spec)) state[key] = (channel as { get(): unknown }).get?.() ?? undefined;
  return {
    ...(state as PipelineStateType),
    notes: {},
    stories: [],
    decisions: [],
    acceptanceCriteria: [],
    filesChanged: [],
    lastGates: [],
    findings: [],
    ...over,
  };
}

const full = stateWith({
  requirements: "Add add(a, b).",
  acceptanceCriteria: ["add(2, 3) is 5"],
  stories: [{ title: "Add <b>numbers</b>\nnow", as_a: "dev", i_want: "add", so_that: "sum", acceptance_criteria: ["adds"] }],
  decisions: [{ title: "Module", decision: "ESM", rationale: "type: module" }],
  notes: {
    review: { summary: "Looks fine.", findings: ["naming"], verdict: null },
    audit: { summary: "risk: high", findings: [], verdict: null, outputs: { risk: "high", issues: ["token <logged>"] } },
  },
  filesChanged: ["src/add.js"],
  verdict: "PASS",
  findings: ["covered"],
});

describe("each role says how its output is shown", () => {
  it("gives show and the report every role's sections in the registry's order, the gate judge's after the gates", () => {
    const { work, judgement } = outputSections(full);
    expect(work.map((s) => s.title)).toEqual(["Requirements", "Acceptance criteria", "Stories", "Decisions", "Notes", "Files changed"]);
    expect(judgement.map((s) => s.title)).toEqual(["Verdict: PASS"]);
    expect(judgement[0].markdown).toEqual({ heading: "Verdict of the test architect: **PASS**", lines: ["- covered"] });
    // The analyst's requirements and dev's files are shown by `yolo show` only: the report quotes the requirement and runs git's diffstat.
    expect(work.filter((s) => s.markdown).map((s) => s.markdown?.heading)).toEqual(["### Stories", "### Decisions", "### Agent outputs"]);
  });

  it("shows a user role's declared values through the same display as the built-in custom role", () => {
    const role = roleOf("audit", false, { id: "audit", handoff: { risk: { type: "string", required: true, description: "" } } });
    expect(role.display).toBe(BUILT_IN_ROLES.custom.display);
    const notes = outputSections(full).work.find((s) => s.title === "Notes");
    expect(notes?.text).toEqual(["- review: Looks fine.\n  - naming", "- audit:\n  risk: high\n  issues:\n    - token <logged>"]);
    expect(notes?.markdown?.lines).toEqual([
      "- **review**: Looks fine.",
      "  - naming",
      "- **audit**",
      "  - risk: high",
      "  - issues:",
      "    - token &lt;logged>",
    ]);
  });

  it("keeps model-written text from breaking the report's Markdown: one line, no raw tags", () => {
    const stories = outputSections(full).work.find((s) => s.title === "Stories");
    expect(stories?.markdown?.lines[0]).toBe("- **Add &lt;b>numbers&lt;/b> now** — as dev, I want add, so that sum");
  });

  it("shows nothing for roles that have not run", () => {
    const { work, judgement } = outputSections(stateWith({}));
    expect(work.filter((s) => s.text.length || s.markdown?.lines.length)).toEqual([]);
    expect(judgement).toEqual([]);
  });
});
