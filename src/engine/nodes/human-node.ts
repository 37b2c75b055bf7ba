import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { HumanNodeSpec, Workflow } from "../../workflow/schema.js";
import { applyEdit, artifactOf, reviewedRole, toReviewResponse } from "../review.js";
import type { PipelineStateType, PipelineUpdate } from "../state.js";
import { emitter, finish } from "./context.js";

/** The payload of a human node's interrupt: what to review and what to do with it. */
export interface ApprovalPayload {
  kind: "approval";
  node: string;
  prompt: string;
  reviews: string | null;
  artifact: string;
}

/**
 * A human step: pauses the run (LangGraph `interrupt()`) with the artifact to review. The interrupt comes
 * first — the node re-runs from its top when the answer arrives — and the artifact is computed purely.
 */
export function humanNode(node: string, spec: HumanNodeSpec, workflow: Workflow) {
  const reviews = spec.reviews ?? null;
  const role = reviewedRole(workflow, reviews);
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    emitter(config)({ type: "node.started", node, fixAttempt: 0 });
    const payload: ApprovalPayload = { kind: "approval", node, prompt: spec.prompt, reviews, artifact: artifactOf(role, reviews, state) };
    const response = toReviewResponse(interrupt(payload)) ?? { action: "reject" as const, reason: "unreadable answer" };
    if (response.action === "edit") {
      const edit = applyEdit(role, reviews, response.content);
      // The edit was checked before the thread resumed; a failure here means the state moved under it.
      if ("error" in edit) throw new Error(`the edit for ${node} cannot be applied: ${edit.error}`);
      return finish(node, config, { ...edit.update, reviews: [{ by: node, node: reviews, action: "edit", reason: null }] }, null, "edited and approved");
    }
    const reason = response.action === "reject" ? response.reason : null;
    return finish(node, config, { reviews: [{ by: node, node: reviews, action: response.action, reason }] }, null, response.action === "approve" ? "approved" : `rejected: ${reason}`);
  };
}
