import { inlineMarkdown as md } from "../text/markdown.js";
import { plural } from "../text/plural.js";
import type { Zod } from "./types.js";
import { defineRole } from "./types.js";

const fields = (z: Zod) => ({
  decisions: z
    .array(
      z.object({
        title: z.string().min(1),
        decision: z.string().min(1),
        rationale: z.string().min(1),
      }),
    )
    .min(1)
    .describe("architecture decisions with their rationale"),
});

/** architect: records design decisions with their rationale before dev codes. */
export const architect = defineRole({
  id: "architect",
  kind: "architect",
  pipeline: true,
  runsWhen: "needs_architecture",
  defaultAgent: "architect.md",
  fields,
  write: (h) => ({ update: { decisions: h.decisions }, summary: plural(h.decisions.length, "decision") }),
  brief: {
    reads: ["requirements", "stories", "notes"],
    writes: ["decisions"],
    expected: "Call handoff with `decisions` (title, decision, rationale).",
  },
  review: {
    artifact: (state, _node, kit) => kit.yaml({ decisions: state.decisions }),
    apply: (content, _node, kit) => {
      const edit = kit.edit(content);
      if ("error" in edit) return edit;
      return { update: { decisions: edit.handoff.decisions } };
    },
  },
  history: (v) => plural(v.decisions.length, "decision"),
  display: (v) =>
    v.decisions.length
      ? [
          {
            title: "Decisions",
            text: v.decisions.map((d) => `- ${d.title}: ${d.decision} (${d.rationale})`),
            markdown: { heading: "### Decisions", lines: v.decisions.map((d) => `- **${md(d.title)}**: ${md(d.decision)} — _${md(d.rationale)}_`) },
          },
        ]
      : [],
});
