import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { plural } from "../text/plural.js";
import { DISPLAYS } from "./displays.js";
import { HISTORY_LINES } from "./history-lines.js";
import { capabilitiesOf } from "./catalog.js";
import { defineRole } from "./types.js";

/** Files the agent said it changed that exist, plus the ones its tools really wrote. */
export function changedFiles(root: string, declared: unknown, written: string[]): string[] {
  const named = Array.isArray(declared) ? declared.filter((f): f is string => typeof f === "string") : [];
  return [...new Set([...written, ...named.filter((f) => !f.startsWith("/") && !f.includes("..") && existsSync(join(root, f)))])];
}

/** dev: implements the change with tests; its output is the code itself. */
export const dev = defineRole({
  id: "dev",
  kind: "dev",
  fields: {
    summary: z.string().min(1).describe("what you changed and why"),
    files_changed: z.array(z.string()).describe("project-relative paths you created or modified"),
    unrelated_failures: z
      .array(z.string().min(1).max(500))
      .max(50)
      .optional()
      .describe("ids of tests that were failing before the run which you believe are not part of this task; a human decides, you do not"),
  },
  write: (h, ctx) => {
    const files = changedFiles(ctx.root, h.files_changed, ctx.written);
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
  history: HISTORY_LINES.dev,
  display: DISPLAYS.dev,
  ...capabilitiesOf("dev"),
});
