import { asRole } from "../../roles/registry.js";
import type { AnyRole, RoleRecord } from "../../roles/types.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType } from "../../state/pipeline.js";

/**
 * After an agent that writes code (dev, or a custom agent) handed off: lets the workspace commit the iteration
 * (`--branch`). Attempt 1 is the first try, attempt N+1 the Nth fix attempt. Returns text for the node's summary.
 * Safe on a re-run after a crash: the workspace skips an unchanged tree and amends its own commit of the attempt.
 */
export async function commitIteration(input: {
  node: string;
  role: AnyRole | RoleRecord;
  state: PipelineStateType;
  summary: string;
  threadId: string;
  deps: EngineDeps;
}): Promise<string> {
  const { deps, role, state } = input;
  if (!deps.workspace || !asRole(role).writesCode) return "";
  const attempt = state.gateBlocked ? state.fixAttempts + 1 : 1;
  const { commit } = await deps.workspace.afterDev({
    threadId: input.threadId,
    node: input.node,
    attempt,
    stories: state.stories.map((s) => s.title),
    summary: input.summary,
  });
  return commit ? `, committed ${commit.slice(0, 7)}` : "";
}
