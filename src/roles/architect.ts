import { stringify } from "yaml";
import { z } from "zod";
import { inlineMarkdown as md } from "../text/markdown.js";
import { plural } from "../text/plural.js";
import { HISTORY_LINES } from "./history-lines.js";
import { defineRole } from "./types.js";
import { parseYamlEdit } from "./yaml-edit.js";

const decision = z.object({
  title: z.string().min(1),
  decision: z.string().min(1),
  rationale: z.string().min(1),
});

const fields = {
  decisions: z.array(decision).min(1).describe("architecture decisions with their rationale"),
};

/** architect: records design decisions with their rationale before dev codes. */
export const architect = defineRole({
  id: "architect",
  kind: "architect",
  fields,
  write: (h) => ({ update: { decisions: h.decisions }, summary: plural(h.decisions.length, "decision") }),
  brief: {
    reads: ["requirements", "stories", "notes"],
    expected: "Call handoff with `decisions` (title, decision, rationale).",
  },
  review: {
    artifact: (state) => stringify({ decisions: state.decisions }),
    apply: (content) => {
      const edit = parseYamlEdit({ fields }, content);
      if ("error" in edit) return edit;
      return { update: { decisions: edit.handoff.decisions } };
    },
  },
  history: HISTORY_LINES.architect,
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
