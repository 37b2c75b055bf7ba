import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { HumanNodeSpec } from "../../workflow/schema.js";
import type { RoleRecord } from "../../roles/types.js";
import { applyEdit, artifactOf, toReviewResponse } from "../review.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { emitter, finish } from "./context.js";

/** The payload of a human node's interrupt: what to review and what to do with it. */
export interface ApprovalPayload {
  kind: "approval";
  node: string;
  prompt: string;
  reviews: string | null;
  artifact: string;
  /** Why the previous answer could not be used (the question is asked again), or absent. */
  problem?: string;
  /** Set when yolo asks about a gate change an agent made (approve or reject only): the changes, in words. */
  gateChange?: string[];
  /** Set when yolo asks whether tests dev claims are unrelated to the task may fail (approve or reject only): their ids. */
  failureClaims?: string[];
}

/**
 * A human step: pauses the run (LangGraph `interrupt()`) with the artifact to review. The interrupt comes
 * first — the node re-runs from its top when the answer arrives — and the artifact is computed purely.
 * yolo's CLI checks an answer before resuming; a client that resumes with an unreadable answer or an edit that
 * cannot be applied (LangGraph's server, Studio) is asked again with the problem, never taken as a rejection.
 * `role` is the reviewed agent node's role record, resolved with the graph (null for a plain sign-off).
 */
export function humanNode(node: string, spec: HumanNodeSpec, role: RoleRecord | null) {
  const reviews = spec.reviews ?? null;
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    emitter(config)({ type: "node.started", node, fixAttempt: 0, step: state.steps ?? 0 });
    const payload: ApprovalPayload = { kind: "approval", node, prompt: spec.prompt, reviews, artifact: artifactOf(role, reviews, state) };
    // Each interrupt() in a node gets its own answer, in order: asking again is calling it again.
    let problem: string | undefined;
    for (;;) {
      const response = toReviewResponse(interrupt(problem === undefined ? payload : { ...payload, problem }));
      if (response === null) {
        problem = 'unreadable answer: send "approve", {"action":"approve"}, {"action":"edit","content":"…"} or {"action":"reject","reason":"…"}';
        continue;
      }
      if (response.action === "edit") {
        const edit = applyEdit(role, reviews, response.content);
        if ("error" in edit) {
          problem = `the edit cannot be used: ${edit.error}`;
          continue;
        }
        return finish(node, config, { ...edit.update, reviews: [{ by: node, node: reviews, action: "edit", reason: null }] }, null, "edited and approved");
      }
      return decided(response);
    }
    function decided(response: { action: "approve" } | { action: "reject"; reason: string }): Promise<PipelineUpdate> | PipelineUpdate {
      const reason = response.action === "reject" ? response.reason : null;
      return finish(
        node,
        config,
        { reviews: [{ by: node, node: reviews, action: response.action, reason }] },
        null,
        response.action === "approve" ? "approved" : `rejected: ${reason}`,
      );
    }
  };
}
