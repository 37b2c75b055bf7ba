import { existsSync } from "node:fs";
import { join } from "node:path";
import { plural } from "../text/plural.js";
import { defineRole } from "./types.js";

/**
 * The files the tools really wrote, plus those the agent says it changed (through a command, say) that git confirms
 * the thread changed: a model's claim about a file it never touched is not taken. Without git's answer, a named file
 * that exists.
 */
export function changedFiles(root: string, declared: unknown, written: string[], changed: ReadonlySet<string> | null): string[] {
  const named = Array.isArray(declared) ? declared.filter((f): f is string => typeof f === "string") : [];
  const confirmed = (f: string) => (changed ? changed.has(f) : !f.startsWith("/") && !f.includes("..") && existsSync(join(root, f)));
  return [...new Set([...written, ...named.filter(confirmed)])];
}

/** dev: implements the change with tests; its output is the code itself. */
export const dev = defineRole({
  id: "dev",
  kind: "dev",
  pipeline: true,
  defaultAgent: "dev.md",
  writesCode: true,
  fansOutStories: true,
  fields: (z) => ({
    summary: z.string().min(1).describe("what you changed and why"),
    files_changed: z.array(z.string()).describe("project-relative paths you created or modified"),
    unrelated_failures: z
      .array(z.string().min(1).max(500))
      .max(50)
      .optional()
      .describe("ids of tests that were failing before the run which you believe are not part of this task; a human decides, you do not"),
  }),
  write: (h, ctx) => {
    const files = changedFiles(ctx.root, h.files_changed, ctx.written, ctx.changed);
    // Each handoff states its claims afresh: none given means none made this time.
    const claims = [...new Set(h.unrelated_failures ?? [])];
    return {
      update: { devSummary: h.summary, filesChanged: files, failureClaims: claims, failureClaimsBy: ctx.node },
      summary: `${plural(files.length, "file")} changed`,
    };
  },
  brief: {
    reads: ["requirements", "stories", "decisions", "notes", "fix-attempt"],
    writes: ["change"],
    expected:
      "Implement the change with tests, run the project's tests yourself, then call handoff with `summary` and `files_changed`. Tests that were failing before the run are part of the task: make them pass. Only if one is broken for a reason outside the task, name it in `unrelated_failures`; a human decides.",
  },
  review: {
    artifact: (state) => `${state.devSummary ?? ""}\n\nFiles changed:\n${state.filesChanged.map((f) => `- ${f}`).join("\n")}\n`,
    apply: () => ({ error: "dev's output is the code itself: edit the files in the repository, then approve" }),
  },
  history: (v) => `${plural(v.filesChanged.length, "file")} changed: ${(v.devSummary ?? "").split("\n")[0]}`,
  // The files it reported (custom agents add theirs). The report shows git's diff of the whole thread instead.
  display: (v) => [{ title: "Files changed", text: v.filesChanged.map((f) => `- ${f}`) }],
});
