import { parse, stringify } from "yaml";
import { z } from "zod";
import { handoffSchema, roleFor, type AnyRole } from "../tools/handoff.js";
import type { Workflow } from "../workflow/schema.js";
import type { PipelineStateType, PipelineUpdate } from "./state.js";

/** What a human reviewer answers: approve, replace the output with an edited one, or reject with a reason. */
export type ReviewResponse = { action: "approve" } | { action: "edit"; content: string } | { action: "reject"; reason: string };

/** The role of the agent node a human node reviews (null for a plain sign-off). */
export function reviewedRole(workflow: Workflow, reviews: string | null): AnyRole | null {
  const spec = reviews ? workflow.nodes[reviews] : undefined;
  if (!reviews || !spec || spec.kind !== "agent") return null;
  return roleFor(spec.agent ?? reviews, spec.gates !== undefined && spec.gates !== false);
}

/** The artifact shown to the reviewer, in the same format an edit must come back in. */
export function artifactOf(role: AnyRole | null, node: string | null, state: PipelineStateType): string {
  switch (role) {
    case "analyst":
      return `${state.requirements ?? ""}\n\n## Acceptance criteria\n${state.acceptanceCriteria.map((c) => `- ${c}`).join("\n")}\n`;
    case "pm":
      return stringify({ stories: state.stories, needs_architecture: state.needsArchitecture });
    case "architect":
      return stringify({ decisions: state.decisions });
    case "dev":
      return `${state.devSummary ?? ""}\n\nFiles changed:\n${state.filesChanged.map((f) => `- ${f}`).join("\n")}\n`;
    case "tea":
      return stringify({ verdict: state.verdict, findings: state.findings });
    case "custom":
      return state.notes[node ?? ""]?.summary ?? "";
    default:
      return [
        `Requirement: ${state.requirement}`,
        state.requirements ? `\n${state.requirements}` : "",
        state.filesChanged.length ? `\nFiles changed:\n${state.filesChanged.map((f) => `- ${f}`).join("\n")}` : "",
      ].join("");
  }
}

/**
 * The state update an edited artifact makes, or a message saying why the edit cannot be used. Checked before
 * the thread is resumed, so a bad edit is refused (exit 2) and the thread keeps waiting.
 */
export function applyEdit(role: AnyRole | null, node: string | null, content: string): { update: PipelineUpdate } | { error: string } {
  if (!content.trim()) return { error: "the edited artifact is empty" };
  switch (role) {
    case "analyst": {
      const [requirements, criteria] = content.split(/^## Acceptance criteria\s*$/m);
      const acceptanceCriteria = (criteria ?? "").split("\n").map((l) => l.replace(/^\s*[-*]\s*/, "").trim()).filter(Boolean);
      if (!acceptanceCriteria.length) return { error: 'keep a "## Acceptance criteria" section with at least one "- criterion" line' };
      return { update: { requirements: requirements.trim(), acceptanceCriteria } };
    }
    case "pm":
    case "architect":
    case "tea": {
      let value: unknown;
      try {
        value = parse(content);
      } catch (e) {
        return { error: `the edited artifact is not valid YAML: ${(e as Error).message}` };
      }
      const checked = handoffSchema(role).safeParse(value);
      if (!checked.success) return { error: `the edited artifact is invalid: ${checked.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}` };
      const h = checked.data;
      if (role === "pm") return { update: { stories: h.stories as PipelineStateType["stories"], needsArchitecture: h.needs_architecture === true } };
      if (role === "architect") return { update: { decisions: h.decisions as PipelineStateType["decisions"] } };
      return { update: { verdict: h.verdict as PipelineStateType["verdict"], findings: h.findings as string[] } };
    }
    case "custom":
      return { update: { notes: { [node ?? ""]: { summary: content.trim(), findings: [], verdict: null } } } };
    case "dev":
      return { error: "dev's output is the code itself: edit the files in the repository, then approve" };
    default:
      return { error: "this step has nothing to edit: approve or reject it" };
  }
}

const responseSchema = z.union([
  z.object({ action: z.literal("approve") }),
  z.object({ action: z.literal("edit"), content: z.string() }),
  z.object({ action: z.literal("reject"), reason: z.string().min(1) }),
]);

/** Reads a resume value as a review response; a bare "approve"/"yes" string counts as approval. */
export function toReviewResponse(value: unknown): ReviewResponse | null {
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (v === "approve" || v === "approved" || v === "yes" || v === "y") return { action: "approve" };
    return null;
  }
  const parsed = responseSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
