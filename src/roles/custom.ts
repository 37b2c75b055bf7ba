import { plural } from "../text/plural.js";
import { noteSections } from "./outputs.js";
import { defineRole } from "./types.js";

/**
 * The role of an agent in a user-defined workflow that declares no handoff fields: a summary and findings. Its
 * display and history line are every user role's too (user-role.ts): a node's note.
 */
export const custom = defineRole({
  id: "custom",
  kind: "custom",
  writesCode: true,
  fields: (z) => ({
    summary: z.string().min(1).describe("what you did and concluded"),
    findings: z.array(z.string()).optional().describe("what you found, most important first"),
  }),
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
  history: (v, node) => v.notes[node]?.summary.split("\n")[0] ?? "",
  // Every node's note: a summary and findings, or a user role's declared values field by field.
  display: (v) => noteSections(v.notes),
});
