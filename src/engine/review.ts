import { z } from "zod";
import { asRole, type RoleSource } from "../roles/registry.js";
import { applyReviewEdit, reviewArtifact } from "../roles/review-kit.js";
import type { AnyRole, RoleRecord } from "../roles/types.js";
import { nodeRole } from "../workflow/node-roles.js";
import type { Workflow } from "../workflow/schema.js";
import type { PipelineStateType, PipelineUpdate } from "../state/pipeline.js";

/** What a human reviewer answers: approve, replace the output with an edited one, or reject with a reason. */
export type ReviewResponse = { action: "approve" } | { action: "edit"; content: string } | { action: "reject"; reason: string };

/**
 * The role of the agent node a human node reviews (null for a plain sign-off): the node's role record, as the graph
 * resolves it (a human node is handed it when the graph is built; an answer is checked with this before a resume).
 */
export function reviewedRole(workflow: Workflow, reviews: string | null, agents?: ReadonlyMap<string, RoleSource>): RoleRecord | null {
  const spec = reviews ? workflow.nodes[reviews] : undefined;
  if (!reviews || !spec || spec.kind !== "agent") return null;
  return nodeRole(reviews, spec, agents);
}

/** The artifact shown to the reviewer, in the same format an edit must come back in. */
export function artifactOf(role: AnyRole | RoleRecord | null, node: string | null, state: PipelineStateType): string {
  if (role !== null) return reviewArtifact(asRole(role), state, node ?? "");
  return [
    `Requirement: ${state.requirement}`,
    state.requirements ? `\n${state.requirements}` : "",
    state.filesChanged.length ? `\nFiles changed:\n${state.filesChanged.map((f) => `- ${f}`).join("\n")}` : "",
  ].join("");
}

/**
 * The state update an edited artifact makes, or a message saying why the edit cannot be used. Checked before
 * the thread is resumed, so a bad edit is refused (exit 2) and the thread keeps waiting.
 */
export function applyEdit(role: AnyRole | RoleRecord | null, node: string | null, content: string): { update: PipelineUpdate } | { error: string } {
  if (!content.trim()) return { error: "the edited artifact is empty" };
  if (role === null) return { error: "this step has nothing to edit: approve or reject it" };
  return applyReviewEdit(asRole(role), content, node ?? "");
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
