import { z } from "zod";
import { plural } from "../text/plural.js";
import { DISPLAYS } from "./displays.js";
import { HISTORY_LINES } from "./history-lines.js";
import { capabilitiesOf } from "./catalog.js";
import { defineRole } from "./types.js";

/** The role of an agent in a user-defined workflow that declares no handoff fields: a summary and findings. */
export const custom = defineRole({
  id: "custom",
  kind: "custom",
  fields: {
    summary: z.string().min(1).describe("what you did and concluded"),
    findings: z.array(z.string()).optional().describe("what you found, most important first"),
  },
  write: (h, ctx) => {
    const note = { summary: h.summary, findings: h.findings ?? [], verdict: null };
    const files = ctx.written.length ? { filesChanged: ctx.written } : {};
    return { update: { notes: { [ctx.node]: note }, ...files }, summary: note.findings.length ? plural(note.findings.length, "finding") : "done" };
  },
  brief: {
    reads: ["requirements", "stories", "decisions", "notes", "fix-attempt", "change"],
    expected: "Do your part as your instructions describe, then call handoff with `summary` and, when you have any, `findings`.",
  },
  review: {
    artifact: (state, node) => state.notes[node]?.summary ?? "",
    apply: (content, node) => ({ update: { notes: { [node]: { summary: content.trim(), findings: [], verdict: null } } } }),
  },
  history: HISTORY_LINES.custom,
  display: DISPLAYS.custom,
  ...capabilitiesOf("custom"),
});
