import { stringify } from "yaml";
import { z } from "zod";
import { plural } from "../text/plural.js";
import { DISPLAYS } from "./displays.js";
import { HISTORY_LINES } from "./history-lines.js";
import { capabilitiesOf } from "./catalog.js";
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
    writes: ["decisions"],
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
  display: DISPLAYS.architect,
  ...capabilitiesOf("architect"),
});
