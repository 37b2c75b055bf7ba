import { plural } from "../text/plural.js";
import { defineRole } from "./types.js";

/** `n acceptance criteria`: the analyst's summary and history line. */
const criteriaLine = (n: number) => plural(n, "acceptance criterion", "acceptance criteria");

/** analyst: refines the requirement into Markdown requirements and testable acceptance criteria. */
export const analyst = defineRole({
  id: "analyst",
  kind: "analyst",
  pipeline: true,
  defaultAgent: "analyst.md",
  asksHuman: true,
  fields: (z) => ({
    requirements: z.string().min(1).describe("the refined requirements, as Markdown"),
    acceptance_criteria: z.array(z.string().min(1)).min(1).describe("testable acceptance criteria"),
  }),
  write: (h) => ({
    update: { requirements: h.requirements, acceptanceCriteria: h.acceptance_criteria },
    summary: criteriaLine(h.acceptance_criteria.length),
  }),
  brief: {
    reads: [],
    writes: ["requirements"],
    expected: "Call handoff with `requirements` (Markdown) and `acceptance_criteria` (a list of testable statements).",
  },
  review: {
    artifact: (state) => `${state.requirements ?? ""}\n\n## Acceptance criteria\n${state.acceptanceCriteria.map((c) => `- ${c}`).join("\n")}\n`,
    apply: (content) => {
      const [requirements, criteria] = content.split(/^## Acceptance criteria\s*$/m);
      const acceptanceCriteria = (criteria ?? "")
        .split("\n")
        .map((l) => l.replace(/^\s*[-*]\s*/, "").trim())
        .filter(Boolean);
      if (!acceptanceCriteria.length) return { error: 'keep a "## Acceptance criteria" section with at least one "- criterion" line' };
      return { update: { requirements: requirements.trim(), acceptanceCriteria } };
    },
  },
  history: (v) => criteriaLine(v.acceptanceCriteria.length),
  // In `yolo show` only: the report opens with the requirement and lists the criteria under pm's stories.
  display: (v) => [
    { title: "Requirements", text: v.requirements ? [v.requirements.trim()] : [] },
    { title: "Acceptance criteria", text: v.acceptanceCriteria.map((c) => `- ${c}`) },
  ],
});
